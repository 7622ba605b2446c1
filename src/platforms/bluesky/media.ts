// Media of a post: bytes fetched through the outbound guard, checked against the post lexicon's limits
// (so that a file the PDS would refuse at createRecord fails here, with a message naming the limit and the
// file's value), then uploaded with com.atproto.repo.uploadBlob. Uploads are not irreversible: a blob no
// record references is dropped by the PDS later (10.5).
import type { AdapterDeps } from '../deps.ts';
import { failure, type MediaItem, type PlatformFailure } from '../types.ts';
import { bodyOf, failureOf, isOk, xrpc, type Json } from './client.ts';
import { IMAGE_RULES, VIDEO_RULES } from './info.ts';
import { isMp4, readImageInfo, readMp4Size, type PixelSize } from './media-size.ts';

/** How many bytes of an image Herald reads before deciding it is too big (a later change will fit them). */
export const IMAGE_FETCH_MAX_BYTES = 20 * 1024 * 1024;

export type Blob = Json & { $type: 'blob'; ref: { $link: string }; mimeType: string; size: number };

const fmt = (n: number) => n.toLocaleString('en-US');

export interface UploadContext {
  deps: AdapterDeps;
  server: string;
  token: string;
  signal?: AbortSignal;
}

function asBlob(v: unknown): Blob | null {
  const b = v as Blob | null;
  return b && typeof b === 'object' && b.$type === 'blob' && typeof b.ref?.$link === 'string' && typeof b.mimeType === 'string' ? b : null;
}

/** uploadBlob: raw bytes with their type; the PDS sniffs the real type and answers a blob reference. */
export async function uploadBlob(ctx: UploadContext, bytes: Uint8Array, contentType: string, what: string): Promise<{ ok: true; blob: Blob } | PlatformFailure> {
  const res = await xrpc(ctx.deps, {
    server: ctx.server,
    nsid: 'com.atproto.repo.uploadBlob',
    method: 'POST',
    token: ctx.token,
    bytes: { data: bytes, contentType },
    signal: ctx.signal,
    // A large video takes longer than an API call.
    timeoutMs: bytes.byteLength > 5_000_000 ? 300_000 : undefined,
  });
  const label = `Bluesky refused ${what}`;
  if (!isOk(res)) {
    const f = failureOf(ctx.deps, res, label);
    // Nothing is public until the post is written: an upload with no answer is just retried.
    if (f.category === 'outcome_unknown') return { ...f, category: 'platform_unavailable' };
    return f.category === 'content_rejected' ? { ...f, category: 'media_rejected' } : f;
  }
  const blob = asBlob(bodyOf(res).blob);
  if (!blob) return failure('platform_unavailable', `${label}: the PDS answered without a blob`);
  return { ok: true, blob };
}

export interface UploadedImage {
  image: Blob;
  alt: string;
  aspectRatio?: PixelSize;
}

async function fetchMedia(deps: AdapterDeps, item: MediaItem, maxBytes: number): Promise<{ ok: true; bytes: Uint8Array; contentType: string } | PlatformFailure> {
  const fetched = await deps.media.fetch(item, { maxBytes });
  if (!fetched.ok) return failure(fetched.transient ? 'platform_unavailable' : 'media_rejected', fetched.message);
  return { ok: true, bytes: fetched.bytes, contentType: fetched.contentType };
}

export async function uploadImage(ctx: UploadContext, item: MediaItem, index: number): Promise<{ ok: true; image: UploadedImage } | PlatformFailure> {
  const what = `image ${index + 1}`;
  const fetched = await fetchMedia(ctx.deps, item, IMAGE_FETCH_MAX_BYTES);
  if (!fetched.ok) return fetched;
  const info = readImageInfo(fetched.bytes);
  if (!info) {
    return failure('media_rejected', `${what} (${item.url}) is not a JPEG, PNG, WebP or GIF image that Bluesky can show (its type: ${fetched.contentType})`);
  }
  const size = fetched.bytes.byteLength;
  if (size > IMAGE_RULES.maxBytes) {
    return failure('media_rejected', `${what} (${item.url}) is ${fmt(size)} bytes; Bluesky takes images of at most ${fmt(IMAGE_RULES.maxBytes)} bytes`);
  }
  const up = await uploadBlob(ctx, fetched.bytes, info.format, what);
  if (!up.ok) return up;
  return { ok: true, image: { image: up.blob, alt: item.altText ?? '', aspectRatio: { width: info.width, height: info.height } } };
}

export interface UploadedVideo {
  video: Blob;
  alt?: string;
  aspectRatio?: PixelSize;
}

export async function uploadVideo(ctx: UploadContext, item: MediaItem): Promise<{ ok: true; video: UploadedVideo } | PlatformFailure> {
  const fetched = await fetchMedia(ctx.deps, item, VIDEO_RULES.heraldMaxBytes);
  if (!fetched.ok) return fetched;
  if (!isMp4(fetched.bytes)) {
    return failure('media_rejected', `the video (${item.url}) is not an MP4 file; Bluesky takes video/mp4 only (its type: ${fetched.contentType})`);
  }
  const up = await uploadBlob(ctx, fetched.bytes, 'video/mp4', 'the video');
  if (!up.ok) return up;
  if (up.blob.mimeType !== 'video/mp4') {
    return failure('media_rejected', `the PDS read the video (${item.url}) as ${up.blob.mimeType}; Bluesky takes video/mp4 only`);
  }
  const video: UploadedVideo = { video: up.blob };
  if (item.altText) video.alt = item.altText;
  const size = readMp4Size(fetched.bytes);
  if (size) video.aspectRatio = size;
  return { ok: true, video };
}
