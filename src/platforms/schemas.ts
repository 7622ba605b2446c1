// Schemas shared by the posts API and the platform settings.
import Type from 'typebox';
import { StringEnum } from '../lib/schema.ts';

export const MediaItemSchema = Type.Object(
  {
    type: StringEnum(['image', 'video'], { description: 'Kind of media.' }),
    url: Type.String({
      format: 'uri',
      pattern: '^[Hh][Tt][Tt][Pp][Ss]?://',
      maxLength: 2048,
      description: 'Absolute http(s) URL of the file; fetched through the outbound guard when a target publishes.',
    }),
  },
  { additionalProperties: false },
);

export const ThreadItemSchema = Type.Object(
  {
    content: Type.String({ maxLength: 25000 }),
    mediaItems: Type.Optional(Type.Array(MediaItemSchema, { maxItems: 35 })),
  },
  { additionalProperties: false },
);
