// The video resource a client sends to videos.insert and videos.update, checked as YouTube checks it:
// unknown fields refused (INVALID_ARGUMENT), wrong enum values refused, and the metadata rules of §8.5
// (title, description, tags, category, publishAt) answered with their youtube.video reasons.
import { DEFAULT_CATEGORY_ID, FORBIDDEN_TEXT_CHARS, TEXT_LIMITS, US_ASSIGNABLE_CATEGORIES } from '../../platforms/youtube/info.ts';
import { charCount, tagsLength, utf8Bytes } from '../../platforms/youtube/validate.ts';
import { ERR, videoMetadataError, type ApiErrorSpec } from './google-errors.ts';
import type { Snippet, VideoStatus } from './store.ts';

type Json = Record<string, unknown>;

const TOP = ['kind', 'etag', 'id', 'snippet', 'status', 'contentDetails', 'fileDetails', 'liveStreamingDetails', 'localizations', 'player', 'processingDetails', 'recordingDetails', 'statistics', 'suggestions', 'topicDetails'];
const SNIPPET = ['title', 'description', 'tags', 'categoryId', 'defaultLanguage', 'defaultAudioLanguage', 'publishedAt', 'channelId', 'thumbnails', 'channelTitle', 'liveBroadcastContent', 'localized'];
const STATUS = ['privacyStatus', 'publishAt', 'selfDeclaredMadeForKids', 'containsSyntheticMedia', 'license', 'embeddable', 'publicStatsViewable', 'uploadStatus', 'failureReason', 'rejectionReason', 'madeForKids'];
const PRIVACY = ['public', 'unlisted', 'private'];

export type Parsed = { ok: true; id?: string; snippet?: Snippet; status?: VideoStatus } | { ok: false; error: ApiErrorSpec };

function unknownName(obj: Json, allowed: string[], at: string): ApiErrorSpec | null {
  const bad = Object.keys(obj).find((k) => !allowed.includes(k));
  return bad ? ERR.invalidArgument(`Invalid JSON payload received. Unknown name "${bad}" at '${at}': Cannot find field.`) : null;
}

function wrongType(at: string, type: string, value: unknown): ApiErrorSpec {
  return ERR.invalidArgument(`Invalid value at '${at}' (${type}), ${JSON.stringify(value)}`);
}

function isObj(v: unknown): v is Json {
  return Boolean(v) && typeof v === 'object' && !Array.isArray(v);
}

function parseSnippet(raw: unknown, mode: 'insert' | 'update'): { snippet: Snippet } | { error: ApiErrorSpec } {
  if (!isObj(raw)) return { error: mode === 'insert' ? videoMetadataError('invalidTitle', 'body.snippet.title') : videoMetadataError('invalidVideoMetadata', 'body.snippet') };
  const unknown = unknownName(raw, SNIPPET, 'resource.snippet');
  if (unknown) return { error: unknown };
  for (const key of ['title', 'description', 'categoryId', 'defaultLanguage', 'defaultAudioLanguage']) {
    if (raw[key] !== undefined && typeof raw[key] !== 'string') return { error: wrongType(`resource.snippet.${key}`, 'TYPE_STRING', raw[key]) };
  }
  if (raw.tags !== undefined && (!Array.isArray(raw.tags) || raw.tags.some((t) => typeof t !== 'string'))) return { error: wrongType('resource.snippet.tags', 'TYPE_STRING', raw.tags) };
  const title = (raw.title as string | undefined) ?? '';
  const description = (raw.description as string | undefined) ?? '';
  const tags = (raw.tags as string[] | undefined) ?? [];
  const categoryId = raw.categoryId as string | undefined;
  // videos.update replaces the snippet: it needs both the title and the category.
  if (mode === 'update' && (!title || !categoryId)) return { error: videoMetadataError('invalidVideoMetadata', 'body.snippet') };
  if (!title.trim() || charCount(title) > TEXT_LIMITS.titleChars || FORBIDDEN_TEXT_CHARS.test(title)) return { error: videoMetadataError('invalidTitle', 'body.snippet.title') };
  if (utf8Bytes(description) > TEXT_LIMITS.descriptionBytes || FORBIDDEN_TEXT_CHARS.test(description)) return { error: videoMetadataError('invalidDescription', 'body.snippet.description') };
  if (tagsLength(tags) > TEXT_LIMITS.tagsChars || tags.some((t) => FORBIDDEN_TEXT_CHARS.test(t))) return { error: videoMetadataError('invalidTags', 'body.snippet.tags') };
  if (categoryId !== undefined && !(US_ASSIGNABLE_CATEGORIES as readonly string[]).includes(categoryId)) return { error: videoMetadataError('invalidCategoryId', 'body.snippet.categoryId') };
  const snippet: Snippet = { title, description, tags, categoryId: categoryId ?? DEFAULT_CATEGORY_ID };
  if (typeof raw.defaultLanguage === 'string') snippet.defaultLanguage = raw.defaultLanguage;
  if (typeof raw.defaultAudioLanguage === 'string') snippet.defaultAudioLanguage = raw.defaultAudioLanguage;
  return { snippet };
}

