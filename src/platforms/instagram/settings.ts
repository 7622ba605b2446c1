import Type, { type Static } from 'typebox';

/** platformSpecificData of an instagram target. */
export const InstagramSettingsSchema = Type.Object(
  {
    contentType: Type.Optional(Type.Union([Type.Literal('feed'), Type.Literal('reel'), Type.Literal('story')])),
    firstComment: Type.Optional(Type.String({ maxLength: 2200 })),
    collaborators: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 30 }), { maxItems: 3 })),
    shareToFeed: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type InstagramSettings = Static<typeof InstagramSettingsSchema>;
