// The Images, Videos and Documents APIs as the emulator serves them (platforms.md 7.6): initializeUpload
// (the owner must be the caller or a Page they post for), the upload URLs (the owner's bearer token, in
// order, each part its exact byte range, an ETag per video part), finalizeUpload (token and every ETag in
// order), and the status reads (WAITING_UPLOAD → PROCESSING → AVAILABLE or PROCESSING_FAILED).
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { VIDEO_RULES } from '../../platforms/linkedin/info.ts';
import { emulatorBaseUrl } from '../kit/emulator.ts';
import { authenticate, canWriteAs, hasBareUrnKey, requireScope, versionTag, type Caller, type LinkedInContext } from './context.ts';
import { accessDenied, illegal, notFound, sendRestError, sendValidation } from './envelope.ts';
import { joinParts, settleMedia } from './media-model.ts';
import type { MediaKind, MediaRecord } from './store.ts';

type Json = Record<string, unknown>;
const UPLOAD_URL_TTL_MS = 24 * 60 * 60_000;
const RESOURCE: Record<MediaKind, string> = { image: 'images', video: 'videos', document: 'documents' };
const URN_PREFIX: Record<MediaKind, string> = { image: 'urn:li:image:C4D22AQ', video: 'urn:li:video:C5505AQ', document: 'urn:li:document:D4D10AQ' };

function obj(v: unknown): Json {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {};
}

/** The owner check initializeUpload makes: the caller themself, or a Page they post for. */
function checkOwner(req: FastifyRequest, reply: FastifyReply, caller: Caller, owner: unknown, kind: MediaKind): string | null {
  if (typeof owner !== 'string' || !owner) {
    sendValidation(reply, 422, 'ERROR :: /initializeUploadRequest/owner :: field is required but not found and has no default value');
    return null;
  }
  const may = canWriteAs(caller, owner);
  if (may === 'ok') return owner;
  if (may === 'scope') sendRestError(reply, accessDenied(`${RESOURCE[kind]}.ACTION-initializeUpload.${versionTag(req)}`));
  else sendRestError(reply, { status: 403, serviceErrorCode: 100, code: 'ACCESS_DENIED', message: 'Field Value validation failed in REQUEST_BODY: Data Processing Exception while processing fields [/owner]' });
  return null;
}

function newRecord(ctx: LinkedInContext, kind: MediaKind, owner: string, caller: Caller): MediaRecord {
  const now = ctx.now();
  const rec: MediaRecord = {
    urn: ctx.ids.asset(URN_PREFIX[kind]),
    kind,
    owner,
    memberId: caller.member.id,
    uploadKey: randomBytes(18).toString('base64url'),
    createdAt: now,
    uploadExpiresAt: now + UPLOAD_URL_TTL_MS,
    state: 'WAITING_UPLOAD',
  };
  ctx.media.set(rec.urn, rec);
  return rec;
}

/** Upload URLs are LinkedIn's (dms-uploads); they still want the owner's member token. */
function uploadCaller(ctx: LinkedInContext, req: FastifyRequest, reply: FastifyReply, rec: MediaRecord | undefined): boolean {
  const caller = authenticate(ctx, req, reply);
  if (!caller) return false;
  if (!rec || caller.member.id !== rec.memberId) {
    sendRestError(reply, { status: 403, code: 'ACCESS_DENIED', message: 'The upload URL does not belong to this member' });
    return false;
  }
  if (ctx.now() > rec.uploadExpiresAt) {
    sendRestError(reply, { status: 403, code: 'ACCESS_DENIED', message: 'The upload URL has expired' });
    return false;
  }
  return true;
}

function bodyBytes(body: unknown): Buffer | null {
  return Buffer.isBuffer(body) ? body : null;
}

function registerInitialize(app: FastifyInstance, ctx: LinkedInContext, prefix: string, kind: MediaKind): void {
  app.post(`/rest/${RESOURCE[kind]}`, async (req, reply) => {
    const caller = authenticate(ctx, req, reply);
    if (!caller) return reply;
    const action = (req.query as Json).action;
    if (action !== 'initializeUpload' && !(kind === 'video' && action === 'finalizeUpload')) {
      return sendRestError(reply, illegal(`Unknown action ${String(action)}`));
    }
    if (action === 'finalizeUpload') return finalize(ctx, req, reply, caller);
    const init = obj(obj(req.body).initializeUploadRequest);
    const owner = checkOwner(req, reply, caller, init.owner, kind);
    if (!owner) return reply;
    const base = emulatorBaseUrl(req, prefix);
    if (kind !== 'video') {
      const rec = newRecord(ctx, kind, owner, caller);
      return {
        value: { uploadUrlExpiresAt: rec.uploadExpiresAt, uploadUrl: `${base}/dms-uploads/${kind}/${rec.uploadKey}`, [kind]: rec.urn },
      };
    }
    const size = init.fileSizeBytes;
    if (typeof size !== 'number' || !Number.isInteger(size) || size <= 0) {
      return sendValidation(reply, 422, 'ERROR :: /initializeUploadRequest/fileSizeBytes :: field is required but not found and has no default value');
    }
    if (size > VIDEO_RULES.maxBytes) return sendValidation(reply, 400, `fileSizeBytes ${size} exceeds the maximum of ${VIDEO_RULES.maxBytes}`, [{ code: 'INVALID_VALUE', description: 'File size too large', field: '/fileSizeBytes' }]);
    const rec = newRecord(ctx, 'video', owner, caller);
    const partBytes = ctx.settings.partBytes;
    rec.fileSizeBytes = size;
    rec.parts = Array.from({ length: Math.ceil(size / partBytes) }, (_, i) => ({ first: i * partBytes, last: Math.min(size, (i + 1) * partBytes) - 1 }));
    // A single-part upload gets an empty token (platforms.md 7.6).
    rec.uploadToken = rec.parts.length > 1 ? randomBytes(12).toString('base64url') : '';
    return {
      value: {
        uploadUrlsExpireAt: rec.uploadExpiresAt,
        video: rec.urn,
        uploadInstructions: rec.parts.map((p, i) => ({ uploadUrl: `${base}/dms-uploads/video/${rec.uploadKey}/part/${i}`, firstByte: p.first, lastByte: p.last })),
        uploadToken: rec.uploadToken,
      },
    };
  });
}