function parseStatus(raw: unknown, now: number): { status: VideoStatus } | { error: ApiErrorSpec } {
  const r = isObj(raw) ? raw : {};
  const unknown = unknownName(r, STATUS, 'resource.status');
  if (unknown) return { error: unknown };
  const privacy = r.privacyStatus ?? 'public';
  if (typeof privacy !== 'string' || !PRIVACY.includes(privacy)) {
    return { error: ERR.invalidArgument(`Invalid value at 'resource.status.privacy_status' (type.googleapis.com/google.youtube.api.v3.VideoStatus.PrivacyStatus), ${JSON.stringify(privacy)}`) };
  }
  for (const key of ['selfDeclaredMadeForKids', 'containsSyntheticMedia', 'embeddable', 'publicStatsViewable']) {
    if (r[key] !== undefined && typeof r[key] !== 'boolean') return { error: wrongType(`resource.status.${key}`, 'TYPE_BOOL', r[key]) };
  }
  const license = r.license ?? 'youtube';
  if (license !== 'youtube' && license !== 'creativeCommon') return { error: ERR.invalidArgument(`Invalid value at 'resource.status.license', ${JSON.stringify(license)}`) };
  const status: VideoStatus = {
    privacyStatus: privacy as VideoStatus['privacyStatus'],
    license,
    embeddable: r.embeddable !== false,
    publicStatsViewable: r.publicStatsViewable !== false,
  };
  if (typeof r.selfDeclaredMadeForKids === 'boolean') status.selfDeclaredMadeForKids = r.selfDeclaredMadeForKids;
  if (typeof r.containsSyntheticMedia === 'boolean') status.containsSyntheticMedia = r.containsSyntheticMedia;
  if (r.publishAt !== undefined) {
    const at = typeof r.publishAt === 'string' ? Date.parse(r.publishAt) : NaN;
    // Only a private video can be scheduled to go public, and only in the future (past: unconfirmed, §8.12).
    if (!Number.isFinite(at) || at <= now || privacy !== 'private') return { error: videoMetadataError('invalidPublishAt', 'body.status.publishAt') };
    status.publishAt = new Date(at).toISOString();
  }
  return { status };
}

/** Reads the parts named in `part` from the body; the others are ignored, as YouTube ignores them. */
export function parseVideoResource(body: unknown, parts: Set<string>, mode: 'insert' | 'update', now: number): Parsed {
  if (!isObj(body)) return { ok: false, error: ERR.invalidArgument('Invalid JSON payload received.') };
  const unknown = unknownName(body, TOP, 'resource');
  if (unknown) return { ok: false, error: unknown };
  const out: Parsed = { ok: true };
  if (body.id !== undefined) {
    if (typeof body.id !== 'string') return { ok: false, error: wrongType('resource.id', 'TYPE_STRING', body.id) };
    out.id = body.id;
  }
  if (parts.has('snippet') || mode === 'insert') {
    // A snippet left out of `part` is not written: an insert then has no title.
    const s = parseSnippet(parts.has('snippet') ? body.snippet : undefined, mode);
    if ('error' in s) return { ok: false, error: s.error };
    out.snippet = s.snippet;
  }
  if (parts.has('status') || mode === 'insert') {
    const s = parseStatus(parts.has('status') ? body.status : undefined, now);
    if ('error' in s) return { ok: false, error: s.error };
    out.status = s.status;
  }
  return out;
}
