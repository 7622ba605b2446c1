import Type, { type Static } from 'typebox';
import { ThreadItemSchema } from '../schemas.ts';

/** platformSpecificData of a mastodon target (API.md sections 11 and 12). */
export const MastodonSettingsSchema = Type.Object(
  {
    visibility: Type.Optional(
      Type.Union([Type.Literal('public'), Type.Literal('unlisted'), Type.Literal('private'), Type.Literal('direct')], {
        description: "Who sees the post; the account's default when absent.",
      }),
    ),
    spoilerText: Type.Optional(
      Type.String({ maxLength: 5000, description: 'Content warning shown before the text; it counts towards the instance\'s character limit.' }),
    ),
    sensitive: Type.Optional(Type.Boolean({ description: 'Hide the media behind a warning.' })),
    language: Type.Optional(Type.String({ pattern: '^[a-z]{2,3}$', description: 'ISO 639 language code of the text, e.g. "en".' })),
    threadItems: Type.Optional(
      Type.Array(ThreadItemSchema, { maxItems: 25, description: 'Posts published as replies after the first, forming a thread.' }),
    ),
    firstComment: Type.Optional(
      Type.String({ minLength: 1, maxLength: 25000, description: 'A reply by the same account, posted once the post is published.' }),
    ),
  },
  { additionalProperties: false },
);
export type MastodonSettings = Static<typeof MastodonSettingsSchema>;