function finalize(ctx: LinkedInContext, req: FastifyRequest, reply: FastifyReply, caller: Caller): FastifyReply | Json {
  const f = obj(obj(req.body).finalizeUploadRequest);
  const rec = typeof f.video === 'string' ? ctx.media.get(f.video) : undefined;
  if (!rec || rec.kind !== 'video') return sendRestError(reply, notFound(`Video ${String(f.video)} not found`));
  if (canWriteAs(caller, rec.owner) !== 'ok') return sendRestError(reply, accessDenied(`videos.ACTION-finalizeUpload.${versionTag(req)}`));
  if (rec.finalized) return sendRestError(reply, illegal(`Video ${rec.urn} is already finalized`));
  if (f.uploadToken !== rec.uploadToken) return sendRestError(reply, illegal('uploadToken does not match the upload'));
  const parts = rec.parts ?? [];
  const missing = parts.findIndex((p) => !p.etag);
  if (missing !== -1) return sendRestError(reply, illegal(`Part ${missing} of ${parts.length} was not uploaded`));
  const ids = Array.isArray(f.uploadedPartIds) ? f.uploadedPartIds : [];
  if (ids.length !== parts.length || ids.some((id, i) => id !== parts[i]!.etag)) {
    return sendRestError(reply, illegal('uploadedPartIds must list the ETag of every part, in order'));
  }
  rec.bytes = joinParts(rec);
  for (const p of parts) delete p.data;
  rec.finalized = true;
  rec.state = 'PROCESSING';
  rec.readyAt = ctx.now() + ctx.settings.processingMs;
  return reply.code(200).send();
}

function registerUploads(app: FastifyInstance, ctx: LinkedInContext): void {
  const byKey = (kind: MediaKind, key: string) => [...ctx.media.values()].find((m) => m.kind === kind && m.uploadKey === key);

  app.put('/dms-uploads/:kind/:key', async (req, reply) => {
    const { kind, key } = req.params as { kind: string; key: string };
    if (kind !== 'image' && kind !== 'document') return sendRestError(reply, notFound());
    const rec = byKey(kind, key);
    if (!uploadCaller(ctx, req, reply, rec)) return reply;
    if (rec!.state !== 'WAITING_UPLOAD') return sendRestError(reply, illegal('The file was already uploaded'));
    const bytes = bodyBytes(req.body);
    if (!bytes || bytes.length === 0) return sendRestError(reply, illegal('The request carries no file'));
    rec!.bytes = bytes;
    rec!.state = 'PROCESSING';
    rec!.readyAt = ctx.now() + ctx.settings.processingMs;
    return reply.code(201).send();
  });

  app.put('/dms-uploads/video/:key/part/:n', async (req, reply) => {
    const { key, n } = req.params as { key: string; n: string };
    const rec = byKey('video', key);
    if (!uploadCaller(ctx, req, reply, rec)) return reply;
    const part = rec!.parts?.[Number(n)];
    if (!part) return sendRestError(reply, notFound('No such upload part'));
    if (rec!.finalized) return sendRestError(reply, illegal('The video is already finalized'));
    const bytes = bodyBytes(req.body);
    const expected = part.last - part.first + 1;
    if (!bytes || bytes.length !== expected) return sendRestError(reply, illegal(`Part ${n} must be ${expected} bytes (bytes ${part.first}-${part.last}), got ${bytes?.length ?? 0}`));
    part.data = bytes;
    part.etag = `"${createHash('md5').update(bytes).digest('hex')}"`;
    return reply.code(200).header('etag', part.etag).send();
  });
}

function registerStatus(app: FastifyInstance, ctx: LinkedInContext, kind: MediaKind): void {
  app.get(`/rest/${RESOURCE[kind]}/:urn`, async (req, reply) => {
    const caller = authenticate(ctx, req, reply);
    if (!caller) return reply;
    if (!requireScope(req, reply, caller, ['w_member_social', 'w_organization_social'], `${RESOURCE[kind]}.GET`)) return reply;
    if (hasBareUrnKey(req)) return sendRestError(reply, illegal('Invalid key: a URN in the path must be URL-encoded'));
    const rec = ctx.media.get((req.params as { urn: string }).urn);
    if (!rec || rec.kind !== kind) return sendRestError(reply, notFound(`${kind} not found`));
    if (canWriteAs(caller, rec.owner) !== 'ok') return sendRestError(reply, accessDenied(`${RESOURCE[kind]}.GET.${versionTag(req)}`));
    settleMedia(rec, ctx.now());
    const out: Json = { id: rec.urn, owner: rec.owner, status: rec.state };
    if (rec.state === 'AVAILABLE' && kind !== 'video') out.downloadUrl = `https://media.licdn.com/dms/${kind}/sandbox/${rec.uploadKey}`;
    return out;
  });
}

export function registerMediaRoutes(app: FastifyInstance, ctx: LinkedInContext, prefix: string): void {
  for (const kind of ['image', 'video', 'document'] as const) {
    registerInitialize(app, ctx, prefix, kind);
    registerStatus(app, ctx, kind);
  }
  registerUploads(app, ctx);
}
