// Library media in a post (API.md section 10): every media item of a create body, wherever it is (mediaItems,
// customMedia, and any field of a platform's settings that holds media items, found through the schemas),
// is either {type, url} or {mediaId}. Library items are resolved here, before every other check: an unknown
// id (or another key's) is 400 at the item, and a known one gets its type and Herald's own URL, so the
// platforms' rules see every item alike. Then each target's library items are checked against its
// platform's media rules on what the probe found (422 at the item), with fitting taken into account.
import { errors, type ApiError } from '../contract/errors.ts';
import type { DbTx } from '../db/schema.ts';
import type { PostMediaRow } from '../media/media-dal.ts';
import type { MediaFacts } from '../media/facts.ts';
import { planFit, type FitPlan, type MediaFit, type MediaRules } from '../media/rules.ts';
import { PLATFORM_DESCRIPTORS, descriptorOf, isPlatform } from '../platforms/registry.ts';
import { findMediaItems, mapMediaItems, withCommonSettings, type FoundMediaItem, type MediaItemVisit } from '../platforms/schemas.ts';
import type { RuleViolation, TargetContent } from '../platforms/types.ts';
import { CreatePostBody, type CreatePostInput } from './schemas.ts';

/** What resolution needs of the library: the key's rows by id, and a row's public URL. */
export interface LibraryReader {
  getMany(apiKeyId: string, ids: readonly string[], executor?: DbTx): Promise<PostMediaRow[]>;
  urlOf(row: PostMediaRow): string;
}

/** The library rows a body names, by id. */
export type LibraryRows = Map<string, PostMediaRow>;

const targetSchemas = new Map(PLATFORM_DESCRIPTORS.map((d) => [d.name as string, withCommonSettings(d.settingsSchema)]));

/**
 * A create body with each media item `visit` returns a replacement for replaced, wherever it is: the post's
 * own fields, a platform's post-level settings, each target's platformSpecificData. Only the objects on the
 * way to a replaced item are copied; the body itself is never changed.
 */
function mapMediaItemsOfBody(body: CreatePostInput, visit: MediaItemVisit): CreatePostInput {
  let out = mapMediaItems(CreatePostBody, body, visit);
  for (const d of PLATFORM_DESCRIPTORS) {
    const field = d.postLevel?.field;
    if (!field || out[field] === undefined) continue;
    const value = mapMediaItems(d.postLevel!.schema, out[field], visit, field);
    if (value !== out[field]) out = { ...out, [field]: value };
  }
  const platforms = out.platforms ?? [];
  let targets: typeof platforms | undefined;
  platforms.forEach((t, i) => {
    if (!t.platformSpecificData || !isPlatform(t.platform)) return;
    const settings = mapMediaItems(targetSchemas.get(t.platform), t.platformSpecificData, visit, `platforms[${i}].platformSpecificData`);
    if (settings !== t.platformSpecificData) (targets ??= [...platforms])[i] = { ...t, platformSpecificData: settings };
  });
  return targets ? { ...out, platforms: targets } : out;
}

/** Every media item of a create body, with its param path. */
export function mediaItemsOfBody(body: CreatePostInput): FoundMediaItem[] {
  const found: FoundMediaItem[] = [];
  mapMediaItemsOfBody(body, (item, path) => {
    found.push({ path, item });
    return undefined;
  });
  return found;
}

/** The library ids a (resolved) body names, for the post's uses. */
export function libraryIdsOf(body: CreatePostInput): string[] {
  return [...new Set(mediaItemsOfBody(body).flatMap((f) => (typeof f.item.mediaId === 'string' ? [f.item.mediaId] : [])))];
}

/**
 * Checks every item's shape and resolves library items: a body with each library item's type and Herald's
 * URL filled in (a copy where it names any; the caller's body is untouched). Returns every problem found, in
 * the order of the items (validate lists them all; create throws the first).
 */
export async function resolveLibraryMedia(apiKeyId: string, body: CreatePostInput, reader: LibraryReader): Promise<{ body: CreatePostInput; rows: LibraryRows; problems: ApiError[] }> {
  // One walk finds every item and copies the body along the way to each library item: those copies are
  // this function's own, so they are filled in once the rows are read. A body with none is not copied.
  const items: FoundMediaItem[] = [];
  const resolved = mapMediaItemsOfBody(body, (item, path) => {
    const own = typeof item.mediaId === 'string' ? { ...item } : undefined;
    items.push({ path, item: own ?? item });
    return own;
  });
  const ids = items.flatMap((f) => (typeof f.item.mediaId === 'string' ? [f.item.mediaId] : []));
  const rows: LibraryRows = new Map((ids.length > 0 ? await reader.getMany(apiKeyId, ids) : []).map((r) => [r.id, r]));
  const problems: ApiError[] = [];
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
    // The item is the copy made above, never the caller's.
    item.type = row.type;
    item.url = reader.urlOf(row);
  }
  return { body: resolved, rows, problems };
}

/**
 * 400 at the first item naming one of `gone`: library files deleted after the checks read them and before
 * the post's rows were written (nothing was written). The same answer a create naming them afterwards gets.
 */
export function mediaGone(body: CreatePostInput, gone: readonly string[]): ApiError {
  const at = mediaItemsOfBody(body).find((f) => typeof f.item.mediaId === 'string' && gone.includes(f.item.mediaId));
  const path = at?.path ?? 'mediaItems';
  return errors.invalid(`${path}.mediaId`, `${path}.mediaId: no media ${gone[0]} in this API key's library (it has been deleted)`);
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

/** Parsed facts by media id; a hit only when the row's JSON is the one parsed (so never stale). */
const parsedFacts = new Map<string, { json: string; facts: MediaFacts }>();
const PARSED_FACTS_KEPT = 10_000;
/**
 * A row's probe facts, parsed once however many targets and posts check them: every create that names a
 * file would otherwise parse the same JSON again. Read-only for the caller (shared between requests).
 */
export function factsOf(row: Pick<PostMediaRow, 'id' | 'facts'>): MediaFacts {
  const hit = parsedFacts.get(row.id);
  if (hit && hit.json === row.facts) return hit.facts;
  const facts = JSON.parse(row.facts) as MediaFacts;
  // A small memo: when full, the oldest entry (Map keeps insertion order) makes room.
  if (parsedFacts.size >= PARSED_FACTS_KEPT) parsedFacts.delete(parsedFacts.keys().next().value as string);
  parsedFacts.set(row.id, { json: row.facts, facts });
  return facts;
}

/** Fit plans by platform and mediaFit, per file's facts: a plan depends on nothing else. */
const fitPlans = new WeakMap<MediaFacts, Map<string, FitPlan>>();
function fitPlanOf(facts: MediaFacts, platform: string, rules: MediaRules, fit: MediaFit): FitPlan {
  let byRule = fitPlans.get(facts);
  if (!byRule) fitPlans.set(facts, (byRule = new Map()));
  const key = `${platform}/${fit}`;
  let plan = byRule.get(key);
  if (!plan) byRule.set(key, (plan = planFit(facts, rules, fit)));
  return plan;
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
    const plan = fitPlanOf(factsOf(row), platform, rules, fit);
    if (plan.action === 'reject') out.push({ field, message: `media ${row.id}: ${plan.violations.map((v) => v.message).join('; ')}` });
  }
  return out;
}
