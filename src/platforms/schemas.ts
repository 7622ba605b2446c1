// Schemas shared by the posts API and the platform settings.
import Type, { type TObject, type TSchema } from 'typebox';
import { StringEnum } from '../lib/schema.ts';
import { namedSchema } from '../contract/components.ts';

/** The keyword that marks a media item's schema, so a platform's settings can hold media items anywhere. */
export const MEDIA_ITEM_MARK = 'x-herald-media-item';

/**
 * A media item: `{type, url}` (fetched when a target publishes) or `{mediaId}` from the media library (its
 * type and Herald's own URL are filled in at create); either may carry altText. Which of the two an item
 * is, and that it is complete, is checked after the schema (missing type or url: 400 with that field).
 */
export const MediaItemSchema = Type.Object(
  {
    type: Type.Optional(StringEnum(['image', 'video', 'document'], { description: 'Kind of media; from the library for library media (document: a PDF from the library).' })),
    url: Type.Optional(
      Type.String({
        format: 'uri',
        pattern: '^[Hh][Tt][Tt][Pp][Ss]?://',
        maxLength: 2048,
        description: 'Absolute http(s) URL of the file; fetched through the outbound guard when a target publishes. Herald fills it in for library media.',
      }),
    ),
    mediaId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'A file of the media library (POST /v1/media), instead of type and url.' })),
    altText: Type.Optional(Type.String({ maxLength: 1000, description: "Alt text, sent to every platform that takes it; a library item without it uses the library's." })),
  },
  { additionalProperties: false, [MEDIA_ITEM_MARK]: true, description: '{type, url} or {mediaId}, each with an optional altText.' },
);

export const ThreadItemSchema = Type.Object(
  {
    content: Type.String({ maxLength: 25000 }),
    mediaItems: Type.Optional(Type.Array(MediaItemSchema, { maxItems: 35 })),
  },
  { additionalProperties: false },
);

export const MEDIA_FIT_VALUES = ['auto', 'crop', 'pad', 'none'] as const;

/** Settings every platform's platformSpecificData takes, whatever the platform (added to each schema). */
const COMMON_TARGET_SETTINGS = {
  mediaFit: Type.Optional(
    StringEnum(MEDIA_FIT_VALUES, {
      description:
        'How library images that break this platform\'s rules are fitted: auto (default) converts the format and shrinks the size when the aspect ratio is allowed; crop (centre) or pad (white letterbox) also fix the ratio; none sends the file as it is, or refuses it.',
    }),
  ),
};

/** A platform's platformSpecificData schema with the common settings (mediaFit) added. */
export function withCommonSettings(schema: TSchema): TSchema {
  const o = schema as TObject;
  if (o.type !== 'object' || !o.properties) return schema;
  return { ...o, properties: { ...o.properties, ...COMMON_TARGET_SETTINGS } } as TSchema;
}

/** A media item found in a value, with where it is ('mediaItems[1]', 'threadItems[0].mediaItems[2]'). */
export interface FoundMediaItem {
  path: string;
  item: Record<string, unknown>;
}

const join = (path: string, key: string) => (path ? `${path}.${key}` : key);

/** What a walk does at each media item: nothing (undefined), or the item to put in its place. */
export type MediaItemVisit = (item: Record<string, unknown>, path: string) => Record<string, unknown> | undefined;

/**
 * Walks `value` beside its schema: wherever the schema has a media item (MediaItemSchema, marked), the value
 * there is one, so a platform's settings can hold media items in any field (thread items, a thumbnail) and
 * they are resolved, checked and fitted like the post's own. Returns the value with the items `visit`
 * replaced, copying only the objects and arrays on the way to a replaced item (the value itself is never
 * changed, and is returned as it is when nothing was replaced), and whether any item was found.
 */
function walk(schema: TSchema | undefined, value: unknown, path: string, visit: MediaItemVisit): { value: unknown; found: boolean } {
  if (!schema || value === null || value === undefined) return { value, found: false };
  const s = schema as Record<string, unknown>;
  // A named schema is written as a reference: follow it to the one definition.
  if (typeof s.$ref === 'string') return walk(namedSchema(s.$ref), value, path, visit);
  if (s[MEDIA_ITEM_MARK] === true) {
    if (typeof value !== 'object' || Array.isArray(value)) return { value, found: false };
    return { value: visit(value as Record<string, unknown>, path) ?? value, found: true };
  }
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const branches = s[key];
    if (Array.isArray(branches)) {
      // The first branch that finds something speaks for the value.
      for (const b of branches as TSchema[]) {
        const r = walk(b, value, path, visit);
        if (r.found) return r;
      }
    }
  }
  let found = false;
  if (Array.isArray(value) && s.items) {
    let copy: unknown[] | undefined;
    value.forEach((v, i) => {
      const r = walk(s.items as TSchema, v, `${path}[${i}]`, visit);
      found ||= r.found;
      if (r.value !== v) (copy ??= [...value])[i] = r.value;
    });
    return { value: copy ?? value, found };
  }
  if (typeof value === 'object' && !Array.isArray(value)) {
    const properties = (s.properties ?? {}) as Record<string, TSchema>;
    let copy: Record<string, unknown> | undefined;
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (!properties[k]) continue;
      const r = walk(properties[k], v, join(path, k), visit);
      found ||= r.found;
      if (r.value !== v) (copy ??= { ...(value as Record<string, unknown>) })[k] = r.value;
    }
    return { value: copy ?? value, found };
  }
  return { value, found };
}

/** Every media item in `value`, with where it is ('mediaItems[1]', 'threadItems[0].mediaItems[2]'). */
export function findMediaItems(schema: TSchema | undefined, value: unknown, path = ''): FoundMediaItem[] {
  const out: FoundMediaItem[] = [];
  walk(schema, value, path, (item, at) => {
    out.push({ path: at, item });
    return undefined;
  });
  return out;
}

/** `value` with each media item `visit` returns a replacement for replaced (a copy; `value` is untouched). */
export function mapMediaItems<T>(schema: TSchema | undefined, value: T, visit: MediaItemVisit, path = ''): T {
  return walk(schema, value, path, visit).value as T;
}
