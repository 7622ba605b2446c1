// Media for a post: bytes fetched through the outbound guard, then uploaded to X. Still images go
// through the one-shot upload; GIFs and videos through the chunked endpoints (initialize, append,
// finalize) and, when X says it is processing, STATUS polls until the media is ready.
import type { AdapterDeps, MediaFile } from '../deps.ts';
import { failure, type MediaItem, type Outcome, type PlatformFailure } from '../types.ts';
import { callX, dataOf, idOf } from './api.ts';
import { isSuccess, xFailure } from './errors.ts';
import { CHUNK_BYTES, GIF_MAX_BYTES, IMAGE_MAX_BYTES, VIDEO_MAX_BYTES } from './info.ts';

interface ProcessingInfo {
  state: string;
  checkAfterSecs?: number;
  error?: string;
}

const LABEL = 'X refused the media';

/** The upload is not public, so anything X refuses about it is about the media itself. */
function mediaFailure(f: PlatformFailure): PlatformFailure {
  return f.category === 'content_rejected' ? { ...f, category: 'media_rejected' } : f;
}

export function sniffMediaType(bytes: Uint8Array): string | undefined {
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return 'image/jpeg';
  if (bytes[0] === 0x89 && ascii(1, 4) === 'PNG') return 'image/png';
  if (ascii(0, 3) === 'GIF') return 'image/gif';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  if (ascii(4, 8) === 'ftyp') return ascii(8, 10) === 'qt' ? 'video/quicktime' : 'video/mp4';
  if (bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) return 'video/webm';
  return undefined;
}

function mediaTypeOf(item: MediaItem, file: MediaFile): string {
  const declared = file.contentType.toLowerCase();
  return sniffMediaType(file.bytes) ?? (declared.startsWith(`${item.type}/`) ? declared : item.type === 'image' ? 'image/jpeg' : 'video/mp4');
}

export function parseProcessingInfo(data: Record<string, unknown> | undefined): ProcessingInfo | undefined {
  const p = data?.processing_info as Record<string, unknown> | undefined;
  if (!p || typeof p !== 'object' || typeof p.state !== 'string') return undefined;
  const err = p.error as { message?: unknown; name?: unknown } | undefined;
  const info: ProcessingInfo = { state: p.state };
  if (typeof p.check_after_secs === 'number') info.checkAfterSecs = p.check_after_secs;
  if (err && typeof err === 'object') info.error = String(err.message ?? err.name ?? 'processing failed');
  return info;
}

/** Honour X's check_after_secs, but never wait past the configured poll interval or the deadline. */
export function pollDelayMs(checkAfterSecs: number | undefined, pollIntervalMs: number, remainingMs: number): number {
  const asked = checkAfterSecs !== undefined && checkAfterSecs >= 0 ? checkAfterSecs * 1000 : pollIntervalMs;
  return Math.max(0, Math.min(asked, pollIntervalMs, remainingMs));
}

async function waitUntilReady(deps: AdapterDeps, token: string, mediaId: string, first: ProcessingInfo | undefined, signal?: AbortSignal): Promise<Outcome<object>> {
  const deadline = deps.clock.now() + deps.timing.maxProcessingMs;
  let info = first;
  for (;;) {
    if (!info || info.state === 'succeeded') return { ok: true };
    if (info.state === 'failed') return failure('media_rejected', `X could not process the media: ${info.error ?? 'processing failed'}`);
    const remaining = deadline - deps.clock.now();
    if (remaining <= 0) {
      return failure('platform_unavailable', `X was still processing the media after ${Math.round(deps.timing.maxProcessingMs / 1000)} s`);
    }
    await deps.clock.sleep(pollDelayMs(info.checkAfterSecs, deps.timing.pollIntervalMs, remaining), signal);
    const res = await callX(deps, { method: 'GET', path: '/2/media/upload', token, query: { command: 'STATUS', media_id: mediaId }, signal });
    if (!isSuccess(res)) return mediaFailure(xFailure(res, deps.clock.now(), 'X media status check failed'));
    info = parseProcessingInfo(dataOf(res.body));
  }
}

function blob(bytes: Uint8Array, type: string): Blob {
  return new Blob([bytes as Uint8Array<ArrayBuffer>], { type });
}

