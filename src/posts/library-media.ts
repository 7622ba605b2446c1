// Library media in a post (API.md section 10): every media item of a create body, wherever it is (mediaItems,
// customMedia, and any field of a platform's settings that holds media items, found through the schemas),
// is either {type, url} or {mediaId}. Library items are resolved here, before every other check: an unknown
// id (or another key's) is 400 at the item, and a known one gets its type and Herald's own URL, so the
// platforms' rules see every item alike. Then each target's library items are checked against its
// platform's media rules on what the probe found (422 at the item), with fitting taken into account.
import { errors, type ApiError } from '../contract/errors.ts';
import type { MediaRow } from '../db/schema.ts';
import type { MediaFacts } from '../media/facts.ts';
import { planFit, type MediaFit } from '../media/rules.ts';
import { PLATFORM_DESCRIPTORS, descriptorOf, isPlatform } from '../platforms/registry.ts';
import { findMediaItems, withCommonSettings, type FoundMediaItem } from '../platforms/schemas.ts';
import type { RuleViolation, TargetContent } from '../platforms/types.ts';
import { CreatePostBody, type CreatePostInput } from './schemas.ts';

/** What resolution needs of the library: the key's rows by id, and a row's public URL. */
export interface LibraryReader {
  getMany(apiKeyId: string, ids: readonly string[]): Promise<MediaRow[]>;
  urlOf(row: MediaRow): string;
}

/** The library rows a body names, by id. */
export type LibraryRows = Map<string, MediaRow>;

const targetSchemas = new Map(PLATFORM_DESCRIPTORS.map((d) => [d.name as string, withCommonSettings(d.settingsSchema)]));

/** Every media item of a create body, with its param path. */
export function mediaItemsOfBody(body: CreatePostInput): FoundMediaItem[] {
  const found = findMediaItems(CreatePostBody, body);
  for (const d of PLATFORM_DESCRIPTORS) {
    if (d.postLevel && body[d.postLevel.field] !== undefined) found.push(...findMediaItems(d.postLevel.schema, body[d.postLevel.field], d.postLevel.field));
  }
  (body.platforms ?? []).forEach((t, i) => {
    if (t.platformSpecificData && isPlatform(t.platform)) {
      found.push(...findMediaItems(targetSchemas.get(t.platform), t.platformSpecificData, `platforms[${i}].platformSpecificData`));
    }
  });
  return found;
}

/** The library ids a (resolved) body names, for the post's uses. */
export function libraryIdsOf(body: CreatePostInput): string[] {
  return [...new Set(mediaItemsOfBody(body).flatMap((f) => (typeof f.item.mediaId === 'string' ? [f.item.mediaId] : [])))];
}

/**
 * Checks every item's shape and resolves library items (a copy of the body; the caller's is untouched).
 * Returns every problem found (validate lists them all; create throws the first).
 */
export async function resolveLibraryMedia(apiKeyId: string, body: CreatePostInput, reader: LibraryReader): Promise<{ body: CreatePostInput; rows: LibraryRows; problems: ApiError[] }> {
  // Library items are filled in on a copy; a body with none is only checked, not copied.
  const found = mediaItemsOfBody(body);
  const named = found.some((f) => typeof f.item.mediaId === 'string');
  const copy = named ? structuredClone(body) : body;
  const items = named ? mediaItemsOfBody(copy) : found;
  const problems: ApiError[] = [];
  const ids = items.flatMap((f) => (typeof f.item.mediaId === 'string' ? [f.item.mediaId] : []));
  const rows: LibraryRows = new Map((ids.length > 0 ? await reader.getMany(apiKeyId, ids) : []).map((r) => [r.id, r]));
  for (const { path, item } of items) {
    const id = item.mediaId;
    if (typeof id !== 'string') {
      if (item.type === undefined) problems.push(errors.missing(`${path}.type`, `${path}.type is required for a media item given by URL (or name a library file by mediaId)`));
      else if (item.type === 'document') problems.push(errors.invalid(`${path}.type`, `${path}: documents come from the media library; upload the PDF (POST /v1/media) and name it by mediaId`));
      if (item.url === undefined) problems.push(errors.missing(`${path}.url`, `${path}.url is required for a media item given by URL (or name a library file by mediaId)`));
      continue;
    }
    const row = rows.get(id);
    if (!row) {
      problems.push(errors.invalid(`${path}.mediaId`, `${path}.mediaId: no media ${id} in this API key's library (POST /v1/media uploads one)`));
      continue;
    }
    if (item.type !== undefined && item.type !== row.type) {
      problems.push(errors.invalid(`${path}.type`, `${path}.type is ${String(item.type)}, but media ${id} is ${row.type === 'image' ? 'an' : 'a'} ${row.type}; leave type out for library media`));
      continue;
    }
    item.type = row.type;
    item.url = reader.urlOf(row);
  }
  return { body: copy, rows, problems };
}

/** Where a target's media items are, relative to the target ('media[1]', 'settings.threadItems[0].mediaItems[2]'). */
export function targetMediaItems(platform: string, content: TargetContent): { field: string; item: Record<string, unknown> }[] {
  const own = content.media.map((m, i) => ({ field: `media[${i}]`, item: m as unknown as Record<string, unknown> }));
  const inSettings = findMediaItems(targetSchemas.get(platform), content.settings).map((f) => ({ field: `settings.${f.path}`, item: f.item }));
  return [...own, ...inSettings];
}

export function mediaFitOf(settings: Record<string, unknown>): MediaFit {
  const v = settings.mediaFit;
  return v === 'crop' || v === 'pad' || v === 'none' ? v : 'auto';
}

const parsedFacts = new WeakMap<MediaRow, MediaFacts>();
/** A row's probe facts, parsed once per row however many targets check them. */
export function factsOf(row: MediaRow): MediaFacts {
  let f = parsedFacts.get(row);
  if (!f) {
    f = JSON.parse(row.facts) as MediaFacts;
    parsedFacts.set(row, f);
  }
  return f;
}

/**
 * The target's library items its platform cannot take, even fitted: one violation per item, naming each
 * broken limit and the file's own value. Platforms without media rules (yet) check nothing here.
 */
export function libraryViolations(platform: string, content: TargetContent, rows: LibraryRows): RuleViolation[] {
  const rules = descriptorOf(platform).mediaRules;
  if (!rules) return [];
  const fit = mediaFitOf(content.settings);
  const out: RuleViolation[] = [];
  for (const { field, item } of targetMediaItems(platform, content)) {
    const row = typeof item.mediaId === 'string' ? rows.get(item.mediaId) : undefined;
    if (!row) continue;
    const plan = planFit(factsOf(row), rules, fit);
    if (plan.action === 'reject') out.push({ field, message: `media ${row.id}: ${plan.violations.map((v) => v.message).join('; ')}` });
  }
  return out;
}
