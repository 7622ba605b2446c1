import Type, { type Static } from 'typebox';
import { LIMITS } from './info.ts';

/** platformSpecificData of a linkedin target (API.md sections 11 and 12). */
export const LinkedInSettingsSchema = Type.Object(
  {
    visibility: Type.Optional(
      Type.Union([Type.Literal('PUBLIC'), Type.Literal('CONNECTIONS')], {
        description: 'Who sees the post (default PUBLIC). CONNECTIONS only for a member, not a Page.',
      }),
    ),
    firstComment: Type.Optional(
      Type.String({ minLength: 1, maxLength: LIMITS.comment, description: 'Posted as a comment by the same account once the post is published.' }),
    ),
    documentTitle: Type.Optional(
      Type.String({ minLength: 1, maxLength: LIMITS.documentTitle, description: 'Title shown on a document (PDF) post.' }),
    ),
  },
  { additionalProperties: false },
);
export type LinkedInSettings = Static<typeof LinkedInSettingsSchema>;

/** Reads the merged settings defensively: validated at create time, but stored long ago. */
export function readSettings(raw: Record<string, unknown>): LinkedInSettings {
  const out: LinkedInSettings = {};
  if (raw.visibility === 'PUBLIC' || raw.visibility === 'CONNECTIONS') out.visibility = raw.visibility;
  if (typeof raw.firstComment === 'string' && raw.firstComment.length > 0) out.firstComment = raw.firstComment;
  if (typeof raw.documentTitle === 'string' && raw.documentTitle.length > 0) out.documentTitle = raw.documentTitle;
  return out;
}
