import Type, { type Static } from 'typebox';

const contentType = Type.Optional(Type.Union([Type.Literal('feed'), Type.Literal('reel'), Type.Literal('story')]));
const link = Type.Optional(Type.String({ format: 'uri', maxLength: 2048 }));

/** SPEC's post-level facebookSettings: how the post is published on every facebook target. */
export const FacebookSettingsSchema = Type.Object({ contentType, link }, { additionalProperties: false });

/**
 * platformSpecificData of a facebook target: the post-level fields (which it overrides) plus what belongs
 * to one target only. A first comment is made by one Page, with its own outcome on that target, so it is
 * not a post-level setting.
 */
export const FacebookTargetSettingsSchema = Type.Object(
  {
    contentType,
    link,
    firstComment: Type.Optional(
      Type.String({
        minLength: 1,
        // Widely reported as Facebook's comment limit; Meta's reference does not state one.
        maxLength: 8000,
        description: 'Posted as a comment by the Page once the post is published (not on stories).',
      }),
    ),
  },
  { additionalProperties: false },
);
export type FacebookSettings = Static<typeof FacebookTargetSettingsSchema>;
