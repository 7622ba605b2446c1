// Instagram content publishing: containers (image, reel, story, carousel and its items), the status
// state machine, media_publish with the 24-hour quota, the account's media and stories. Comments on
// media are in routes-comments.ts.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { emulatorBaseUrl } from '../kit/emulator.ts';
import { unreachableMediaUrl } from '../kit/media-urls.ts';
import { badParam, fieldsOf, graphError, igAccess, paginate, param, select, type MetaContext } from './graph-http.ts';
import type { IgContainer, IgMediaType } from './state.ts';
import { containerCode, mediaView } from './views.ts';
import { pullable, pullMedia } from '../kit/pull.ts';

const DAY_MS = 24 * 60 * 60_000;
const MAX_CAPTION = 2_200;
const MAX_HASHTAGS = 30;
const MAX_MENTIONS = 20;
const VIDEO_PATH = /\.(mp4|mov|m4v|webm)$/i;
const IMAGE_PATH = /\.(jpe?g|png|gif|webp|bmp|tiff?)$/i;
/** Instagram takes JPEG images only; a URL that names another image format fails when Meta fetches it. */
const NOT_JPEG_PATH = /\.(png|gif|webp|bmp|tiff?|heic)$/i;

function pathOf(url: string | undefined): string | undefined {
  try {
    const u = new URL(url ?? '');
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.pathname : undefined;
  } catch {
    return undefined;
  }
}

/** Why Meta's fetch of the file would fail, judged from the URL (the emulator does not download media). */
function mediaProblem(kind: 'image' | 'video', url: string, path: string, ownBase: string, heraldOrigins: readonly string[]): string | undefined {
  if (unreachableMediaUrl(url, ownBase, heraldOrigins)) return 'Error: Media download has failed with error code 2207052 (the media could not be fetched from this URI)';
  if (kind === 'video' && IMAGE_PATH.test(path)) return 'Error: Media upload has failed with error code 2207026 (unsupported video format)';
  if (kind === 'image' && (VIDEO_PATH.test(path) || NOT_JPEG_PATH.test(path))) return 'Error: Media upload has failed with error code 2207005 (unsupported image format; only JPEG is supported)';
  return undefined;
}

const count = (text: string, re: RegExp) => text.match(re)?.length ?? 0;

export function instagramRoutes(app: FastifyInstance, ctx: MetaContext): void {
  const { state, ledger } = ctx;

  const publishedSince = (igId: string, since: number) => [...state.media.values()].filter((m) => m.igId === igId && m.createdAt > since).length;

  app.post('/:v/:id/media', async (req, reply) => {
    const { id: igId } = req.params as { id: string };
    if (!igAccess(ctx, req, reply, igId, 'instagram_content_publish')) return reply;
    const created = createContainer(ctx, req, reply, igId, emulatorBaseUrl(req, app.prefix));
    if (!created) return reply;
    // Meta downloads the file when the container is made; the sandbox does so for its media origins.
    const url = created.imageUrl ?? created.videoUrl;
    if (url && pullable(url, ctx.mediaOrigins())) {
      const pulled = await pullMedia(url);
      if (pulled.ok) created.pulled = pulled.media;
      else created.error ??= `Error: Media download has failed: ${pulled.message}`;
    }
    return { id: created.id };
  });

  app.get('/:v/:id/media', async (req, reply) => {
    const { id: igId } = req.params as { id: string };
    if (!igAccess(ctx, req, reply, igId, 'instagram_basic')) return reply;
    return listMedia(ctx, req, igId, false);
  });

  app.get('/:v/:id/content_publishing_limit', async (req, reply) => {
    const { id: igId } = req.params as { id: string };
    if (!igAccess(ctx, req, reply, igId, 'instagram_basic')) return reply;
    const used = publishedSince(igId, ctx.now() - DAY_MS);
    return { data: [{ quota_usage: used, config: { quota_total: ctx.publishQuota, quota_duration: DAY_MS / 1000 } }] };
  });

  app.post('/:v/:id/media_publish', async (req, reply) => {
    const { id: igId } = req.params as { id: string };
    if (!igAccess(ctx, req, reply, igId, 'instagram_content_publish')) return reply;
    const container = state.containers.get(param(req, 'creation_id') ?? '');
    if (!container || container.igId !== igId || container.isCarouselItem) return badParam(reply, 'Param creation_id must be a media container of this account');
    const code = containerCode(ctx, container);
    if (code === 'PUBLISHED') return badParam(reply, 'The media container has already been published');
    if (code === 'EXPIRED') return badParam(reply, 'The media container has expired', 2207008);
    if (code !== 'FINISHED') {
      return graphError(reply, 400, 9007, 'Media ID is not available', { subcode: 2207027, userMsg: 'The media is not ready for publishing, please wait for a moment' });
    }
    const now = ctx.now();
    if (publishedSince(igId, now - DAY_MS) >= ctx.publishQuota) {
      return graphError(reply, 400, 9, 'Application request limit reached', { subcode: 2207042, userMsg: 'You reached maximum number of posts that is allowed to be published via API in 24 hours' });
    }
    const mediaId = state.nextId('179');
    container.mediaId = mediaId;
    const children = container.children.map((id) => state.containers.get(id)!);
    const mediaType = container.mediaType === 'CAROUSEL' ? 'CAROUSEL_ALBUM' : container.mediaType === 'IMAGE' || (container.mediaType === 'STORIES' && container.imageUrl) ? 'IMAGE' : 'VIDEO';
    const productType = container.mediaType === 'STORIES' ? 'STORY' : container.mediaType === 'REELS' ? 'REELS' : 'FEED';
    state.media.set(mediaId, { id: mediaId, igId, containerId: container.id, caption: container.caption, mediaType, productType, shortcode: state.shortcode(), createdAt: now });
    const items = container.mediaType === 'CAROUSEL' ? children : [container];
    ledger.record({
      id: mediaId,
      accountId: igId,
      kind: 'media',
      text: container.caption,
      media: items.map((c) => ({ ...(c.videoUrl ? { type: 'video', url: c.videoUrl } : { type: 'image', url: c.imageUrl ?? '' }), ...(c.altText ? { altText: c.altText } : {}), ...c.pulled })),
      createdAt: now,
      extra: {
        mediaType,
        productType,
        ...(container.collaborators.length ? { collaborators: container.collaborators } : {}),
        ...(container.shareToFeed !== undefined ? { shareToFeed: container.shareToFeed } : {}),
      },
    });
    return { id: mediaId };
  });
}

