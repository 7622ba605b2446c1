// Uploads as the emulator serves them: the resumable session (POST with metadata → Location; PUTs of
// chunks kept in 256 KiB granules → 308 with Range; the last byte → 201 with the video; `bytes */TOTAL`
// asks where it stands), and thumbnails.set.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SCOPE, THUMBNAIL_RULES, VIDEO_RULES } from '../../platforms/youtube/info.ts';
import { emulatorBaseUrl } from '../kit/emulator.ts';
import { sniffMediaType } from '../media.ts';
import { authenticate, bearer, checkQuery, partsOf, quotaGate, refuse, type Query, type YouTubeContext } from './context.ts';
import { ERR, sendApiError } from './google-errors.ts';
import { parseVideoResource } from './resource.ts';
import type { SessionRecord } from './store.ts';
import { videoView } from './views.ts';

const INSERT_SCOPES = [SCOPE.upload, SCOPE.manage, SCOPE.forceSsl, SCOPE.partner];
const VIDEO_PARTS = ['snippet', 'status', 'contentDetails', 'fileDetails', 'liveStreamingDetails', 'localizations', 'player', 'processingDetails', 'recordingDetails', 'statistics', 'suggestions', 'topicDetails', 'id'];
const DAY_MS = 24 * 60 * 60_000;

