// Instagram publishing: container(s) → wait for FINISHED → quota check → media_publish → permalink.
// The container id is checkpointed before media_publish, the only public step. A firstComment is not
// posted here: the engine posts it through the comment capability (comment.ts) once the target is
// published, with its own outcome, checkpoint and reconcile.
import { failure, type MediaItem, type PublishOutcome, type PublishRequest } from '../types.ts';
import { DEFAULT_QUOTA_WAIT_MS } from '../meta/graph-errors.ts';
import { str, type GraphParams } from '../meta/graph.ts';
import { awaitFinished, containerFailure, containerStatus, createContainer, readQuota } from './containers.ts';
import { findPublished, readCheckpoint, type InstagramContext } from './lookup.ts';
import type { InstagramSettings } from './settings.ts';

/**
 * Alt text of an image: Instagram takes alt_text on image containers (feed images and carousel items) since
 * March 2025; Reels and stories do not (Content Publishing guide).
 */
function altTextParam(item: MediaItem): { alt_text?: string } {
  return item.type === 'image' && item.altText ? { alt_text: item.altText } : {};
}

export async function publishInstagram(ctx: InstagramContext, req: PublishRequest): Promise<PublishOutcome> {
  const igUserId = req.account.accountId;
  const token = req.account.accessToken;
  const settings = req.settings as InstagramSettings;

  let containerId = readCheckpoint(req.checkpoint)?.containerId;
  if (containerId) {
    const s = await containerStatus(ctx.graph, containerId, token, req.signal);
    if (!s.ok) return s.failure;
    if (s.state === 'PUBLISHED') {
      const found = await findPublished(ctx, req);
      if (found.ok && found.found === true) return { ok: true, platformPostId: found.platformPostId, platformPostUrl: found.platformPostUrl };
      return failure('outcome_unknown', 'Instagram: the container was published but the post could not be found yet');
    }
    if (s.state === 'ERROR') return containerFailure(s.state, s.detail)!;
    if (s.state === 'EXPIRED') containerId = undefined;
  }

  const quota = await readQuota(ctx.graph, igUserId, token, req.signal);
  if (!quota.ok) return quota.failure;
  if (quota.used >= quota.total) {
    return failure('quota_exceeded', `Instagram: the account has used its ${quota.total} API posts for the last 24 hours`, {
      retryAt: ctx.deps.clock.now() + Math.min(DEFAULT_QUOTA_WAIT_MS, quota.durationMs),
    });
  }

  if (!containerId) {
    const created = await createPostContainer(ctx, req, settings);
    if (!created.ok) return created.failure;
    containerId = created.id;
    await req.saveCheckpoint({ containerId });
  }
  const waited = await awaitFinished(ctx.deps, ctx.graph, [containerId], token, req.signal);
  if (waited) return waited;

  const res = await ctx.graph.post(`/${igUserId}/media_publish`, token, { creation_id: containerId }, { label: 'Instagram media_publish', creates: true, signal: req.signal });
  if (!res.ok) return res.failure;
  const mediaId = str(res.body, 'id');
  if (!mediaId) return failure('outcome_unknown', 'Instagram media_publish: the answer carried no media id');

  const link = await ctx.graph.get(`/${mediaId}`, token, { fields: 'permalink' }, { label: 'Instagram permalink', signal: req.signal });
  const url = (link.ok && str(link.body, 'permalink')) || `https://www.instagram.com/${req.account.username}/`;
  return { ok: true, platformPostId: mediaId, platformPostUrl: url };
}

function collaboratorsParam(settings: InstagramSettings): GraphParams {
  return settings.collaborators?.length ? { collaborators: JSON.stringify(settings.collaborators) } : {};
}

async function createPostContainer(ctx: InstagramContext, req: PublishRequest, settings: InstagramSettings) {
  const igUserId = req.account.accountId;
  const token = req.account.accessToken;
  const caption = req.content || undefined;
  const contentType = settings.contentType ?? 'feed';
  const first = req.media[0];
  if (!first) return { ok: false as const, failure: failure('content_rejected', 'Instagram: a post needs at least one image or video') };

  if (contentType === 'story') {
    const source = first.type === 'video' ? { video_url: first.url } : { image_url: first.url };
    return createContainer(ctx.graph, igUserId, token, { media_type: 'STORIES', ...source }, 'Instagram story container', req.signal);
  }
  if (req.media.length === 1) {
    if (first.type === 'video') {
      // Feed videos are published as reels since 2023; share_to_feed keeps them on the grid too.
      const params = { media_type: 'REELS', video_url: first.url, caption, share_to_feed: settings.shareToFeed ?? true, ...collaboratorsParam(settings) };
      return createContainer(ctx.graph, igUserId, token, params, 'Instagram reel container', req.signal);
    }
    return createContainer(ctx.graph, igUserId, token, { image_url: first.url, caption, ...altTextParam(first), ...collaboratorsParam(settings) }, 'Instagram image container', req.signal);
  }

  const children: string[] = [];
  for (const item of req.media) {
    const source = item.type === 'video' ? { media_type: 'VIDEO', video_url: item.url } : { image_url: item.url, ...altTextParam(item) };
    const child = await createContainer(ctx.graph, igUserId, token, { is_carousel_item: true, ...source }, 'Instagram carousel item container', req.signal);
    if (!child.ok) return child;
    children.push(child.id);
  }
  const waited = await awaitFinished(ctx.deps, ctx.graph, children, token, req.signal);
  if (waited) return { ok: false as const, failure: waited };
  const params = { media_type: 'CAROUSEL', children: children.join(','), caption, ...collaboratorsParam(settings) };
  return createContainer(ctx.graph, igUserId, token, params, 'Instagram carousel container', req.signal);
}
