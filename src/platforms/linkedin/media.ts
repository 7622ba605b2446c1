// Media for a post (7.6): Herald downloads each file through the outbound guard (LinkedIn never fetches a
// URL), checks it against LinkedIn's rules, uploads it (images and documents: initialize, PUT; videos:
// initialize with the size, PUT each part, collect the ETags, finalize) and waits until LinkedIn says
// AVAILABLE. Nothing here is public: a lost answer is platform_unavailable, never outcome_unknown.
import type { AdapterDeps } from '../deps.ts';
import { failure, type MediaItem, type PlatformFailure } from '../types.ts';
import { asNumber, asObject, asString, callRest, encodeUrn, uploadBytes } from './api.ts';
import type { MediaKind } from './checkpoint.ts';
import { isSuccess, linkedInFailure } from './errors.ts';
import { DOCUMENT_RULES, IMAGE_RULES, MAX_VIDEO_FETCH_BYTES, VIDEO_RULES } from './info.ts';
import { imageDimensions, mp4DurationSec, sniffFileType, type LinkedInFileType } from './media-file.ts';

export interface MediaJob {
  deps: AdapterDeps;
  token: string;
  /** The post's author: LinkedIn requires the media owner to be the same (7.6). */
  owner: string;
  signal?: AbortSignal;
}

export interface LoadedFile {
  bytes: Uint8Array;
  type: LinkedInFileType;
}

const MB = 1024 * 1024;
const mb = (n: number) => `${(n / MB).toFixed(n < 10 * MB ? 1 : 0)} MB`;

function fetchLimit(kind: MediaKind): number {
  if (kind === 'image') return IMAGE_RULES.maxBytes;
  if (kind === 'document') return DOCUMENT_RULES.maxBytes;
  return MAX_VIDEO_FETCH_BYTES;
}

/** Checks a file against LinkedIn's rules for its kind; null when it passes. */
export function checkFile(kind: MediaKind, bytes: Uint8Array, type: LinkedInFileType | undefined, name: string): string | null {
  if (kind === 'image') {
    if (!type || !(IMAGE_RULES.contentTypes as readonly string[]).includes(type)) return `${name} is not a JPEG, PNG or GIF image, the formats LinkedIn takes`;
    if (bytes.byteLength > IMAGE_RULES.maxBytes) return `${name} is ${mb(bytes.byteLength)}; LinkedIn images are at most ${mb(IMAGE_RULES.maxBytes)}`;
    const size = imageDimensions(bytes, type);
    if (size && size.width * size.height >= IMAGE_RULES.maxPixels) {
      return `${name} has ${size.width}×${size.height} pixels; LinkedIn images must have fewer than ${IMAGE_RULES.maxPixels.toLocaleString('en-US')}`;
    }
    return null;
  }
  if (kind === 'video') {
    if (type !== 'video/mp4') return `${name} is not an MP4 video, the format LinkedIn takes`;
    if (bytes.byteLength < VIDEO_RULES.minBytes) return `${name} is ${bytes.byteLength} bytes; LinkedIn videos are at least ${VIDEO_RULES.minBytes / 1024} KB`;
    if (bytes.byteLength > VIDEO_RULES.maxBytes) return `${name} is ${mb(bytes.byteLength)}; LinkedIn videos are at most ${mb(VIDEO_RULES.maxBytes)}`;
    const seconds = mp4DurationSec(bytes);
    if (seconds !== null && (seconds < VIDEO_RULES.minDurationSec || seconds > VIDEO_RULES.maxDurationSec)) {
      return `${name} lasts ${Math.round(seconds * 10) / 10} s; LinkedIn videos last ${VIDEO_RULES.minDurationSec} s to ${VIDEO_RULES.maxDurationSec / 60} minutes`;
    }
    return null;
  }
  if (type !== 'application/pdf') return `${name} is not a PDF, the document format Herald sends to LinkedIn`;
  if (bytes.byteLength > DOCUMENT_RULES.maxBytes) return `${name} is ${mb(bytes.byteLength)}; LinkedIn documents are at most ${mb(DOCUMENT_RULES.maxBytes)}`;
  return null;
}

export async function loadFile(deps: AdapterDeps, item: MediaItem, kind: MediaKind): Promise<LoadedFile | PlatformFailure> {
  const fetched = await deps.media.fetch(item, { maxBytes: fetchLimit(kind) });
  if (!fetched.ok) return failure(fetched.transient ? 'platform_unavailable' : 'media_rejected', fetched.message);
  const type = sniffFileType(fetched.bytes);
  const problem = checkFile(kind, fetched.bytes, type, item.url);
  if (problem) return failure('media_rejected', problem);
  return { bytes: fetched.bytes, type: type! };
}

const RESOURCE: Record<MediaKind, string> = { image: 'images', video: 'videos', document: 'documents' };

/** Images and documents: initializeUpload, then one PUT of the whole file. */
async function uploadWhole(job: MediaJob, kind: 'image' | 'document', file: LoadedFile): Promise<{ urn: string } | PlatformFailure> {
  const { deps } = job;
  const label = `LinkedIn refused the ${kind} upload`;
  const init = await callRest(deps, {
    method: 'POST',
    path: `/rest/${RESOURCE[kind]}?action=initializeUpload`,
    token: job.token,
    json: { initializeUploadRequest: { owner: job.owner } },
    signal: job.signal,
  });
  if (!isSuccess(init)) return linkedInFailure(init, deps.clock.now(), label);
  const value = asObject(asObject(init.body).value);
  const urn = asString(value[kind]);
  const uploadUrl = asString(value.uploadUrl);
  if (!urn || !uploadUrl) return failure('platform_unavailable', `${label}: initializeUpload answered without an upload URL`);
  const put = await uploadBytes(deps, { url: uploadUrl, token: job.token, bytes: file.bytes, signal: job.signal });
  if (!isSuccess(put)) return linkedInFailure(put, deps.clock.now(), label);
  return { urn };
}

