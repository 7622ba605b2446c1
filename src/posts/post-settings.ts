// Post-level platform settings (SPEC's tiktokSettings, facebookSettings): which create-body fields exist
// comes from the platform descriptors; a post stores them as one JSON object keyed by field name.
import Type, { type TSchema } from 'typebox';
import { Nullable } from '../lib/schema.ts';
import { PLATFORM_DESCRIPTORS } from '../platforms/registry.ts';

export type PostSettings = Record<string, Record<string, unknown>>;

/** The post-level settings fields, in registry order. */
export const POST_LEVEL_FIELDS: readonly { field: string; schema: TSchema }[] = PLATFORM_DESCRIPTORS.flatMap((d) => (d.postLevel ? [d.postLevel] : []));

/** Create-body properties: each field optional. */
export function postLevelBodyProperties(): Record<string, TSchema> {
  return Object.fromEntries(POST_LEVEL_FIELDS.map(({ field, schema }) => [field, Type.Optional(schema)]));
}

/** Post-object properties: each field present, null when not set. */
export function postLevelOutProperties(): Record<string, TSchema> {
  return Object.fromEntries(POST_LEVEL_FIELDS.map(({ field, schema }) => [field, Nullable(schema as TSchema & { type: string })]));
}

/** The post-level settings a create body carries, or null when it carries none. */
export function postSettingsOf(body: Record<string, unknown>): PostSettings | null {
  const out: PostSettings = {};
  for (const { field } of POST_LEVEL_FIELDS) {
    const value = body[field];
    if (value !== undefined && value !== null) out[field] = value as Record<string, unknown>;
  }
  return Object.keys(out).length > 0 ? out : null;
}

/** Every post-level field of a stored post, null where it was not set (the post object's shape). */
export function presentPostSettings(settings: PostSettings | null): Record<string, Record<string, unknown> | null> {
  return Object.fromEntries(POST_LEVEL_FIELDS.map(({ field }) => [field, settings?.[field] ?? null]));
}