function header(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function sessionUrl(req: FastifyRequest, prefix: string, rec: SessionRecord): string {
  return `${emulatorBaseUrl(req, prefix)}/upload/youtube/v3/videos?uploadType=resumable&upload_id=${encodeURIComponent(rec.id)}`;
}

export function registerUploadRoutes(app: FastifyInstance, ctx: YouTubeContext, prefix: string): void {
  const base = (req: FastifyRequest) => emulatorBaseUrl(req, prefix);

  app.post('/upload/youtube/v3/videos', async (req, reply) => {
    const q = req.query as Query;
    const caller = authenticate(ctx, req, reply, INSERT_SCOPES, 'VideosInsert');
    if (!caller) return reply;
    if (!quotaGate(ctx, reply, 'uploads', 1)) return reply;
    const shape = checkQuery(q, ['part', 'uploadType', 'notifySubscribers', 'autoLevels', 'stabilize', 'onBehalfOfContentOwner', 'onBehalfOfContentOwnerChannel'], VIDEO_PARTS);
    if (shape) return refuse(ctx, reply, shape);
    // This emulator takes the resumable protocol, the one Herald uses; multipart and media are refused.
    if (q.uploadType !== 'resumable') return refuse(ctx, reply, ERR.badParam('invalidParameter', `uploadType ${q.uploadType ?? '(missing)'} is not supported by the sandbox; use uploadType=resumable`, 'uploadType'));
    const channel = caller.account.channel;
    if (!channel) return sendApiError(reply, ERR.signupRequired());
    const size = Number(header(req, 'x-upload-content-length'));
    if (!Number.isInteger(size) || size <= 0) return refuse(ctx, reply, ERR.required('X-Upload-Content-Length', 'header'));
    if (size > VIDEO_RULES.maxBytes) return refuse(ctx, reply, ERR.youtube(400, 'global', 'uploadTooLarge', `Media larger than: ${VIDEO_RULES.maxBytes}`));
    const mimeType = (header(req, 'x-upload-content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (!/^video\/[\w.+-]+$/.test(mimeType) && mimeType !== 'application/octet-stream') {
      return refuse(ctx, reply, ERR.youtube(400, 'global', 'badContent', `Media type '${mimeType}' is not supported. Valid media types: [video/*, application/octet-stream]`));
    }
    const contentType = (header(req, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (contentType !== 'application/json') return refuse(ctx, reply, ERR.invalidArgument('Invalid JSON payload received. The request metadata must be application/json.'));
    const parsed = parseVideoResource(req.body, partsOf(q), 'insert', ctx.now());
    if (!parsed.ok) return refuse(ctx, reply, parsed.error);
    const recent = ctx.store.uploadsSince(channel.id, ctx.now() - DAY_MS);
    if (recent >= ctx.settings.channelDailyUploads) {
      return refuse(ctx, reply, ERR.youtube(400, 'youtube.video', 'uploadLimitExceeded', 'The user has exceeded the number of videos they may upload.'));
    }
    ctx.quota.charge('uploads', 1);
    const rec = ctx.store.openSession({
      userId: caller.account.sub,
      channelId: channel.id,
      parts: [...partsOf(q)],
      snippet: parsed.snippet!,
      status: parsed.status!,
      size,
      mimeType,
      notifySubscribers: q.notifySubscribers !== 'false',
    });
    return reply.code(200).header('location', sessionUrl(req, prefix, rec)).header('x-guploader-uploadid', rec.id).send();
  });

  /** The session's video as the answer of its completing PUT (or of any later PUT). */
  const videoAnswer = (req: FastifyRequest, reply: FastifyReply, rec: SessionRecord, status: number) => {
    const video = ctx.store.videos.get(rec.videoId!)!;
    const owner = ctx.accounts.get(rec.userId) ?? null;
    return reply.code(status).type('application/json; charset=UTF-8').send(videoView(ctx.store, video, new Set(rec.parts), owner, base(req)));
  };

  app.put('/upload/youtube/v3/videos', async (req, reply) => {
    const q = req.query as Query;
    const rec = q.upload_id ? ctx.store.sessions.get(q.upload_id) : undefined;
    if (!rec || ctx.now() - rec.createdAt > ctx.settings.sessionTtlMs) return sendApiError(reply, ERR.notFound());
    // The session URI is the credential; a token sent along must still be valid.
    const token = bearer(req);
    if (token && !ctx.oauth.checkAccess(token).ok) return sendApiError(reply, ERR.invalidCredentials());
    const range = header(req, 'content-range');
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    if (req.body !== undefined && req.body !== null && !Buffer.isBuffer(req.body)) {
      return sendApiError(reply, ERR.badParam('badRequest', 'The upload body must be the raw bytes of the video.'));
    }

    const status = /^bytes \*\/(\d+)$/.exec(range ?? '');
    if (status) {
      if (Number(status[1]) !== rec.size) return sendApiError(reply, ERR.badParam('badRequest', `Content-Range total ${status[1]} differs from X-Upload-Content-Length ${rec.size}.`));
      if (body.length > 0) return sendApiError(reply, ERR.badParam('badRequest', 'A status query carries no body.'));
      if (rec.videoId) return videoAnswer(req, reply, rec, 200);
      if (rec.received > 0) reply.header('range', `bytes=0-${rec.received - 1}`);
      return reply.code(308).header('x-guploader-uploadid', rec.id).send();
    }
    if (rec.videoId) return videoAnswer(req, reply, rec, 200);
    // Without Content-Range the body is the whole file.
    const m = range === undefined ? ([range, '0', String(body.length - 1), String(rec.size)] as const) : /^bytes (\d+)-(\d+)\/(\d+)$/.exec(range);
    if (!m) return sendApiError(reply, ERR.badParam('badRequest', `Failed to parse Content-Range header: ${range}`));
    const [first, last, total] = [Number(m[1]), Number(m[2]), Number(m[3])];
    if (total !== rec.size) return sendApiError(reply, ERR.badParam('badRequest', `Content-Range total ${total} differs from X-Upload-Content-Length ${rec.size}.`));
    if (last < first || last >= total) return sendApiError(reply, ERR.badParam('badRequest', `Content-Range ${range} is out of bounds.`));
    if (last - first + 1 !== body.length) return sendApiError(reply, ERR.badParam('badRequest', `Content-Range covers ${last - first + 1} bytes but the body has ${body.length}.`));
    if (first !== rec.received) return sendApiError(reply, ERR.badParam('badRequest', `Invalid request. The upload has ${rec.received} bytes; a chunk starting at byte ${first} does not continue it.`));

    ctx.store.receive(rec, body, ctx.settings.chunkGranularity);
    if (rec.received < rec.size) {
      if (rec.received > 0) reply.header('range', `bytes=0-${rec.received - 1}`);
      return reply.code(308).header('x-guploader-uploadid', rec.id).send();
    }
    ctx.store.complete(rec, ctx.settings.unverifiedProject);
    return videoAnswer(req, reply, rec, ctx.settings.completeStatus);
  });

  app.post('/upload/youtube/v3/thumbnails/set', async (req, reply) => {
    const q = req.query as Query;
    const caller = authenticate(ctx, req, reply, INSERT_SCOPES, 'ThumbnailsSet');
    if (!caller) return reply;
    if (!quotaGate(ctx, reply, 'units', 50)) return reply;
    const shape = checkQuery(q, ['videoId', 'uploadType', 'onBehalfOfContentOwner'], null);
    if (shape) return refuse(ctx, reply, shape);
    if (!q.videoId) return refuse(ctx, reply, ERR.required('videoId'));
    const video = ctx.store.video(q.videoId);
    if (!video) return refuse(ctx, reply, ERR.youtube(404, 'youtube.video', 'videoNotFound', 'The video that you are trying to update cannot be found.', 'videoId'));
    const channel = caller.account.channel;
    if (!channel || channel.id !== video.channelId) return refuse(ctx, reply, ERR.forbidden('The thumbnail can\'t be set for the specified video. The request might not be properly authorized.', 'youtube.thumbnail'));
    if (!channel.verified) return refuse(ctx, reply, ERR.forbidden('The authenticated user doesn\'t have permissions to upload and set custom video thumbnails.', 'youtube.thumbnail'));
    if (!Buffer.isBuffer(req.body) || req.body.length === 0) return refuse(ctx, reply, ERR.youtube(400, 'youtube.thumbnail', 'mediaBodyRequired', 'The request does not include the image content.'));
    if (req.body.length > THUMBNAIL_RULES.maxBytes) return refuse(ctx, reply, ERR.youtube(413, 'global', 'uploadTooLarge', `Media larger than: ${THUMBNAIL_RULES.maxBytes}`));
    const type = sniffMediaType(req.body);
    if (type !== 'image/jpeg' && type !== 'image/png') return refuse(ctx, reply, ERR.youtube(400, 'youtube.thumbnail', 'invalidImage', 'The provided image content is invalid.'));
    const now = ctx.now();
    const recent = (ctx.thumbnailCalls.get(channel.id) ?? []).filter((t) => now - t < 60_000);
    if (recent.length >= ctx.settings.thumbnailsPerMinute) {
      return refuse(ctx, reply, ERR.rateLimited(60, 'uploadRateLimitExceeded', 'The user has sent too many thumbnail upload requests recently. Please try the request again later.'));
    }
    ctx.thumbnailCalls.set(channel.id, [...recent, now]);
    ctx.quota.charge('units', 50);
    ctx.store.setThumbnail(video, req.body.length, type);
    const url = (name: string) => `${base(req)}/sandbox-avatar/${video.id}-${name}.jpg`;
    return {
      kind: 'youtube#thumbnailSetResponse',
      etag: `"${video.id}-${video.thumbnails}"`,
      items: [
        {
          default: { url: url('default'), width: 120, height: 90 },
          medium: { url: url('mqdefault'), width: 320, height: 180 },
          high: { url: url('hqdefault'), width: 480, height: 360 },
          standard: { url: url('sddefault'), width: 640, height: 480 },
          maxres: { url: url('maxresdefault'), width: 1280, height: 720 },
        },
      ],
    };
  });

  // The metadata-only endpoint cannot make a video: it has no media.
  app.post('/youtube/v3/videos', async (req, reply) => {
    const caller = authenticate(ctx, req, reply, INSERT_SCOPES, 'VideosInsert');
    if (!caller) return reply;
    return refuse(ctx, reply, ERR.youtube(400, 'youtube.video', 'mediaBodyRequired', 'The request does not include the video content.'));
  });
}
