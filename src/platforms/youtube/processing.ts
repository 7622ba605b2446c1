// After the upload: YouTube processes the video asynchronously (uploadStatus uploaded → processed, or
// failed / rejected; §8.5). Herald waits for the verdict within its processing budget, polling less and
// less often (each poll costs a unit of the project's quota).
import type { AdapterDeps } from '../deps.ts';
import { failure, type PlatformFailure } from '../types.ts';
import { asArray, asObject, asString, callApi, type Json } from './client.ts';

export type Processing =
  | { state: 'processed'; video: Json }
  /** Still processing when Herald stopped waiting, or it could not be asked: the video exists. */
  | { state: 'pending'; note: string }
  | PlatformFailure;

const MAX_POLL_INTERVAL_MS = 30_000;

/** The video as its owner sees it, or null when YouTube no longer lists it. */
export async function fetchVideo(deps: AdapterDeps, token: string, videoId: string, parts: string, signal?: AbortSignal): Promise<{ ok: true; video: Json | null } | PlatformFailure> {
  const res = await callApi(deps, { method: 'GET', path: '/youtube/v3/videos', token, query: { part: parts, id: videoId }, signal });
  if (!res.ok) return res;
  return { ok: true, video: asArray(res.body.items)[0] ?? null };
}

/** The end of processing, as a failure when YouTube failed or rejected the video, or null while it works. */
export function verdict(video: Json): Processing | null {
  const status = asObject(video.status);
  const upload = asString(status.uploadStatus);
  if (upload === 'processed') return { state: 'processed', video };
  if (upload === 'failed') {
    const reason = asString(status.failureReason) ?? 'unknown';
    return failure('media_rejected', `YouTube could not process the video (${reason}); the failed upload stays in YouTube Studio`, { platformCode: reason });
  }
  if (upload === 'rejected') {
    const reason = asString(status.rejectionReason) ?? 'unknown';
    return failure('content_rejected', `YouTube rejected the video (${reason}); it stays in YouTube Studio marked rejected`, { platformCode: reason });
  }
  if (upload === 'deleted') return failure('content_rejected', 'the video was deleted while YouTube processed it', { platformCode: 'deleted' });
  return null;
}

export async function awaitProcessing(deps: AdapterDeps, token: string, videoId: string, signal?: AbortSignal): Promise<Processing> {
  const deadline = deps.clock.now() + deps.timing.maxProcessingMs;
  let wait = deps.timing.pollIntervalMs;
  let note = 'YouTube was still processing the video when Herald stopped waiting';
  for (;;) {
    const res = await fetchVideo(deps, token, videoId, 'status,processingDetails', signal);
    if (res.ok) {
      if (res.video === null) return failure('content_rejected', `YouTube no longer lists video ${videoId}: it was removed during processing`, { platformCode: 'videoNotFound' });
      const done = verdict(res.video);
      if (done) return done;
    } else if (res.category === 'auth_expired' || res.category === 'permission_missing' || res.category === 'quota_exceeded') {
      // The video exists; what is missing is the means to watch it, not the post.
      return { state: 'pending', note: `Herald could not follow YouTube's processing (${res.message})` };
    } else {
      note = `YouTube's processing status could not be read (${res.message})`;
    }
    const now = deps.clock.now();
    if (now >= deadline) return { state: 'pending', note };
    try {
      await deps.clock.sleep(Math.min(wait, deadline - now), signal);
    } catch {
      return { state: 'pending', note: 'waiting for YouTube to process the video was interrupted' };
    }
    wait = Math.min(wait * 2, Math.max(MAX_POLL_INTERVAL_MS, deps.timing.pollIntervalMs));
  }
}
