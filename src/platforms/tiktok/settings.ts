import Type, { type Static } from 'typebox';

export const TIKTOK_PRIVACY_LEVELS = [
  'PUBLIC_TO_EVERYONE',
  'MUTUAL_FOLLOW_FRIENDS',
  'FOLLOWER_OF_CREATOR',
  'SELF_ONLY',
] as const;

/** tiktokSettings on a post, and platformSpecificData of a tiktok target (which overrides it). */
export const TikTokSettingsSchema = Type.Object(
  {
    // Spelled out: mapping over the tuple loses the literal types, and Static<> typed this as undefined.
    privacyLevel: Type.Optional(
      Type.Union([
        Type.Literal('PUBLIC_TO_EVERYONE'),
        Type.Literal('MUTUAL_FOLLOW_FRIENDS'),
        Type.Literal('FOLLOWER_OF_CREATOR'),
        Type.Literal('SELF_ONLY'),
      ]),
    ),
    disableComment: Type.Optional(Type.Boolean()),
    disableDuet: Type.Optional(Type.Boolean()),
    disableStitch: Type.Optional(Type.Boolean()),
    videoCoverTimestampMs: Type.Optional(Type.Integer({ minimum: 0 })),
    brandContentToggle: Type.Optional(Type.Boolean()),
    brandOrganicToggle: Type.Optional(Type.Boolean()),
    isAigc: Type.Optional(Type.Boolean()),
    autoAddMusic: Type.Optional(Type.Boolean()),
    title: Type.Optional(Type.String({ maxLength: 90, description: 'Title of a photo post (the content is its description).' })),
  },
  { additionalProperties: false },
);
export type TikTokSettings = Static<typeof TikTokSettingsSchema>;
