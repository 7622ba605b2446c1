import Type, { type Static } from 'typebox';
import { MediaItemSchema } from '../schemas.ts';

/**
 * platformSpecificData of a youtube target (API.md section 11). Limits that are YouTube's rules (title
 * length, tags length, the thumbnail being an image) are checked by validate.ts, so they answer 422.
 */
export const YouTubeSettingsSchema = Type.Object(
  {
    title: Type.Optional(Type.String({ description: 'The video title (required; at most 100 characters, no < or >). The post content is the description.' })),
    madeForKids: Type.Optional(Type.Boolean({ description: 'Required: whether the video is made for kids (status.selfDeclaredMadeForKids).' })),
    privacyStatus: Type.Optional(
      Type.Union([Type.Literal('public'), Type.Literal('unlisted'), Type.Literal('private')], { description: 'Default public.' }),
    ),
    tags: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { maxItems: 500, description: 'At most 500 characters in all, as YouTube counts them.' })),
    categoryId: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$', description: 'A YouTube video category id; default 22 (People & Blogs).' })),
    thumbnail: Type.Optional(MediaItemSchema),
    firstComment: Type.Optional(Type.String({ minLength: 1, description: 'Posted as a top-level comment once the video is published.' })),
    notifySubscribers: Type.Optional(Type.Boolean({ description: 'Default true (YouTube\'s default).' })),
  },
  { additionalProperties: false },
);
export type YouTubeSettings = Static<typeof YouTubeSettingsSchema>;
