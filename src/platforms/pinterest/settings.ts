// platformSpecificData of a pinterest target (API.md §11: {boardId, title, link}). Pinterest has no
// comment API, so there is no firstComment (API.md §12). Lengths are create-time rules (validate.ts,
// 422 naming the limit), not schema limits.
import Type, { type Static } from 'typebox';

export const PinterestSettingsSchema = Type.Object(
  {
    boardId: Type.Optional(
      Type.String({ pattern: '^[0-9]+$', maxLength: 64, description: 'The board the Pin is saved to (required): its numeric id, as GET /v5/boards lists it.' }),
    ),
    title: Type.Optional(Type.String({ description: 'The Pin title, at most 100 characters. The post content is the Pin description.' })),
    link: Type.Optional(
      Type.String({
        format: 'uri',
        pattern: '^[Hh][Tt][Tt][Pp][Ss]?://',
        description: 'The destination link of the Pin: an absolute http(s) URL, at most 2,048 characters.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type PinterestSettings = Static<typeof PinterestSettingsSchema>;

/** Reads the merged settings defensively: they were validated at create time, but stored long ago. */
export function readSettings(raw: Record<string, unknown>): PinterestSettings {
  const out: PinterestSettings = {};
  if (typeof raw.boardId === 'string' && /^[0-9]+$/.test(raw.boardId)) out.boardId = raw.boardId;
  if (typeof raw.title === 'string' && raw.title.length > 0) out.title = raw.title;
  if (typeof raw.link === 'string' && raw.link.length > 0) out.link = raw.link;
  return out;
}
