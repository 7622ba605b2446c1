import Type, { type Static } from 'typebox';
import { ThreadItemSchema } from '../schemas.ts';

/** platformSpecificData of a threads target. */
export const ThreadsSettingsSchema = Type.Object(
  {
    threadItems: Type.Optional(
      Type.Array(ThreadItemSchema, { maxItems: 25, description: 'Posts published as replies after the first.' }),
    ),
    replyControl: Type.Optional(
      Type.Union([
        Type.Literal('everyone'),
        Type.Literal('accounts_you_follow'),
        Type.Literal('mentioned_only'),
        Type.Literal('parent_post_author_only'),
        Type.Literal('followers_only'),
      ]),
    ),
    topicTag: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })),
    firstComment: Type.Optional(
      // A loose bound: validate counts it the Threads way (500, emoji as their UTF-8 bytes; 5 links).
      Type.String({ minLength: 1, maxLength: 2000, description: 'Published as a reply by the same account once the post is published.' }),
    ),
  },
  { additionalProperties: false },
);
export type ThreadsSettings = Static<typeof ThreadsSettingsSchema>;
