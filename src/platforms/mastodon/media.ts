// Media: Herald fetches the bytes (through the outbound guard) and uploads them with POST /api/v2/media,
// alt text as `description` (platforms.md §11.6). Images are processed inline (200 with a `url`); video,
// GIF and audio answer 202 with `url: null` and are polled with GET /api/v1/media/:id (206 while
// processing, 200 once done). Uploads create nothing public: a lost one is safe to do again.
import type { AdapterDeps } from '../deps.ts';
import { failure, type MediaItem, type PlatformFailure } from '../types.ts';
import { asObject, asString, callInstance, rawCall } from './client.ts';
import { answeredFailure, unansweredFailure } from './errors.ts';
import { MAX_MEDIA_BYTES } from './info.ts';
import type { InstanceLimits } from './limits.ts';

export interface UploadContext {
  deps: AdapterDeps;
  instance: string;
  token: string;
  limits: InstanceLimits;
  signal?: AbortSignal;
}

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/heic': 'heic',
  'image/avif': 'avif',
  'video/mp4': 'mp4',
  'video/quicktime': 'mov',
  'video/webm': 'webm',
};

function maxBytesFor(item: MediaItem, limits: InstanceLimits): number {
  return Math.min(item.type === 'video' ? limits.videoSizeLimit : limits.imageSizeLimit, MAX_MEDIA_BYTES);
}

/** Waits until the instance has processed an upload; its id once ready. */
export async function waitProcessed(ctx: UploadContext, id: string): Promise<{ ok: true; ready: true } | { ok: true; ready: false; gone: true } | PlatformFailure> {
  const { deps } = ctx;
  const deadline = deps.clock.now() + deps.timing.maxProcessingMs;
  let last = '';
  for (;;) {
    const res = await rawCall(deps, { method: 'GET', instance: ctx.instance, path: `/api/v1/media/${encodeURIComponent(id)}`, token: ctx.token, label: 'Mastodon media status', signal: ctx.signal });
    const now = deps.clock.now();
    let wait = deps.timing.pollIntervalMs;
    if (res.sent === true && res.status === 200 && asString(asObject(res.body)?.url)) return { ok: true, ready: true };
    // Attached to a status (only unattached media are visible) or deleted.
    if (res.sent === true && res.status === 404) return { ok: true, ready: false, gone: true };
    if (res.sent === true && res.status !== 206 && res.status !== 200) {
      const f = answeredFailure(res, now, { label: 'Mastodon could not process the media', media: true });
      if (f.category !== 'platform_unavailable' && f.category !== 'rate_limited') return f;
      last = ` (last check: ${f.message})`;
      if (f.retryAt !== undefined) wait = Math.max(wait, f.retryAt - now);
    } else if (res.sent !== true) {
      last = ` (last check: ${unansweredFailure(res, { label: 'Mastodon media status' }).message})`;
    }
    if (now >= deadline) return failure('platform_unavailable', `Mastodon was still processing media ${id} when Herald stopped waiting${last}`);
    try {
      await deps.clock.sleep(Math.max(0, Math.min(wait, deadline - now)), ctx.signal);
    } catch {
      return failure('platform_unavailable', `waiting for Mastodon to process media ${id} was interrupted`);
    }
  }
}

/** Uploads one item and waits until it can be attached; its attachment id. */
export async function uploadOne(ctx: UploadContext, item: MediaItem): Promise<{ ok: true; id: string } | PlatformFailure> {
  if (item.type === 'document') return failure('media_rejected', 'Mastodon takes images and videos, not documents');
  const fetched = await ctx.deps.media.fetch(item, { maxBytes: maxBytesFor(item, ctx.limits) });
  if (!fetched.ok) return failure(fetched.transient ? 'platform_unavailable' : 'media_rejected', fetched.message);
  const type = fetched.contentType.split(';')[0]!.trim().toLowerCase();
  // The declared type only names the file; Mastodon detects the format from the bytes and says no itself.
  const form = new FormData();
  const name = `media.${EXTENSIONS[type] ?? 'bin'}`;
  form.set('file', new Blob([fetched.bytes as Uint8Array<ArrayBuffer>], { type: type || 'application/octet-stream' }), name);
  if (item.altText) form.set('description', item.altText);
  const res = await callInstance(ctx.deps, {
    method: 'POST',
    instance: ctx.instance,
    path: '/api/v2/media',
    token: ctx.token,
    body: { multipart: form },
    // Large videos take a while to send: at least ~100 kB/s on top of the usual time-out.
    timeoutMs: 30_000 + Math.ceil(fetched.bytes.byteLength / 100),
    label: 'Mastodon rejected the media',
    media: true,
    signal: ctx.signal,
  });
  if (!res.ok) return res;
  const body = asObject(res.body) ?? {};
  const id = asString(body.id);
  if (!id) return failure('platform_unavailable', 'Mastodon accepted the media without an id');
  if (res.status === 200 && asString(body.url)) return { ok: true, id };
  const processed = await waitProcessed(ctx, id);
  if (!processed.ok) return processed;
  if (!processed.ready) return failure('platform_unavailable', `Mastodon lost media ${id} while processing it`);
  return { ok: true, id };
}

/** Uploads a status's media in order. */
export async function uploadAll(ctx: UploadContext, items: MediaItem[]): Promise<{ ok: true; ids: string[] } | PlatformFailure> {
  const ids: string[] = [];
  for (const [i, item] of items.entries()) {
    const up = await uploadOne(ctx, item);
    if (!up.ok) return items.length > 1 ? { ...up, message: `media ${i + 1} of ${items.length}: ${up.message}` } : up;
    ids.push(up.id);
  }
  return { ok: true, ids };
}

/**
 * Media uploaded by an earlier attempt, if all of them can still be attached (processed, unattached).
 * null when any is gone: upload again.
 */
export async function reusable(ctx: UploadContext, ids: string[]): Promise<{ ok: true; usable: boolean } | PlatformFailure> {
  for (const id of ids) {
    const r = await waitProcessed(ctx, id);
    if (!r.ok) return r;
    if (!r.ready) return { ok: true, usable: false };
  }
  return { ok: true, usable: true };
}
