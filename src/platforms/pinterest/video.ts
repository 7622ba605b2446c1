// The video upload (§9.5): register it (POST /v5/media), send the bytes to the upload URL as an S3 form
// POST with every upload parameter before the file, then poll GET /v5/media/{id} until `succeeded`.
// Nothing here is public: only the Pin made from the media id is. A checkpointed media id is reused.
import type { AdapterDeps } from '../deps.ts';
import { failure, type PlatformFailure, type PublishRequest } from '../types.ts';
import { asId, asString, callApi, isFailure } from './client.ts';
import { toCheckpoint, type PinterestCheckpoint } from './checkpoint.ts';
import type { LoadedVideo } from './media.ts';

export interface VideoOptions {
  maxVideoBytes: number;
  /** Time-out of the upload POST; by default scaled to the file (at least ~100 kB/s). */
  uploadTimeoutMs?: number;
}

interface Registered {
  mediaId: string;
  uploadUrl: string;
  parameters: Record<string, string>;
}

export type MediaStatus = 'registered' | 'processing' | 'succeeded' | 'failed' | 'missing';

async function register(deps: AdapterDeps, request: PublishRequest): Promise<Registered | PlatformFailure> {
  const res = await callApi(deps, {
    method: 'POST',
    path: '/v5/media',
    token: request.account.accessToken,
    json: { media_type: 'video' },
    doing: 'registering the video upload',
    signal: request.signal,
  });
  if (!res.ok) return res;
  const mediaId = asId(res.body.media_id);
  const uploadUrl = asString(res.body.upload_url);
  const raw = res.body.upload_parameters;
  if (!mediaId || !uploadUrl || !raw || typeof raw !== 'object') {
    return failure('platform_unavailable', 'Pinterest registered the video upload without a media id, upload URL or upload parameters');
  }
  const parameters: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw as Record<string, unknown>)) if (typeof v === 'string') parameters[k] = v;
  return { mediaId, uploadUrl, parameters };
}

/** S3 answers errors as XML: <Error><Code>…</Code><Message>…</Message></Error>. */
export function s3Error(text: string): { code: string; message: string } {
  const code = /<Code>([^<]*)<\/Code>/.exec(text)?.[1] ?? '';
  const message = /<Message>([^<]*)<\/Message>/.exec(text)?.[1] ?? '';
  return { code, message };
}

async function upload(deps: AdapterDeps, options: VideoOptions, reg: Registered, video: LoadedVideo, signal?: AbortSignal): Promise<PlatformFailure | null> {
  const form = new FormData();
  // S3 ignores fields after the file, so the parameters go first, exactly as Pinterest gave them.
  for (const [k, v] of Object.entries(reg.parameters)) form.append(k, v);
  form.append('file', new Blob([video.bytes as Uint8Array<ArrayBuffer>], { type: video.contentType }), video.contentType === 'video/quicktime' ? 'video.mov' : 'video.mp4');
  // The upload URL is a storage host, not Pinterest's API: no bearer token goes there.
  const res = await deps.http.request({
    method: 'POST',
    url: reg.uploadUrl,
    body: { multipart: form },
    timeoutMs: options.uploadTimeoutMs ?? 30_000 + Math.ceil(video.bytes.byteLength / 100),
    signal,
  });
  // An upload whose answer was lost may have landed; the media status says so on the next attempt.
  if (res.sent !== true) return failure('platform_unavailable', `the video upload to Pinterest's storage got no answer (${res.error})`);
  if (res.status >= 200 && res.status < 300) return null;
  const err = s3Error(res.text);
  const detail = `${err.code || `HTTP ${res.status}`}${err.message ? `: ${err.message}` : ''}`;
  if (err.code === 'EntityTooLarge' || res.status === 413) return failure('media_rejected', `Pinterest's storage refused the video as too large (${detail})`, { httpStatus: res.status });
  // Expired policy, bad signature, throttling, outage: a later attempt registers a fresh upload.
  return failure('platform_unavailable', `Pinterest's storage refused the video upload (${detail})`, { httpStatus: res.status, platformCode: err.code || undefined });
}

