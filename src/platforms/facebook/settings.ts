import Type, { type Static } from 'typebox';

/** facebookSettings on a post, and platformSpecificData of a facebook target (which overrides it). */
export const FacebookSettingsSchema = Type.Object(
  {
    contentType: Type.Optional(Type.Union([Type.Literal('feed'), Type.Literal('reel'), Type.Literal('story')])),
    link: Type.Optional(Type.String({ format: 'uri', maxLength: 2048 })),
  },
  { additionalProperties: false },
);
export type FacebookSettings = Static<typeof FacebookSettingsSchema>;
