// Facebook videos, reels and stories. Reels and video stories are three-phase: start (an invisible video
// object and an upload URL), upload by URL, finish (the public step). Photo stories publish a staged photo.
import { failure, type PublishOutcome, type PublishRequest } from '../types.ts';
import { obj, str, type GraphBody } from '../meta/graph.ts';
import { pollUntil } from '../meta/poll.ts';
import { page, published, readCheckpoint, stagePhoto, type FacebookContext } from './common.ts';

/** One video as a feed post, pulled by Meta from its URL. */
export async function publishVideo(ctx: FacebookContext, req: PublishRequest, url: string): Promise<PublishOutcome> {
  const { pageId, token } = page(req);
  const res = await ctx.videoGraph.post(
    `/${pageId}/videos`,
    token,
    { file_url: url, description: req.content || undefined, published: true },
    { label: 'Facebook video post', creates: true, signal: req.signal },
  );
  if (!res.ok) return res.failure;
  const id = str(res.body, 'id');
  if (!id) return failure('outcome_unknown', 'Facebook video post: the answer carried no video id');
  const processed = await awaitProcessing(ctx, req, id, 'Facebook video');
  if (processed) return processed;
  return published(ctx, req, id, `https://www.facebook.com/${pageId}/videos/${id}`);
}

export async function publishReel(ctx: FacebookContext, req: PublishRequest, url: string): Promise<PublishOutcome> {
  const { pageId, token } = page(req);
  const cp = readCheckpoint(req.checkpoint);
  const session = cp?.flow === 'reel' ? cp : await startUpload(ctx, req, 'video_reels', 'Facebook reel');
  if ('ok' in session) return session;
  if (cp?.flow !== 'reel') await req.saveCheckpoint({ flow: 'reel', videoId: session.videoId, uploadUrl: session.uploadUrl });

  const uploaded = await uploadByUrl(ctx, req, session.uploadUrl, url, 'Facebook reel upload');
  if (uploaded) return uploaded;
  const res = await ctx.graph.post(
    `/${pageId}/video_reels`,
    token,
    { upload_phase: 'finish', video_id: session.videoId, video_state: 'PUBLISHED', description: req.content || undefined },
    { label: 'Facebook reel publish', creates: true, signal: req.signal },
  );
  if (!res.ok) return res.failure;
  if (res.body.success === false) return failure('outcome_unknown', 'Facebook reel publish: Graph did not confirm the publish');
  const processed = await awaitProcessing(ctx, req, session.videoId, 'Facebook reel');
  if (processed) return processed;
  return published(ctx, req, session.videoId, `https://www.facebook.com/reel/${session.videoId}`);
}

export async function publishVideoStory(ctx: FacebookContext, req: PublishRequest, url: string): Promise<PublishOutcome> {
  const { pageId, token } = page(req);
  const cp = readCheckpoint(req.checkpoint);
  const session = cp?.flow === 'video_story' ? cp : await startUpload(ctx, req, 'video_stories', 'Facebook video story');
  if ('ok' in session) return session;
  if (cp?.flow !== 'video_story') await req.saveCheckpoint({ flow: 'video_story', videoId: session.videoId, uploadUrl: session.uploadUrl });

  const uploaded = await uploadByUrl(ctx, req, session.uploadUrl, url, 'Facebook video story upload');
  if (uploaded) return uploaded;
  const res = await ctx.graph.post(
    `/${pageId}/video_stories`,
    token,
    { upload_phase: 'finish', video_id: session.videoId },
    { label: 'Facebook video story publish', creates: true, signal: req.signal },
  );
  if (!res.ok) return res.failure;
  return storyPublished(ctx, req, res.body, session.videoId);
}

export async function publishPhotoStory(ctx: FacebookContext, req: PublishRequest, url: string): Promise<PublishOutcome> {
  const { pageId, token } = page(req);
  const cp = readCheckpoint(req.checkpoint);
  let photoId = cp?.flow === 'photo_story' ? cp.photoId : undefined;
  if (!photoId) {
    const staged = await stagePhoto(ctx, req, url);
    if (!staged.ok) return staged.failure;
    photoId = str(staged.body, 'id');
    if (!photoId) return failure('platform_unavailable', 'Facebook photo upload: the answer carried no photo id');
    await req.saveCheckpoint({ flow: 'photo_story', photoId });
  }
  const res = await ctx.graph.post(`/${pageId}/photo_stories`, token, { photo_id: photoId }, { label: 'Facebook photo story publish', creates: true, signal: req.signal });
  if (!res.ok) return res.failure;
  return storyPublished(ctx, req, res.body, photoId);
}

async function storyPublished(ctx: FacebookContext, req: PublishRequest, body: GraphBody, mediaId: string): Promise<PublishOutcome> {
  if (body.success === false) return failure('outcome_unknown', 'Facebook story publish: Graph did not confirm the publish');
  const id = str(body, 'post_id') ?? mediaId;
  // Stories have no stable public page of their own; the Page's stories viewer is the closest link.
  return published(ctx, req, id, `https://www.facebook.com/stories/${req.account.accountId}`);
}

type UploadSession = { videoId: string; uploadUrl: string };

/** Phase one of reels and video stories: an invisible video object and the URL to upload to. */
async function startUpload(ctx: FacebookContext, req: PublishRequest, edge: 'video_reels' | 'video_stories', label: string): Promise<UploadSession | ReturnType<typeof failure>> {
  const { pageId, token } = page(req);
  const res = await ctx.graph.post(`/${pageId}/${edge}`, token, { upload_phase: 'start' }, { label: `${label} start`, signal: req.signal });
  if (!res.ok) return res.failure;
  const videoId = str(res.body, 'video_id');
  const uploadUrl = str(res.body, 'upload_url');
  if (!videoId || !uploadUrl) return failure('platform_unavailable', `${label} start: the answer carried no video_id or upload_url`);
  return { videoId, uploadUrl };
}

/** Asks Meta to pull the video from its public URL into the upload session. */
async function uploadByUrl(ctx: FacebookContext, req: PublishRequest, uploadUrl: string, fileUrl: string, label: string): Promise<PublishOutcome | null> {
  const res = await ctx.graph.send(
    { method: 'POST', url: uploadUrl, headers: { authorization: `OAuth ${req.account.accessToken}`, file_url: fileUrl } },
    { label, signal: req.signal },
  );
  if (!res.ok) return res.failure;
  if (res.body.success === false) return failure('media_rejected', `${label}: Meta could not take the video from its URL`);
  return null;
}

/**
 * Waits for Meta to process a published video so a broken file is reported as such. Still processing
 * when the budget runs out is not a failure: the video was accepted and appears once processed.
 */
async function awaitProcessing(ctx: FacebookContext, req: PublishRequest, videoId: string, label: string): Promise<PublishOutcome | null> {
  const result = await pollUntil<PublishOutcome | null>(
    ctx.deps,
    async () => {
      const res = await ctx.graph.get(`/${videoId}`, req.account.accessToken, { fields: 'status' }, { label: `${label} status`, signal: req.signal });
      if (!res.ok) return { done: true, value: null };
      const status = obj(res.body, 'status');
      const state = str(status, 'video_status');
      if (state === 'error') {
        const reason = str(obj(obj(status, 'processing_phase'), 'error'), 'message');
        return { done: true, value: failure('media_rejected', `${label}: Meta could not process the video${reason ? `: ${reason}` : ''}`) };
      }
      return state === 'processing' || state === 'upload_complete' ? { done: false } : { done: true, value: null };
    },
    req.signal,
  );
  return result.timedOut ? null : result.value;
}
