// "Did the earlier attempt publish?" From the checkpoint when the flow saved one (reel video, story
// media), else from the Page's own recent posts (feed, or its videos for a video post).
import type { PublishRequest, ReconcileOutcome } from '../types.ts';
import { graphTime, list, obj, readAllPages, str, type GraphBody } from '../meta/graph.ts';
import { absoluteLink, page, permalink, readCheckpoint, settingsOf, type FacebookContext } from './common.ts';

const SLACK_MS = 60_000;

export async function reconcileFacebook(ctx: FacebookContext, req: PublishRequest): Promise<ReconcileOutcome> {
  const cp = readCheckpoint(req.checkpoint);
  if (cp?.flow === 'reel') return reconcileReel(ctx, req, cp.videoId);
  if (cp?.flow === 'photo_story') return reconcileStory(ctx, req, cp.photoId);
  if (cp?.flow === 'video_story') return reconcileStory(ctx, req, cp.videoId);
  const contentType = settingsOf(req).contentType ?? 'feed';
  // A reel or story without a checkpoint never reached its publish step.
  if (contentType !== 'feed') return { ok: true, found: false };
  const isVideo = req.media.some((m) => m.type === 'video');
  return isVideo ? searchRecent(ctx, req, 'videos', 'description') : searchRecent(ctx, req, 'feed', 'message');
}

async function reconcileReel(ctx: FacebookContext, req: PublishRequest, videoId: string): Promise<ReconcileOutcome> {
  const res = await ctx.graph.get(`/${videoId}`, req.account.accessToken, { fields: 'status,permalink_url' }, { label: 'Facebook reel status', signal: req.signal });
  if (!res.ok) return res.failure;
  const publishing = obj(obj(res.body, 'status'), 'publishing_phase');
  const phase = str(publishing, 'status');
  if (phase === 'complete') {
    const url = absoluteLink(str(res.body, 'permalink_url')) ?? `https://www.facebook.com/reel/${videoId}`;
    return { ok: true, found: true, platformPostId: videoId, platformPostUrl: url };
  }
  if (phase === 'not_started') return { ok: true, found: false };
  return { ok: true, found: 'unknown', message: `Facebook reel ${videoId} is ${phase ?? 'in an unknown state'}` };
}

async function reconcileStory(ctx: FacebookContext, req: PublishRequest, mediaId: string): Promise<ReconcileOutcome> {
  const { pageId, token } = page(req);
  const res = await ctx.graph.get(`/${pageId}/stories`, token, {}, { label: 'Facebook stories', signal: req.signal });
  if (!res.ok) return res.failure;
  const story = list(res.body).find((s) => str(s, 'media_id') === mediaId);
  if (!story) return { ok: true, found: false };
  const id = str(story, 'post_id') ?? mediaId;
  const url = absoluteLink(str(story, 'url')) ?? `https://www.facebook.com/stories/${pageId}`;
  return { ok: true, found: true, platformPostId: id, platformPostUrl: url };
}

/** Looks for a post with the same text created since the attempt began (minus a minute of clock skew). */
async function searchRecent(ctx: FacebookContext, req: PublishRequest, edge: 'feed' | 'videos', textField: 'message' | 'description'): Promise<ReconcileOutcome> {
  const { pageId, token } = page(req);
  const since = req.attemptStartedAt - SLACK_MS;
  const res = await readAllPages(
    ctx.graph,
    `/${pageId}/${edge}`,
    token,
    { fields: `id,${textField},created_time,permalink_url`, since: Math.floor(since / 1000), limit: 100 },
    { label: `Facebook ${edge} search`, signal: req.signal },
    5,
  );
  if (!res.ok) return res.failure;
  const wanted = req.content.trim();
  const matches = res.items
    .filter((p: GraphBody) => (graphTime(p.created_time) ?? 0) >= since && (str(p, textField) ?? '').trim() === wanted)
    .sort((a, b) => (graphTime(a.created_time) ?? 0) - (graphTime(b.created_time) ?? 0));
  const first = matches[0];
  if (!first) return { ok: true, found: false };
  // Without text, a match could be anyone's post made at the same time: do not claim it.
  if (wanted === '' && matches.length > 1) {
    return { ok: true, found: 'unknown', message: 'several Facebook posts without text were made since the attempt began' };
  }
  const id = str(first, 'id');
  if (!id) return { ok: true, found: 'unknown', message: `a matching Facebook ${edge} entry carries no id` };
  const fallback = edge === 'videos' ? `https://www.facebook.com/${pageId}/videos/${id}` : `https://www.facebook.com/${id}`;
  const url = absoluteLink(str(first, 'permalink_url')) ?? (await permalink(ctx, id, token, fallback, req.signal));
  return { ok: true, found: true, platformPostId: id, platformPostUrl: url };
}
