// The Content Posting API as the emulator serves it: creator_info, video and photo init, the upload
// endpoint behind upload_url, and status/fetch.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { emulatorBaseUrl } from '../kit/emulator.ts';
import { pullable, pullMedia } from '../kit/pull.ts';
import { authenticate, avatarUrl, type Caller, type TikTokContext } from './context.ts';
import { sendError, sendOk } from './envelope.ts';
import { chunkPlanError } from './publishes.ts';
import { ALL_PRIVACY, creatorInfo, privacyOptions } from './users.ts';

type Json = Record<string, unknown>;
type Refusal = { status: number; code: string; message: string };

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
const UNAUDITED_USER_CAP = 5;

function obj(v: unknown): Json {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {};
}

function isHttpUrl(v: unknown): v is string {
  if (typeof v !== 'string') return false;
  try {
    const u = new URL(v);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}

/**
 * Per-token, per-endpoint limits per minute (documented): video and content init 6, creator_info 20,
 * status/fetch 30. Answers TikTok's 429 itself and returns true when the call is over.
 */
function overLimit(ctx: TikTokContext, reply: FastifyReply, endpoint: string, token: string, perMinute: number): boolean {
  const key = `${endpoint}:${token}`;
  const now = ctx.now();
  const recent = (ctx.initCalls.get(key) ?? []).filter((t) => now - t < MINUTE_MS);
  const limited = recent.length >= perMinute;
  if (!limited) recent.push(now);
  ctx.initCalls.set(key, recent);
  if (limited) sendError(reply, 429, 'rate_limit_exceeded', 'The API rate limit was exceeded. Please try again later.');
  return limited;
}

/** A creator's Direct Posts in the rolling 24 hours: over the cap, TikTok reads it as spam. */
function overDailyCap(ctx: TikTokContext, caller: Caller): Refusal | null {
  if (ctx.publishes.directPostsSince(caller.user.openId, ctx.now() - DAY_MS) < ctx.settings.dailyPostCap) return null;
  return { status: 403, code: 'spam_risk_too_many_posts', message: 'The daily post cap for this creator is reached.' };
}

/**
 * TikTok pulls only from domains or URL prefixes the app has verified. Without a list, the sandbox's own
 * host and Herald's media origins count as the verified domains (its sample media, and Herald's own media
 * at its public address): anything else is refused, as TikTok refuses it.
 */
function unverifiedUrl(ctx: TikTokContext, req: FastifyRequest, urls: string[]): Refusal | null {
  const prefixes = ctx.settings.verifiedUrlPrefixes ?? [`${req.protocol}://${req.host}/`, ...ctx.mediaOrigins().map((o) => `${o}/`)];
  const bad = urls.find((u) => !prefixes.some((p) => u.startsWith(p)));
  return bad ? { status: 403, code: 'url_ownership_unverified', message: `The domain or URL prefix of ${bad} is not verified for this app.` } : null;
}

/** Privacy and audit rules shared by video and photo Direct Posts. */
function checkPostInfo(ctx: TikTokContext, caller: Caller, info: Json, kind: 'video' | 'photo'): Refusal | null {
  const privacy = info.privacy_level;
  if (typeof privacy !== 'string' || !ALL_PRIVACY.includes(privacy)) {
    return { status: 400, code: 'invalid_params', message: `post_info.privacy_level must be one of ${ALL_PRIVACY.join(', ')}` };
  }
  if (ctx.settings.unaudited) {
    if (privacy !== 'SELF_ONLY' || !caller.user.isPrivate) {
      return { status: 403, code: 'unaudited_client_can_only_post_to_private_accounts', message: 'Unaudited clients can only post to private accounts with SELF_ONLY visibility.' };
    }
    const now = ctx.now();
    const active = [...ctx.postingUsers].filter(([, at]) => now - at < DAY_MS).map(([id]) => id);
    if (!active.includes(caller.user.openId) && active.length >= UNAUDITED_USER_CAP) {
      return { status: 403, code: 'reached_active_user_cap', message: 'The daily cap of active users for this unaudited client is reached.' };
    }
  }
  if (!privacyOptions(caller.user).includes(privacy)) {
    return { status: 400, code: 'privacy_level_option_mismatch', message: `privacy_level ${privacy} is not among the creator's options.` };
  }
  if (info.brand_content_toggle === true && privacy === 'SELF_ONLY') {
    return { status: 400, code: 'invalid_params', message: 'Branded content cannot be private (SELF_ONLY).' };
  }
  const title = typeof info.title === 'string' ? info.title : '';
  const description = typeof info.description === 'string' ? info.description : '';
  if (kind === 'video' && title.length > 2200) return { status: 400, code: 'invalid_params', message: 'post_info.title is longer than 2200 characters.' };
  if (kind === 'photo' && title.length > 90) return { status: 400, code: 'invalid_params', message: 'post_info.title is longer than 90 characters.' };
  if (kind === 'photo' && description.length > 4000) return { status: 400, code: 'invalid_params', message: 'post_info.description is longer than 4000 characters.' };
  return null;
}

function refuse(reply: FastifyReply, r: Refusal): FastifyReply {
  return sendError(reply, r.status, r.code, r.message);
}

export function registerPublishRoutes(app: FastifyInstance, ctx: TikTokContext, prefix: string): void {
  app.post('/v2/post/publish/creator_info/query/', async (req, reply) => {
    const caller = authenticate(ctx, req, reply, ['video.publish']);
    if (!caller || overLimit(ctx, reply, 'creator_info', caller.token, ctx.settings.creatorInfoPerMinute)) return reply;
    return sendOk(reply, creatorInfo(caller.user, avatarUrl(req, prefix, caller.user)));
  });

  app.post('/v2/post/publish/video/init/', async (req: FastifyRequest, reply) => {
    const caller = authenticate(ctx, req, reply, ['video.publish']);
    if (!caller) return reply;
    if (overLimit(ctx, reply, 'video', caller.token, ctx.settings.initsPerMinute)) return reply;
    const body = obj(req.body);
    const info = obj(body.post_info);
    const source = obj(body.source_info);
    const refused = checkPostInfo(ctx, caller, info, 'video') ?? overDailyCap(ctx, caller);
    if (refused) return refuse(reply, refused);
    if (source.source === 'FILE_UPLOAD') {
      const problem = chunkPlanError(source.video_size, source.chunk_size, source.total_chunk_count, ctx.settings.chunkRules);
      if (problem) return sendError(reply, 400, 'invalid_params', problem);
    } else if (source.source === 'PULL_FROM_URL') {
      if (!isHttpUrl(source.video_url)) return sendError(reply, 400, 'invalid_params', 'source_info.video_url must be an absolute http(s) URL.');
      const unverified = unverifiedUrl(ctx, req, [source.video_url]);
      if (unverified) return refuse(reply, unverified);
    } else {
      return sendError(reply, 400, 'invalid_params', 'source_info.source must be FILE_UPLOAD or PULL_FROM_URL.');
    }
    if (ctx.settings.unaudited) ctx.postingUsers.set(caller.user.openId, ctx.now());
    const rec = ctx.publishes.create({
      openId: caller.user.openId,
      kind: 'video',
      source: source.source,
      mode: 'DIRECT_POST',
      postInfo: info,
      ...(source.source === 'FILE_UPLOAD'
        ? { videoSize: source.video_size as number, chunkSize: source.chunk_size as number, chunkCount: source.total_chunk_count as number }
        : { videoUrl: source.video_url as string }),
    });
    const data: Json = { publish_id: rec.id };
    if (rec.uploadToken) {
      data.upload_url = `${emulatorBaseUrl(req, prefix)}/upload/video/?upload_id=${encodeURIComponent(rec.id)}&upload_token=${rec.uploadToken}`;
    }
    return sendOk(reply, data);
  });

  app.post('/v2/post/publish/content/init/', async (req, reply) => {
    const body = obj(req.body);
    const mode = body.post_mode;
    const caller = authenticate(ctx, req, reply, [mode === 'MEDIA_UPLOAD' ? 'video.upload' : 'video.publish']);
    if (!caller) return reply;
    if (overLimit(ctx, reply, 'content', caller.token, ctx.settings.initsPerMinute)) return reply;
    if (body.media_type !== 'PHOTO') return sendError(reply, 400, 'invalid_params', 'media_type must be PHOTO.');
    if (mode !== 'DIRECT_POST' && mode !== 'MEDIA_UPLOAD') return sendError(reply, 400, 'invalid_params', 'post_mode must be DIRECT_POST or MEDIA_UPLOAD.');
    const info = obj(body.post_info);
    const source = obj(body.source_info);
    if (source.source !== 'PULL_FROM_URL') return sendError(reply, 400, 'invalid_params', 'Photos support only source PULL_FROM_URL.');
    const images = source.photo_images;
    if (!Array.isArray(images) || images.length < 1 || images.length > 35 || !images.every(isHttpUrl)) {
      return sendError(reply, 400, 'invalid_params', 'source_info.photo_images must hold 1 to 35 absolute http(s) URLs.');
    }
    const cover = source.photo_cover_index ?? 0;
    if (typeof cover !== 'number' || !Number.isInteger(cover) || cover < 0 || cover >= images.length) {
      return sendError(reply, 400, 'invalid_params', 'source_info.photo_cover_index is out of range.');
    }
    if (mode === 'DIRECT_POST') {
      const refused = checkPostInfo(ctx, caller, info, 'photo') ?? overDailyCap(ctx, caller);
      if (refused) return refuse(reply, refused);
    }
    const unverified = unverifiedUrl(ctx, req, images);
    if (unverified) return refuse(reply, unverified);
    // TikTok downloads the photos; the sandbox does so for its media origins and keeps what arrived.
    const pulled = await Promise.all(images.map((u: string) => (pullable(u, ctx.mediaOrigins()) ? pullMedia(u) : null)));
    if (ctx.settings.unaudited) ctx.postingUsers.set(caller.user.openId, ctx.now());
    const rec = ctx.publishes.create({ openId: caller.user.openId, kind: 'photo', source: 'PULL_FROM_URL', mode, postInfo: info, photoImages: images, pulled });
    return sendOk(reply, { publish_id: rec.id });
  });

  // The upload host: the upload URL itself is the credential, as with TikTok's open-upload host.
  app.put('/upload/video/', async (req, reply) => {
    const q = req.query as Record<string, string | undefined>;
    const rec = q.upload_id ? ctx.publishes.get(q.upload_id) : undefined;
    if (!rec || !rec.uploadToken || rec.uploadToken !== q.upload_token) return sendError(reply, 404, 'invalid_params', 'The upload URL is unknown.');
    const contentType = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    const r = ctx.publishes.receiveChunk(rec, req.headers['content-range'], req.body, contentType);
    if ('code' in r) return sendError(reply, r.status, r.code, r.message);
    return reply.code(r.status).send();
  });

  app.post('/v2/post/publish/status/fetch/', async (req, reply) => {
    const caller = authenticate(ctx, req, reply, ['video.publish', 'video.upload']);
    if (!caller || overLimit(ctx, reply, 'status', caller.token, ctx.settings.statusFetchesPerMinute)) return reply;
    const id = obj(req.body).publish_id;
    const rec = typeof id === 'string' ? ctx.publishes.get(id) : undefined;
    if (!rec || rec.openId !== caller.user.openId) return sendError(reply, 400, 'invalid_params', 'publish_id is invalid or belongs to another user.');
    return reply.type('application/json; charset=utf-8').send(ctx.publishes.statusJson(rec));
  });
}