async function uploadOneShot(deps: AdapterDeps, token: string, file: MediaFile, mediaType: string, signal?: AbortSignal): Promise<Outcome<{ mediaId: string }>> {
  const form = new FormData();
  form.set('media', blob(file.bytes, mediaType), 'media');
  form.set('media_category', 'tweet_image');
  form.set('media_type', mediaType);
  const res = await callX(deps, { method: 'POST', path: '/2/media/upload', token, body: { multipart: form }, signal });
  if (!isSuccess(res)) return mediaFailure(xFailure(res, deps.clock.now(), LABEL));
  const mediaId = idOf(res.body);
  if (!mediaId) return failure('platform_unavailable', `${LABEL}: no media id in the answer`);
  const ready = await waitUntilReady(deps, token, mediaId, parseProcessingInfo(dataOf(res.body)), signal);
  return ready.ok ? { ok: true, mediaId } : ready;
}

async function uploadChunked(
  deps: AdapterDeps,
  token: string,
  file: MediaFile,
  mediaType: string,
  category: 'tweet_gif' | 'tweet_video',
  signal?: AbortSignal,
): Promise<Outcome<{ mediaId: string }>> {
  const init = await callX(deps, {
    method: 'POST',
    path: '/2/media/upload/initialize',
    token,
    body: { json: { media_type: mediaType, total_bytes: file.bytes.byteLength, media_category: category } },
    signal,
  });
  if (!isSuccess(init)) return mediaFailure(xFailure(init, deps.clock.now(), LABEL));
  const mediaId = idOf(init.body);
  if (!mediaId) return failure('platform_unavailable', `${LABEL}: no media id in the answer`);

  for (let offset = 0, segment = 0; offset < file.bytes.byteLength; offset += CHUNK_BYTES, segment++) {
    const form = new FormData();
    form.set('segment_index', String(segment));
    form.set('media', blob(file.bytes.subarray(offset, offset + CHUNK_BYTES), 'application/octet-stream'), 'chunk');
    const res = await callX(deps, { method: 'POST', path: `/2/media/upload/${mediaId}/append`, token, body: { multipart: form }, signal });
    if (!isSuccess(res)) return mediaFailure(xFailure(res, deps.clock.now(), LABEL));
  }

  const fin = await callX(deps, { method: 'POST', path: `/2/media/upload/${mediaId}/finalize`, token, signal });
  if (!isSuccess(fin)) return mediaFailure(xFailure(fin, deps.clock.now(), LABEL));
  const ready = await waitUntilReady(deps, token, mediaId, parseProcessingInfo(dataOf(fin.body)), signal);
  return ready.ok ? { ok: true, mediaId } : ready;
}

/**
 * Alt text for an uploaded image or GIF (X: POST /2/media/metadata, alt_text ≤ 1,000 characters; videos take
 * none). Sent before the post that attaches the media; a refusal fails the upload like any media refusal.
 */
async function setAltText(deps: AdapterDeps, token: string, mediaId: string, text: string, signal?: AbortSignal): Promise<Outcome<object>> {
  const res = await callX(deps, { method: 'POST', path: '/2/media/metadata', token, body: { json: { id: mediaId, metadata: { alt_text: { text } } } }, signal });
  if (!isSuccess(res)) return mediaFailure(xFailure(res, deps.clock.now(), 'X refused the alt text'));
  return { ok: true };
}

export async function uploadMedia(deps: AdapterDeps, token: string, item: MediaItem, signal?: AbortSignal): Promise<Outcome<{ mediaId: string }>> {
  const up = await uploadFile(deps, token, item, signal);
  if (!up.ok || !item.altText || item.type !== 'image') return up;
  const alt = await setAltText(deps, token, up.mediaId, item.altText, signal);
  return alt.ok ? up : alt;
}

async function uploadFile(deps: AdapterDeps, token: string, item: MediaItem, signal?: AbortSignal): Promise<Outcome<{ mediaId: string }>> {
  const fetched = await deps.media.fetch(item, { maxBytes: item.type === 'video' ? VIDEO_MAX_BYTES : GIF_MAX_BYTES });
  if (!fetched.ok) return failure(fetched.transient ? 'platform_unavailable' : 'media_rejected', fetched.message);
  const mediaType = mediaTypeOf(item, fetched);
  if (!mediaType.startsWith(`${item.type}/`)) {
    return failure('media_rejected', `media ${item.url} is listed as ${item.type === 'image' ? 'an image' : 'a video'} but holds ${mediaType}`);
  }
  if (item.type === 'video') return uploadChunked(deps, token, fetched, mediaType, 'tweet_video', signal);
  if (mediaType === 'image/gif') return uploadChunked(deps, token, fetched, mediaType, 'tweet_gif', signal);
  if (fetched.bytes.byteLength > IMAGE_MAX_BYTES) {
    return failure('media_rejected', `image ${item.url} is ${(fetched.bytes.byteLength / 1048576).toFixed(1)} MB; X accepts up to 5 MB`);
  }
  return uploadOneShot(deps, token, fetched, mediaType, signal);
}
