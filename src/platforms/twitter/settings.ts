import Type, { type Static } from 'typebox';
import { ThreadItemSchema } from '../schemas.ts';

/** platformSpecificData of a twitter target. */
export const TwitterSettingsSchema = Type.Object(
  {
    threadItems: Type.Optional(
      Type.Array(ThreadItemSchema, { maxItems: 25, description: 'Posts published as replies after the first, forming a thread.' }),
    ),
    firstComment: Type.Optional(Type.String({ minLength: 1, maxLength: 25_000, description: 'Posted as a reply by the same account once the post is published.' })),
    replySettings: Type.Optional(
      Type.Union([
        Type.Literal('following'),
        Type.Literal('mentionedUsers'),
        Type.Literal('subscribers'),
        Type.Literal('verified'),
      ]),
    ),
  },
  { additionalProperties: false },
);
export type TwitterSettings = Static<typeof TwitterSettingsSchema>;