interface Part {
  url: string;
  first: number;
  last: number;
}

/** Videos: initializeUpload with the size, each byte range to its URL (keeping the ETags), finalize. */
async function uploadVideo(job: MediaJob, file: LoadedFile): Promise<{ urn: string } | PlatformFailure> {
  const { deps } = job;
  const label = 'LinkedIn refused the video upload';
  const size = file.bytes.byteLength;
  const init = await callRest(deps, {
    method: 'POST',
    path: '/rest/videos?action=initializeUpload',
    token: job.token,
    json: { initializeUploadRequest: { owner: job.owner, fileSizeBytes: size, uploadCaptions: false, uploadThumbnail: false } },
    signal: job.signal,
  });
  if (!isSuccess(init)) return linkedInFailure(init, deps.clock.now(), label);
  const value = asObject(asObject(init.body).value);
  const urn = asString(value.video);
  const instructions = Array.isArray(value.uploadInstructions) ? value.uploadInstructions.map(asObject) : [];
  const parts: Part[] = instructions.map((i) => ({ url: asString(i.uploadUrl) ?? '', first: asNumber(i.firstByte) ?? -1, last: asNumber(i.lastByte) ?? -1 }));
  // The parts must cover the file exactly, in order: anything else would upload a corrupt video.
  const covers = parts.length > 0 && parts.every((p, i) => p.url && p.first === (i === 0 ? 0 : parts[i - 1]!.last + 1) && p.last >= p.first) && parts.at(-1)!.last === size - 1;
  if (!urn || !covers) return failure('platform_unavailable', `${label}: initializeUpload answered without usable upload instructions`);

  const etags: string[] = [];
  for (const part of parts) {
    const put = await uploadBytes(deps, { url: part.url, token: job.token, bytes: file.bytes.subarray(part.first, part.last + 1), signal: job.signal });
    if (!isSuccess(put)) return linkedInFailure(put, deps.clock.now(), label);
    const etag = put.headers.get('etag');
    if (!etag) return failure('platform_unavailable', `${label}: a part was accepted without an ETag`);
    etags.push(etag);
  }
  const finalize = await callRest(deps, {
    method: 'POST',
    path: '/rest/videos?action=finalizeUpload',
    token: job.token,
    json: { finalizeUploadRequest: { video: urn, uploadToken: typeof value.uploadToken === 'string' ? value.uploadToken : '', uploadedPartIds: etags } },
    signal: job.signal,
  });
  if (!isSuccess(finalize)) return linkedInFailure(finalize, deps.clock.now(), label);
  return { urn };
}

export function upload(job: MediaJob, kind: MediaKind, file: LoadedFile): Promise<{ urn: string } | PlatformFailure> {
  return kind === 'video' ? uploadVideo(job, file) : uploadWhole(job, kind, file);
}

export type MediaStatus = 'AVAILABLE' | 'PROCESSING' | 'WAITING_UPLOAD' | 'PROCESSING_FAILED' | 'GONE' | string;

export async function mediaStatus(job: MediaJob, kind: MediaKind, urn: string): Promise<{ ok: true; status: MediaStatus } | PlatformFailure> {
  const res = await callRest(job.deps, { method: 'GET', path: `/rest/${RESOURCE[kind]}/${encodeUrn(urn)}`, token: job.token, signal: job.signal });
  if (res.sent === true && res.status === 404) return { ok: true, status: 'GONE' };
  if (!isSuccess(res)) return linkedInFailure(res, job.deps.clock.now(), `LinkedIn ${kind} status check failed`);
  return { ok: true, status: asString(asObject(res.body).status) ?? 'UNKNOWN' };
}

/**
 * Waits until LinkedIn has processed the media. Transient errors of a status check do not end the
 * wait; running out of time is platform_unavailable (nothing was posted, the URN stays checkpointed).
 */
export async function waitAvailable(job: MediaJob, kind: MediaKind, urn: string): Promise<{ ok: true } | PlatformFailure> {
  const { deps } = job;
  const deadline = deps.clock.now() + deps.timing.maxProcessingMs;
  let last = '';
  for (;;) {
    const res = await mediaStatus(job, kind, urn);
    if (res.ok) {
      if (res.status === 'AVAILABLE') return { ok: true };
      if (res.status === 'PROCESSING_FAILED') return failure('media_rejected', `LinkedIn could not process the ${kind} (${urn}): PROCESSING_FAILED`, { platformCode: 'PROCESSING_FAILED' });
      if (res.status === 'GONE') return failure('platform_unavailable', `LinkedIn no longer knows the uploaded ${kind} ${urn}`);
      last = res.status;
    } else {
      if (res.category === 'auth_expired' || res.category === 'permission_missing') return res;
      last = res.message;
    }
    const now = deps.clock.now();
    if (now >= deadline) return failure('platform_unavailable', `LinkedIn was still processing the ${kind} ${urn} when Herald stopped waiting (${last})`);
    try {
      await deps.clock.sleep(Math.max(0, Math.min(deps.timing.pollIntervalMs, deadline - now)), job.signal);
    } catch {
      return failure('platform_unavailable', `waiting for LinkedIn to process the ${kind} ${urn} was interrupted`);
    }
  }
}
