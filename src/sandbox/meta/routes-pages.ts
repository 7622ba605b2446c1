// Facebook Page publishing: feed posts (text, link, attached photos), photos (incl. unpublished staging),
// videos by URL, reels and video stories (start → upload → finish), photo stories, and the Page's lists.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { emulatorBaseUrl } from '../kit/emulator.ts';
import { unreachableMediaUrl } from '../kit/media-urls.ts';
import { badParam, fieldsOf, graphError, igAccess, pageAccess, paginate, param, select, type MetaContext } from './graph-http.ts';
import { graphTime, type FbPost, type FbVideo } from './state.ts';
import { listMedia } from './routes-instagram.ts';
import { videoView } from './views.ts';

const VIDEO_PATH = /\.(mp4|mov|m4v|webm)$/i;
const IMAGE_PATH = /\.(jpe?g|png|gif|webp|bmp|tiff?)$/i;
const DUPLICATE_WINDOW_MS = 10 * 60_000;
/** Message length schedulers hold Page posts to (Meta's reference states none; 63,206 is what Graph refuses above). */
const MAX_MESSAGE = 63_206;
/** API-published Reels per Page per rolling 24 hours (Reels Publishing API, "Limitations"). */
export const REELS_PER_DAY = 30;
const DAY_MS = 24 * 60 * 60_000;

function httpUrl(value: string | undefined): URL | undefined {
  try {
    const u = new URL(value ?? '');
    return u.protocol === 'http:' || u.protocol === 'https:' ? u : undefined;
  } catch {
    return undefined;
  }
}

/** Photo ids from `attached_media[0]={"media_fbid":"…"}` form fields or a JSON array. */
function attachedMedia(req: FastifyRequest): string[] | undefined {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const raw: unknown[] = Array.isArray(body.attached_media) ? body.attached_media : [];
  for (const [k, v] of Object.entries(body)) if (/^attached_media\[\d+\]$/.test(k)) raw[Number(k.slice(15, -1))] = v;
  const ids: string[] = [];
  for (const item of raw) {
    if (item === undefined) continue;
    let parsed: unknown = item;
    if (typeof item === 'string') {
      try {
        parsed = JSON.parse(item);
      } catch {
        return undefined;
      }
    }
    const id = (parsed as { media_fbid?: unknown })?.media_fbid;
    if (typeof id !== 'string' && typeof id !== 'number') return undefined;
    ids.push(String(id));
  }
  return ids;
}

