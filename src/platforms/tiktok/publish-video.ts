// Video Direct Post through FILE_UPLOAD: fetch the bytes, init, checkpoint the publish id, PUT the
// chunks in order, poll the status.
import type { AdapterDeps } from '../deps.ts';
import { failure, type MediaItem, type PlatformFailure, type PublishOutcome, type PublishRequest } from '../types.ts';
import { asString, callApi, isFailure } from './client.ts';
import { answeredFailure, unansweredFailure } from './errors.ts';
import { planChunks, type ChunkPlan } from './chunks.ts';
import type { CreatorInfo } from './creator.ts';
import type { ChunkRules, PrivacyLevel } from './info.ts';
import { toCheckpoint } from './checkpoint.ts';
import { videoPostInfo } from './post-options.ts';
import type { TikTokSettings } from './settings.ts';
import { pollUntilPublished } from './status.ts';
import { mp4DurationSec, videoMimeType } from './video-file.ts';

export interface VideoUploadOptions {
  chunkRules: ChunkRules;
  preferredChunkBytes: number;
  maxVideoBytes: number;
  /** Time-out per chunk PUT; by default scaled to the chunk (at least ~100 kB/s). */
  chunkTimeoutMs?: number;
}

export interface VideoJob {
  deps: AdapterDeps;
  request: PublishRequest;
  options: VideoUploadOptions;
  creator: CreatorInfo;
  privacy: PrivacyLevel;
  settings: TikTokSettings;
  username: string;
}

type Loaded = { bytes: Uint8Array; mimeType: string };

async function loadVideo(job: VideoJob, item: MediaItem): Promise<Loaded | PlatformFailure> {
  const fetched = await job.deps.media.fetch(item, { maxBytes: job.options.maxVideoBytes });
  if (!fetched.ok) return failure(fetched.transient ? 'platform_unavailable' : 'media_rejected', fetched.message);
  const mimeType = videoMimeType(fetched.bytes);
  if (!mimeType) return failure('media_rejected', `${item.url} is not an MP4, MOV or WebM video, the formats TikTok accepts`);
  const max = job.creator.maxVideoPostDurationSec;
  const duration = mimeType === 'video/webm' ? null : mp4DurationSec(fetched.bytes);
  if (max !== null && duration !== null && duration > max) {
    return failure('media_rejected', `the video lasts ${Math.round(duration)} s; this TikTok account may post videos of at most ${max} s`);
  }
  return { bytes: fetched.bytes, mimeType };
}

async function initUpload(job: VideoJob, plan: ChunkPlan, size: number): Promise<{ publishId: string; uploadUrl: string } | PlatformFailure> {
  const res = await callApi(job.deps, {
    method: 'POST',
    path: '/v2/post/publish/video/init/',
    token: job.request.account.accessToken,
    json: {
      post_info: videoPostInfo(job.request.content, job.privacy, job.settings, job.creator),
      source_info: { source: 'FILE_UPLOAD', video_size: size, chunk_size: plan.chunkSize, total_chunk_count: plan.totalChunkCount },
    },
    // A FILE_UPLOAD init cannot become a post by itself: nothing is published until its chunks arrive
    // at the upload URL, which only the lost answer carried. Trying again is safe.
    creates: false,
    signal: job.request.signal,
  });
  if (!res.ok) return res;
  const publishId = asString(res.data.publish_id);
  const uploadUrl = asString(res.data.upload_url);
  if (!publishId || !uploadUrl) return failure('platform_unavailable', 'TikTok answered the video init without a publish id or upload URL');
  return { publishId, uploadUrl };
}

async function uploadChunks(job: VideoJob, uploadUrl: string, video: Loaded, plan: ChunkPlan): Promise<PlatformFailure | null> {
  const total = video.bytes.byteLength;
  for (const [i, range] of plan.ranges.entries()) {
    const last = i === plan.ranges.length - 1;
    const chunk = video.bytes.subarray(range.start, range.end + 1);
    const res = await job.deps.http.request({
      method: 'PUT',
      url: uploadUrl,
      headers: { 'content-range': `bytes ${range.start}-${range.end}/${total}` },
      body: { bytes: chunk, contentType: video.mimeType },
      timeoutMs: job.options.chunkTimeoutMs ?? 30_000 + Math.ceil(chunk.byteLength / 100),
      signal: job.request.signal,
    });
    // Only the final chunk can complete the upload; an earlier one lost leaves a publish that can
    // never finish, which the next attempt recognises from the status and starts over.
    if (res.sent !== true) return unansweredFailure(res, last);
    if (res.status < 200 || res.status >= 300) return answeredFailure(res, job.deps.clock.now());
  }
  return null;
}

export async function publishVideo(job: VideoJob, item: MediaItem): Promise<PublishOutcome> {
  const video = await loadVideo(job, item);
  if (isFailure(video)) return video;
  const plan = planChunks(video.bytes.byteLength, job.options.chunkRules, job.options.preferredChunkBytes);
  if ('error' in plan) return failure('media_rejected', `TikTok cannot take this video: ${plan.error}`);

  const init = await initUpload(job, plan, video.bytes.byteLength);
  if (isFailure(init)) return init;
  await job.request.saveCheckpoint(toCheckpoint({ publishId: init.publishId, kind: 'video', videoSize: video.bytes.byteLength }));

  const uploadFailure = await uploadChunks(job, init.uploadUrl, video, plan);
  if (uploadFailure) return uploadFailure;
  return pollUntilPublished(job.deps, job.request.account.accessToken, { publishId: init.publishId, kind: 'video', username: job.username }, job.request.signal);
}
