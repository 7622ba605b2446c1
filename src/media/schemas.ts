// The media library's API boundary (API.md section 10): the media object, list page, bodies and queries.
import Type, { type Static } from 'typebox';
import { IsoTime, Nullable, StringEnum } from '../contract/schemas.ts';

export const MAX_ALT_TEXT = 1000;

export const AltText = Type.String({ maxLength: MAX_ALT_TEXT, description: 'Alternative text, sent to every platform that takes it (at most 1,000 characters).' });

export const MediaObject = Type.Object(
  {
    id: Type.String({ description: 'med_…' }),
    type: StringEnum(['image', 'video', 'document']),
    contentType: Type.String({ description: 'From the bytes, not from what the upload declared.' }),
    bytes: Type.Integer(),
    sha256: Type.String({ description: 'Lowercase hex SHA-256 of the bytes.' }),
    width: Nullable(Type.Integer()),
    height: Nullable(Type.Integer()),
    durationMs: Nullable(Type.Integer()),
    frameRate: Nullable(Type.Number()),
    videoCodec: Nullable(Type.String()),
    audioCodec: Nullable(Type.String()),
    pages: Nullable(Type.Integer()),
    altText: Nullable(Type.String()),
    url: Type.String({ description: 'Public address that serves the bytes without a key (HEAD and Range honoured); 404 once deleted.' }),
    createdAt: IsoTime,
  },
  { title: 'Media' },
);
export type MediaOut = Static<typeof MediaObject>;

export const MediaPage = Type.Object({
  media: Type.Array(MediaObject),
  cursor: Nullable(Type.String({ description: 'Pass back to get the next page; null on the last page.' })),
  hasMore: Type.Boolean(),
});

export const ListMediaQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
);

export const UploadQuery = Type.Object(
  {
    filename: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'The file name shown in the public URL (its extension follows the bytes).' })),
    altText: Type.Optional(AltText),
  },
  { additionalProperties: false },
);

export const ImportBody = Type.Object(
  {
    url: Type.String({ format: 'uri', pattern: '^[Hh][Tt][Tt][Pp][Ss]?://', maxLength: 2048, description: 'Absolute http(s) URL; fetched through the outbound guard.' }),
    altText: Type.Optional(AltText),
  },
  { additionalProperties: false },
);

export const PatchMediaBody = Type.Object({ altText: Nullable(AltText) }, { additionalProperties: false });

export const MediaIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });

export const DeletedMedia = Type.Object({ id: Type.String(), deleted: Type.Boolean() });