export function pageRoutes(app: FastifyInstance, ctx: MetaContext): void {
  const { state, ledger } = ctx;
  const uploadUrl = (req: FastifyRequest, v: string, id: string) => `${emulatorBaseUrl(req, app.prefix)}/video-upload/${v}/${id}`;

  app.post('/:v/:id/feed', async (req, reply) => {
    const { id: pageId } = req.params as { id: string };
    if (!pageAccess(ctx, req, reply, pageId, { write: true, scope: 'pages_manage_posts' })) return reply;
    const message = param(req, 'message') ?? '';
    const link = param(req, 'link');
    const photoIds = attachedMedia(req);
    if (!photoIds) return badParam(reply, 'attached_media must be a list of {"media_fbid": id}');
    if (link !== undefined && !httpUrl(link)) return badParam(reply, 'link should represent a valid URL', 1609005);
    if (!message && !link && photoIds.length === 0) return badParam(reply, 'Missing message or attachment');
    if ([...message].length > MAX_MESSAGE) return badParam(reply, `The message is too long: at most ${MAX_MESSAGE} characters`);
    const photos = photoIds.map((id) => state.photos.get(id));
    if (photos.some((p) => !p || p.pageId !== pageId || p.published || p.used)) {
      return badParam(reply, 'attached_media must name unpublished photos of this Page that are not used yet');
    }
    const now = ctx.now();
    if (message && !link && photoIds.length === 0) {
      const statusKey = `${pageId}\n${message}`;
      const last = state.lastStatus.get(statusKey);
      if (last !== undefined && now - last < DUPLICATE_WINDOW_MS) return graphError(reply, 400, 506, '(#506) Duplicate status message');
      state.lastStatus.set(statusKey, now);
    }
    const id = `${pageId}_${state.nextId()}`;
    for (const p of photos) p!.used = true;
    state.posts.set(id, { id, pageId, message, link, createdAt: now, kind: 'post', photoIds });
    ledger.record({
      id,
      accountId: pageId,
      kind: 'post',
      text: message,
      media: photos.map((p) => ({ type: 'image', url: p!.url, ...(p!.altText ? { altText: p!.altText } : {}) })),
      createdAt: now,
      ...(link ? { extra: { link } } : {}),
    });
    return { id };
  });

  app.get('/:v/:id/feed', async (req, reply) => {
    const { id: pageId } = req.params as { id: string };
    if (!pageAccess(ctx, req, reply, pageId, { write: false, scope: 'pages_read_engagement' })) return reply;
    const since = Number(param(req, 'since') ?? 0) * 1000;
    const fields = fieldsOf(req);
    const posts = [...state.posts.values()]
      .filter((p) => p.pageId === pageId && p.createdAt >= since)
      .sort((a, b) => b.createdAt - a.createdAt)
      .map((p) => select(postView(p), fields, ['message', 'created_time']));
    return paginate(req, `${req.protocol}://${req.host}`, posts);
  });

  app.post('/:v/:id/photos', async (req, reply) => {
    const { id: pageId } = req.params as { id: string };
    if (!pageAccess(ctx, req, reply, pageId, { write: true, scope: 'pages_manage_posts' })) return reply;
    const url = httpUrl(param(req, 'url'));
    if (!url) return badParam(reply, 'url should represent a valid URL', 2061006);
    if (VIDEO_PATH.test(url.pathname)) return badParam(reply, 'Invalid image: the file is not a photo', 1366046);
    // Facebook downloads the photo during this call.
    const unreachable = unreachableMediaUrl(url.toString(), emulatorBaseUrl(req, app.prefix), ctx.mediaOrigins());
    if (unreachable) return badParam(reply, `The photo could not be downloaded: ${url} ${unreachable}`, 2061006);
    const published = param(req, 'published') !== 'false';
    const message = param(req, 'message') ?? param(req, 'caption') ?? '';
    if ([...message].length > MAX_MESSAGE) return badParam(reply, `The message is too long: at most ${MAX_MESSAGE} characters`);
    const now = ctx.now();
    const id = state.nextId();
    const altText = param(req, 'alt_text_custom');
    const photo = { id, pageId, url: url.toString(), published, used: published, createdAt: now, ...(altText ? { altText } : {}) } as const;
    state.photos.set(id, { ...photo });
    if (!published) return { id };
    const postId = `${pageId}_${state.nextId()}`;
    state.photos.get(id)!.postId = postId;
    state.posts.set(postId, { id: postId, pageId, message, createdAt: now, kind: 'photo', photoIds: [id] });
    ledger.record({ id: postId, accountId: pageId, kind: 'photo', text: message, media: [{ type: 'image', url: photo.url, ...(altText ? { altText } : {}) }], createdAt: now, extra: { photoId: id } });
    return { id, post_id: postId };
  });

  app.post('/:v/:id/videos', async (req, reply) => {
    const { id: pageId } = req.params as { id: string };
    if (!pageAccess(ctx, req, reply, pageId, { write: true, scope: 'pages_manage_posts' })) return reply;
    const url = httpUrl(param(req, 'file_url'));
    if (!url) return badParam(reply, 'file_url should represent a valid URL', 2061006);
    const now = ctx.now();
    // Meta fetches the file while processing: a host it cannot reach ends in a processing error.
    const unreachable = unreachableMediaUrl(url.toString(), emulatorBaseUrl(req, app.prefix), ctx.mediaOrigins());
    const video: FbVideo = {
      id: state.nextId(),
      pageId,
      kind: 'video',
      description: param(req, 'description') ?? '',
      fileUrl: url.toString(),
      uploaded: true,
      readyAt: now + ctx.processingMs,
      broken: IMAGE_PATH.test(url.pathname) || unreachable !== undefined,
      ...(unreachable ? { failure: `The video could not be downloaded: ${url} ${unreachable}` } : {}),
      published: param(req, 'published') !== 'false',
      createdAt: now,
    };
    state.videos.set(video.id, video);
    if (video.published && !video.broken) {
      const postId = `${pageId}_${video.id}`;
      state.posts.set(postId, { id: postId, pageId, message: video.description ?? '', createdAt: now, kind: 'video', photoIds: [], videoId: video.id });
      ledger.record({ id: video.id, accountId: pageId, kind: 'video', text: video.description ?? '', media: [{ type: 'video', url: video.fileUrl! }], createdAt: now });
    }
    return { id: video.id };
  });

  app.get('/:v/:id/videos', async (req, reply) => {
    const { id: pageId } = req.params as { id: string };
    if (!pageAccess(ctx, req, reply, pageId, { write: false, scope: 'pages_read_engagement' })) return reply;
    const fields = fieldsOf(req);
    const videos = [...state.videos.values()]
      .filter((v) => v.pageId === pageId && v.kind === 'video')
      .sort((a, b) => b.createdAt - a.createdAt)
      .map((v) => select(videoView(ctx, v), fields, ['description', 'updated_time']));
    return paginate(req, `${req.protocol}://${req.host}`, videos);
  });

  // Reels and video stories share the three-phase upload.
  for (const edge of ['video_reels', 'video_stories'] as const) {
    app.post(`/:v/:id/${edge}`, async (req, reply) => {
      const { v, id: pageId } = req.params as { v: string; id: string };
      if (!pageAccess(ctx, req, reply, pageId, { write: true, scope: 'pages_manage_posts' })) return reply;
      const phase = param(req, 'upload_phase');
      const kind = edge === 'video_reels' ? 'reel' : 'story';
      const now = ctx.now();
      if (phase === 'start') {
        const video: FbVideo = { id: state.nextId(), pageId, kind, uploaded: false, broken: false, published: false, createdAt: now };
        state.videos.set(video.id, video);
        return { video_id: video.id, upload_url: uploadUrl(req, v, video.id) };
      }
      if (phase !== 'finish') return badParam(reply, 'upload_phase must be start or finish');
      const video = state.videos.get(param(req, 'video_id') ?? '');
      if (!video || video.pageId !== pageId || video.kind !== kind) return badParam(reply, 'video_id does not name an upload session of this Page');
      if (!video.uploaded) return badParam(reply, 'The video has not been uploaded yet');
      if (kind === 'reel') {
        const stateParam = param(req, 'video_state');
        if (stateParam === undefined) return badParam(reply, 'The parameter video_state is required');
        if (!['PUBLISHED', 'DRAFT', 'SCHEDULED'].includes(stateParam)) return badParam(reply, 'video_state must be PUBLISHED, DRAFT or SCHEDULED');
        if (stateParam === 'SCHEDULED' && param(req, 'scheduled_publish_time') === undefined) {
          return badParam(reply, 'scheduled_publish_time is required when video_state is SCHEDULED');
        }
        if (stateParam === 'PUBLISHED' && !video.published) {
          const recent = [...state.videos.values()].filter((r) => r.pageId === pageId && r.kind === 'reel' && r.publishedAt !== undefined && r.publishedAt > now - DAY_MS);
          if (recent.length >= REELS_PER_DAY) {
            // Meta documents the cap, not its error; a Page-level throttle that says when a slot frees up is the closest.
            const oldest = Math.min(...recent.map((r) => r.publishedAt!));
            const minutes = Math.max(1, Math.ceil((oldest + DAY_MS - now) / 60_000));
            reply.header('x-business-use-case-usage', JSON.stringify({ [pageId]: [{ type: 'pages', call_count: 100, total_cputime: 0, total_time: 0, estimated_time_to_regain_access: minutes }] }));
            return graphError(reply, 400, 4, `(#4) This Page has published ${REELS_PER_DAY} reels through the API in the last 24 hours, the most it may`);
          }
        }
        // A file that is not a video is accepted here and fails in processing: nothing goes public.
        if (stateParam === 'PUBLISHED' && !video.published && !video.broken) {
          video.published = true;
          video.publishedAt = now;
          video.description = param(req, 'description') ?? '';
          ledger.record({ id: video.id, accountId: pageId, kind: 'reel', text: video.description, media: [{ type: 'video', url: video.fileUrl ?? '' }], createdAt: now });
        }
        return { success: true };
      }
      if (video.broken) return badParam(reply, 'The video file could not be processed');
      const existing = [...state.stories.values()].find((s) => s.mediaId === video.id);
      if (existing) return { success: true, post_id: existing.postId };
      video.published = true;
      video.publishedAt = now;
      const postId = state.nextId();
      state.stories.set(postId, { postId, pageId, mediaId: video.id, mediaType: 'video', createdAt: now });
      ledger.record({ id: postId, accountId: pageId, kind: 'story', text: '', media: [{ type: 'video', url: video.fileUrl ?? '' }], createdAt: now, extra: { mediaId: video.id } });
      return { success: true, post_id: postId };
    });
  }

  app.post('/:v/:id/photo_stories', async (req, reply) => {
    const { id: pageId } = req.params as { id: string };
    if (!pageAccess(ctx, req, reply, pageId, { write: true, scope: 'pages_manage_posts' })) return reply;
    const photo = state.photos.get(param(req, 'photo_id') ?? '');
    if (!photo || photo.pageId !== pageId || photo.published || photo.used) return badParam(reply, 'photo_id must name an unpublished, unused photo of this Page');
    const now = ctx.now();
    photo.used = true;
    const postId = state.nextId();
    state.stories.set(postId, { postId, pageId, mediaId: photo.id, mediaType: 'photo', createdAt: now });
    ledger.record({ id: postId, accountId: pageId, kind: 'story', text: '', media: [{ type: 'image', url: photo.url }], createdAt: now, extra: { mediaId: photo.id } });
    return { success: true, post_id: postId };
  });

  app.get('/:v/:id/stories', async (req, reply) => {
    const { id: pageId } = req.params as { id: string };
    // One path for both kinds of owner: an Instagram account's stories are served by its own routes.
    if (state.igAccounts.has(pageId)) {
      return igAccess(ctx, req, reply, pageId, 'instagram_basic') ? listMedia(ctx, req, pageId, true) : reply;
    }
    if (!pageAccess(ctx, req, reply, pageId, { write: false, scope: 'pages_read_engagement' })) return reply;
    const stories = [...state.stories.values()]
      .filter((s) => s.pageId === pageId)
      .sort((a, b) => b.createdAt - a.createdAt)
      .map((s) => ({
        post_id: s.postId,
        status: 'PUBLISHED',
        creation_time: String(Math.floor(s.createdAt / 1000)),
        media_type: s.mediaType,
        media_id: s.mediaId,
        url: `https://www.facebook.com/stories/${pageId}/${s.postId}/`,
      }));
    return paginate(req, `${req.protocol}://${req.host}`, stories);
  });

  // Stands in for rupload.facebook.com/video-upload/{v}/{video-id}: bytes in the body (from `offset`, of
  // `file_size` in all), or a file_url header. rupload takes the token as `Authorization: OAuth <token>` only.
  app.post('/video-upload/:v/:videoId', async (req, reply) => {
    const { videoId } = req.params as { videoId: string };
    if (!/^OAuth\s+\S+/i.test(req.headers.authorization ?? '')) {
      return graphError(reply, 400, 190, 'Invalid OAuth access token: rupload takes it as "Authorization: OAuth <token>"');
    }
    const video = state.videos.get(videoId);
    if (!video || video.kind === 'video') return badParam(reply, `Unknown upload session ${videoId}`);
    if (!pageAccess(ctx, req, reply, video.pageId, { write: true, scope: 'pages_manage_posts' })) return reply;
    if (video.published) return badParam(reply, `The upload session ${videoId} is finished; start a new one`);
    const header = req.headers.file_url;
    const fileUrl = httpUrl(typeof header === 'string' ? header : undefined);
    const bytes = Buffer.isBuffer(req.body) ? req.body : undefined;
    if (!fileUrl && !bytes?.length) return badParam(reply, 'Send the video bytes (offset, file_size) or a file_url header');
    if (fileUrl) {
      const unreachable = unreachableMediaUrl(fileUrl.toString(), emulatorBaseUrl(req, app.prefix), ctx.mediaOrigins());
      video.uploaded = true;
      video.fileUrl = fileUrl.toString();
      video.broken = IMAGE_PATH.test(fileUrl.pathname) || unreachable !== undefined;
      if (unreachable) video.failure = `The video could not be downloaded: ${fileUrl} ${unreachable}`;
      else delete video.failure;
      video.readyAt = ctx.now() + ctx.processingMs;
      return { success: true };
    }
    const offset = Number(req.headers.offset);
    const fileSize = Number(req.headers.file_size);
    if (req.headers.offset === undefined || !Number.isInteger(offset) || offset < 0) return badParam(reply, 'The offset header is required with the video bytes');
    if (req.headers.file_size === undefined || !Number.isInteger(fileSize) || fileSize <= 0) return badParam(reply, 'The file_size header is required with the video bytes');
    if (video.fileSize !== undefined && fileSize !== video.fileSize) return badParam(reply, `file_size ${fileSize} differs from the ${video.fileSize} this upload started with`);
    const received = video.receivedBytes ?? 0;
    if (offset !== received) return badParam(reply, `offset must be ${received}: the bytes before it are what this session holds`);
    if (received + bytes!.length > fileSize) return badParam(reply, `The bytes run past file_size ${fileSize}`);
    if (offset === 0) video.broken = bytes!.subarray(4, 8).toString('latin1') !== 'ftyp';
    video.fileSize = fileSize;
    video.receivedBytes = received + bytes!.length;
    video.fileUrl = `upload:${videoId}`;
    if (video.receivedBytes === fileSize) {
      video.uploaded = true;
      video.readyAt = ctx.now() + ctx.processingMs;
    }
    return { success: true };
  });
}

export function postView(p: FbPost): Record<string, unknown> {
  const [pageId, postNum] = p.id.split('_');
  return {
    id: p.id,
    message: p.message || undefined,
    created_time: graphTime(p.createdAt),
    permalink_url: p.kind === 'video' ? `https://www.facebook.com/${pageId}/videos/${p.videoId}/` : `https://www.facebook.com/${pageId}/posts/${postNum}`,
    ...(p.link ? { link: p.link } : {}),
  };
}
