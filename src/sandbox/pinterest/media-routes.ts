// Video uploads (§9.5): POST /v5/media registers one and hands out an S3-style form upload (upload_url
// plus upload_parameters: key, signed policy, x-amz-* fields); the upload host checks them as S3 does
// (every field before the file, signature, policy expiry, size, no bearer token) and answers 204 or
// XML; GET /v5/media/{id} walks registered → processing → succeeded | failed.
import { createHmac, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { authenticate, baseUrl, MESSAGES, pageSize, sendError, takeWrite, type PinterestContext } from './context.ts';
import { s3Xml, UPLOAD_PATH } from './faults.ts';
import { decodeBookmark, encodeBookmark, type UploadRecord } from './store.ts';

/** Pinterest's video limit (§9.6, third-party figure), as the policy's content-length-range. */
const MAX_VIDEO_BYTES = 2 * 1024 * 1024 * 1024;
const REQUIRED_FIELDS = ['key', 'policy', 'x-amz-algorithm', 'x-amz-credential', 'x-amz-date', 'x-amz-security-token', 'x-amz-signature', 'Content-Type'];

function amzDate(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
}

function sign(ctx: PinterestContext, policy: string): string {
  return createHmac('sha256', ctx.uploadSecret).update(policy).digest('hex');
}

function uploadParameters(rec: UploadRecord, now: number): Record<string, string> {
  const date = amzDate(now);
  return {
    'x-amz-date': date,
    'x-amz-signature': rec.signature,
    'x-amz-security-token': `IQoJsandbox${rec.id}`,
    'x-amz-algorithm': 'AWS4-HMAC-SHA256',
    key: rec.key,
    policy: rec.policy,
    'x-amz-credential': `ASIASANDBOX/${date.slice(0, 8)}/us-east-1/s3/aws4_request`,
    'Content-Type': 'multipart/form-data',
  };
}

function s3(reply: FastifyReply, status: number, code: string, message: string): FastifyReply {
  return reply.code(status).type('application/xml').send(s3Xml(code, message));
}

function mediaJson(ctx: PinterestContext, rec: UploadRecord): Record<string, unknown> {
  return { media_id: rec.id, media_type: 'video', status: ctx.store.uploadStatus(rec) };
}

export function registerMediaRoutes(app: FastifyInstance, ctx: PinterestContext): void {
  app.post('/v5/media', async (req, reply) => {
    const caller = authenticate(ctx, req, reply, ['pins:read', 'pins:write']);
    if (!caller || !takeWrite(ctx, caller, reply)) return reply;
    const body = req.body && typeof req.body === 'object' ? (req.body as Record<string, unknown>) : {};
    if (body.media_type !== 'video') return sendError(reply, 400, 1, "Invalid request: media_type must be 'video'");
    const now = ctx.now();
    const id = ctx.store.nextId();
    const key = `uploads/${randomBytes(1).toString('hex')}/${randomBytes(1).toString('hex')}/${caller.user.id}:video:${id}:${randomBytes(8).readBigUInt64BE()}`;
    const expiresAt = now + ctx.settings.uploadPolicyTtlMs;
    const policy = Buffer.from(
      JSON.stringify({ expiration: new Date(expiresAt).toISOString(), conditions: [{ bucket: 'pinterest-media-upload' }, { key }, ['content-length-range', 1, MAX_VIDEO_BYTES]] }),
    ).toString('base64');
    const rec = ctx.store.addUpload({ id, ownerId: caller.user.id, key, policy, signature: sign(ctx, policy), expiresAt });
    return reply.code(201).send({ media_id: id, media_type: 'video', upload_url: `${baseUrl(ctx, req)}${UPLOAD_PATH}`, upload_parameters: uploadParameters(rec, now) });
  });

  app.get('/v5/media', async (req, reply) => {
    const caller = authenticate(ctx, req, reply, ['pins:read']);
    if (!caller) return reply;
    const q = req.query as Record<string, string | undefined>;
    const size = pageSize(q.page_size);
    const list = `media:${caller.user.id}`;
    const offset = decodeBookmark(list, q.bookmark);
    if (size === null || offset === null) return sendError(reply, 400, 1, 'Invalid request: page_size or bookmark is not valid');
    const all = [...ctx.store.uploads.values()].filter((u) => u.ownerId === caller.user.id).sort((a, b) => b.createdAt - a.createdAt);
    const items = all.slice(offset, offset + size).map((u) => mediaJson(ctx, u));
    return { items, bookmark: offset + size < all.length ? encodeBookmark(list, offset + size) : null };
  });

  app.get('/v5/media/:media_id', async (req, reply) => {
    const caller = authenticate(ctx, req, reply, ['pins:read']);
    if (!caller) return reply;
    const rec = ctx.store.uploads.get((req.params as { media_id: string }).media_id);
    if (!rec || rec.ownerId !== caller.user.id) return sendError(reply, 404, 404, MESSAGES.uploadNotFound);
    return mediaJson(ctx, rec);
  });

  // The storage host behind upload_url: S3's POST Object, with S3's XML errors.
  app.post(UPLOAD_PATH, async (req, reply) => {
    if (req.headers.authorization) return s3(reply, 400, 'InvalidArgument', 'Only one auth mechanism allowed; only the X-Amz-Algorithm query parameter, Signature query string parameter or the Authorization header should be specified');
    if (!(req.body instanceof FormData)) return s3(reply, 412, 'PreconditionFailed', 'Bucket POST must be of the enclosure-type multipart/form-data');
    // S3 ignores every field after the file.
    const fields = new Map<string, unknown>();
    let file: File | undefined;
    for (const [name, value] of req.body.entries()) {
      if (name === 'file') {
        file = value as File;
        break;
      }
      fields.set(name, value);
    }
    for (const name of REQUIRED_FIELDS) {
      if (typeof fields.get(name) !== 'string') return s3(reply, 400, 'InvalidArgument', `Bucket POST must contain a field named '${name}'.  If it is specified, please check the order of the fields.`);
    }
    if (!file || typeof file === 'string') return s3(reply, 400, 'InvalidArgument', 'POST requires exactly one file upload per request.');
    const policy = fields.get('policy') as string;
    const rec = [...ctx.store.uploads.values()].find((u) => u.policy === policy);
    if (!rec || fields.get('x-amz-signature') !== sign(ctx, policy)) {
      return s3(reply, 403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided.');
    }
    if (ctx.now() > rec.expiresAt) return s3(reply, 403, 'AccessDenied', 'Invalid according to Policy: Policy expired.');
    if (fields.get('key') !== rec.key) return s3(reply, 403, 'AccessDenied', `Invalid according to Policy: Policy Condition failed: ["eq", "$key", "${rec.key}"]`);
    if (rec.received) return s3(reply, 403, 'AccessDenied', 'Invalid according to Policy: the object was already uploaded.');
    const bytes = Buffer.from(await file.arrayBuffer());
    if (bytes.length < 1) return s3(reply, 400, 'EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed size');
    if (bytes.length > MAX_VIDEO_BYTES) return s3(reply, 400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size');
    ctx.store.receiveUpload(rec, bytes);
    return reply.code(204).send();
  });
}