/** The account's media (or, with `stories`, its stories), newest first. */
export function listMedia(ctx: MetaContext, req: FastifyRequest, igId: string, stories: boolean) {
  const fields = fieldsOf(req);
  const items = [...ctx.state.media.values()]
    .filter((m) => m.igId === igId && (m.productType === 'STORY') === stories)
    .sort((a, b) => b.createdAt - a.createdAt)
    .map((m) => select(mediaView(ctx, m), fields, []));
  return paginate(req, `${req.protocol}://${req.host}`, items);
}

function createContainer(ctx: MetaContext, req: FastifyRequest, reply: FastifyReply, igId: string, ownBase: string): IgContainer | undefined {
  const { state } = ctx;
  const mediaType = (param(req, 'media_type') ?? 'IMAGE').toUpperCase();
  const isCarouselItem = param(req, 'is_carousel_item') === 'true';
  const caption = param(req, 'caption') ?? '';
  const imageUrl = param(req, 'image_url');
  const videoUrl = param(req, 'video_url');
  const now = ctx.now();
  const fail = (message: string, subcode?: number) => void badParam(reply, message, subcode);

  if (![...'IMAGE VIDEO REELS STORIES CAROUSEL'.split(' ')].includes(mediaType)) return fail(`media_type ${mediaType} is not supported`);
  if (mediaType === 'VIDEO' && !isCarouselItem) return fail('The VIDEO media type is no longer supported for single posts; use REELS');
  if ([...caption].length > MAX_CAPTION) return fail('The caption is too long', 2207010);
  if (count(caption, /#[\p{L}\p{N}_]+/gu) > MAX_HASHTAGS) return fail(`The caption has more than ${MAX_HASHTAGS} hashtags`, 2207010);
  if (count(caption, /(?<![\p{L}\p{N}_])@[A-Za-z0-9_.]+/gu) > MAX_MENTIONS) return fail(`The caption mentions more than ${MAX_MENTIONS} accounts`, 2207010);
  let collaborators: string[] = [];
  const rawCollaborators = param(req, 'collaborators');
  if (rawCollaborators !== undefined) {
    try {
      collaborators = JSON.parse(rawCollaborators) as string[];
    } catch {
      return fail('collaborators must be a JSON list of usernames');
    }
    if (!Array.isArray(collaborators) || collaborators.length > 3 || collaborators.some((c) => typeof c !== 'string')) {
      return fail('collaborators must list at most 3 usernames');
    }
  }

  const base = { id: state.nextId('178'), igId, mediaType: mediaType as IgMediaType, caption, children: [] as string[], isCarouselItem, collaborators, createdAt: now };
  let container: IgContainer;
  if (mediaType === 'CAROUSEL') {
    const ids = (param(req, 'children') ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    if (ids.length < 2 || ids.length > 10) return fail('A carousel needs between 2 and 10 children', 2207028);
    const children = ids.map((id) => state.containers.get(id));
    if (children.some((c) => !c || c.igId !== igId || !c.isCarouselItem)) return fail('children must be carousel item containers of this account', 2207028);
    const readyAt = Math.max(now, ...children.map((c) => c!.readyAt)) + ctx.processingMs;
    const error = children.find((c) => c!.error)?.error;
    container = { ...base, children: ids, readyAt, ...(error ? { error } : {}) };
  } else {
    const isVideo = mediaType === 'VIDEO' || mediaType === 'REELS' || (mediaType === 'STORIES' && videoUrl !== undefined);
    const url = isVideo ? videoUrl : imageUrl;
    const path = pathOf(url);
    if (!path) return fail(`${isVideo ? 'video_url' : 'image_url'} must be a public http(s) URL`, 2207052);
    const error = mediaProblem(isVideo ? 'video' : 'image', url!, path, ownBase, ctx.mediaOrigins());
    container = {
      ...base,
      ...(isVideo ? { videoUrl: url } : { imageUrl: url }),
      ...(!isVideo && param(req, 'alt_text') ? { altText: param(req, 'alt_text') } : {}),
      ...(mediaType === 'REELS' ? { shareToFeed: param(req, 'share_to_feed') !== 'false' } : {}),
      readyAt: now + ctx.processingMs,
      ...(error ? { error } : {}),
    };
  }
  state.containers.set(container.id, container);
  return container;
}
