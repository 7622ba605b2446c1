import Type, { type Static } from 'typebox';
import { ThreadItemSchema } from '../schemas.ts';
import { TEXT_LIMITS } from './info.ts';

/** A BCP-47 language tag as the post lexicon takes it in `langs` (language, then subtags). */
export const LANG_PATTERN = '^(?:[A-Za-z]{2,3}|[A-Za-z]{5,8}|[iIxX])(?:-[A-Za-z0-9]{1,8})*$';

/** platformSpecificData of a bluesky target (API.md sections 11 and 12). */
export const BlueskySettingsSchema = Type.Object(
  {
    langs: Type.Optional(
      Type.Array(Type.String({ pattern: LANG_PATTERN, maxLength: 64 }), {
        maxItems: TEXT_LIMITS.maxLangs,
        description: 'Languages of the text, as BCP-47 tags (e.g. "en", "pt-BR"); at most 3. Applies to every post of the thread.',
      }),
    ),
    threadItems: Type.Optional(
      Type.Array(ThreadItemSchema, { maxItems: 25, description: 'Posts published as replies after the first, forming a thread.' }),
    ),
    firstComment: Type.Optional(
      Type.String({ maxLength: 3000, description: 'A reply by the same account, posted under the post once it is published.' }),
    ),
  },
  { additionalProperties: false },
);
export type BlueskySettings = Static<typeof BlueskySettingsSchema>;