export async function mediaStatus(deps: AdapterDeps, token: string, mediaId: string, signal?: AbortSignal): Promise<{ ok: true; status: MediaStatus } | PlatformFailure> {
  const res = await callApi(deps, { method: 'GET', path: `/v5/media/${mediaId}`, token, doing: 'checking the video upload', signal });
  if (!res.ok) return res.httpStatus === 404 ? { ok: true, status: 'missing' } : res;
  const s = res.body.status;
  const status: MediaStatus = s === 'registered' || s === 'processing' || s === 'succeeded' || s === 'failed' ? s : 'processing';
  return { ok: true, status };
}

/** Polls until Pinterest has processed the upload. Nothing is public yet, so running out of time is not unknown. */
async function waitUntilProcessed(deps: AdapterDeps, request: PublishRequest, mediaId: string): Promise<PlatformFailure | null> {
  const token = request.account.accessToken;
  const deadline = deps.clock.now() + deps.timing.maxProcessingMs;
  let last = '';
  for (;;) {
    const res = await mediaStatus(deps, token, mediaId, request.signal);
    let wait = deps.timing.pollIntervalMs;
    if (!res.ok) {
      if (res.category === 'auth_expired' || res.category === 'permission_missing') return res;
      last = `: ${res.message}`;
      if (res.retryAt !== undefined) wait = Math.max(wait, res.retryAt - deps.clock.now());
    } else {
      if (res.status === 'succeeded') return null;
      if (res.status === 'failed') return failure('media_rejected', `Pinterest could not process the video (media ${mediaId} failed)`);
      if (res.status === 'missing') return failure('platform_unavailable', `Pinterest no longer knows the video upload ${mediaId}`);
      last = ` (status ${res.status})`;
    }
    const now = deps.clock.now();
    if (now >= deadline) return failure('platform_unavailable', `Pinterest was still processing the video when Herald stopped waiting${last}; the next attempt picks it up`);
    try {
      await deps.clock.sleep(Math.max(0, Math.min(wait, deadline - now)), request.signal);
    } catch {
      return failure('platform_unavailable', 'waiting for Pinterest to process the video was interrupted');
    }
  }
}

/**
 * A processed media id for this target's video: the checkpointed one when Pinterest still has it (an
 * earlier attempt's upload), else a fresh registration and upload. Saves the media id before the bytes go.
 */
export async function readyVideo(
  deps: AdapterDeps,
  options: VideoOptions,
  request: PublishRequest,
  cp: PinterestCheckpoint,
  load: () => Promise<LoadedVideo | PlatformFailure>,
): Promise<{ mediaId: string } | PlatformFailure> {
  if (cp.mediaId) {
    const known = await mediaStatus(deps, request.account.accessToken, cp.mediaId, request.signal);
    if (!known.ok) return known;
    if (known.status === 'failed') return failure('media_rejected', `Pinterest could not process the video (media ${cp.mediaId} failed)`);
    if (known.status === 'succeeded' || known.status === 'processing') {
      const waited = await waitUntilProcessed(deps, request, cp.mediaId);
      return waited ?? { mediaId: cp.mediaId };
    }
    // registered (the bytes never arrived) or forgotten: the upload URL died with that attempt.
  }
  const video = await load();
  if (isFailure(video)) return video;
  const reg = await register(deps, request);
  if (isFailure(reg)) return reg;
  await request.saveCheckpoint(toCheckpoint({ ...cp, mediaId: reg.mediaId }));
  const sent = await upload(deps, options, reg, video, request.signal);
  if (sent) return sent;
  const waited = await waitUntilProcessed(deps, request, reg.mediaId);
  return waited ?? { mediaId: reg.mediaId };
}
