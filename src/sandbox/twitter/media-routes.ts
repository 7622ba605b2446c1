// Media upload: one-shot (multipart `media`, or JSON base64) for images, and the chunked v2
// endpoints initialize / {id}/append / {id}/finalize plus the STATUS poll. The command-style
// variant on /2/media/upload (command=INIT|APPEND|FINALIZE) is accepted too.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { field } from '../kit/body.ts';
import { sniffMediaType } from '../media.ts';
import {
  contentMismatch,
  declarationProblem,
  MAX_CHUNK_BYTES,
  MAX_IMAGE_BYTES,
  MAX_SEGMENT_INDEX,
  MAX_TOTAL_BYTES,
  MEDIA_CATEGORIES,
  MEDIA_KINDS,
  mediaKeyPrefix,
  processingInfo,
} from './media-model.ts';
import { authenticate, invalidRequest, withinRateLimit, type TwitterContext } from './replies.ts';
import { MEDIA_TTL_MS, type SandboxUser, type StoredMedia } from './state.ts';

type Result = { ok: true; body: Record<string, unknown> } | { ok: false; message: string; parameter: string; value: unknown };

const fail = (message: string, parameter: string, value: unknown): Result => ({ ok: false, message, parameter, value });

async function bytesOf(value: unknown): Promise<Uint8Array | undefined> {
  if (value instanceof Blob) return new Uint8Array(await value.arrayBuffer());
  if (typeof value === 'string' && value.length > 0) return new Uint8Array(Buffer.from(value, 'base64'));
  return undefined;
}

function ttlSecs(ctx: TwitterContext, m: StoredMedia): number {
  return Math.max(0, Math.floor((m.expiresAt - ctx.now()) / 1000));
}

function ownMedia(ctx: TwitterContext, user: SandboxUser, id: string | undefined): StoredMedia | undefined {
  const m = id ? ctx.state.media.get(id) : undefined;
  return m && m.ownerId === user.id && m.expiresAt > ctx.now() ? m : undefined;
}

function create(ctx: TwitterContext, user: SandboxUser, mediaType: string, totalBytes: number, category: string): StoredMedia {
  const id = ctx.state.nextId(ctx.now());
  const kind = MEDIA_KINDS[mediaType]!;
  const m: StoredMedia = {
    id,
    key: `${mediaKeyPrefix(kind, category)}${id}`,
    ownerId: user.id,
    mediaType,
    category,
    kind,
    totalBytes,
    chunks: new Map(),
    expiresAt: ctx.now() + MEDIA_TTL_MS,
  };
  ctx.state.media.set(id, m);
  return m;
}

function initialize(ctx: TwitterContext, user: SandboxUser, body: unknown): Result {
  const mediaType = field(body, 'media_type') ?? '';
  const totalBytes = Number(field(body, 'total_bytes'));
  const category = field(body, 'media_category');
  if (!MEDIA_KINDS[mediaType]) return fail(`media_type [${mediaType}] is not supported.`, 'media_type', mediaType);
  if (!Number.isInteger(totalBytes) || totalBytes <= 0 || totalBytes > MAX_TOTAL_BYTES) {
    return fail(`total_bytes must be between 1 and ${MAX_TOTAL_BYTES}.`, 'total_bytes', field(body, 'total_bytes'));
  }
  if (!category) return fail('media_category is required.', 'media_category', null);
  if (!MEDIA_CATEGORIES.has(category)) return fail(`media_category [${category}] is not supported.`, 'media_category', category);
  const problem = declarationProblem(MEDIA_KINDS[mediaType]!, category, totalBytes);
  if (problem) return fail(problem.message, problem.parameter, problem.parameter === 'total_bytes' ? totalBytes : category);
  const m = create(ctx, user, mediaType, totalBytes, category);
  return { ok: true, body: { data: { id: m.id, media_key: m.key, expires_after_secs: ttlSecs(ctx, m) } } };
}

async function append(ctx: TwitterContext, user: SandboxUser, id: string | undefined, body: unknown): Promise<Result> {
  const m = ownMedia(ctx, user, id);
  if (!m || m.finalizedAt !== undefined) return fail(`media_id [${id}] is not an upload in progress.`, 'media_id', id);
  const index = Number(field(body, 'segment_index'));
  if (!Number.isInteger(index) || index < 0 || index > MAX_SEGMENT_INDEX) {
    return fail(`segment_index must be between 0 and ${MAX_SEGMENT_INDEX}.`, 'segment_index', field(body, 'segment_index'));
  }
  const form = body instanceof FormData ? body : undefined;
  const chunk = await bytesOf(form ? (form.get('media') ?? form.get('media_data')) : (body as Record<string, unknown> | undefined)?.media);
  if (!chunk || chunk.byteLength === 0) return fail('media is required.', 'media', null);
  if (chunk.byteLength > MAX_CHUNK_BYTES) return fail(`A chunk may hold at most ${MAX_CHUNK_BYTES} bytes.`, 'media', chunk.byteLength);
  m.chunks.set(index, chunk);
  return { ok: true, body: { data: { expires_at: Math.floor(m.expiresAt / 1000) } } };
}

function finalize(ctx: TwitterContext, user: SandboxUser, id: string | undefined): Result {
  const m = ownMedia(ctx, user, id);
  if (!m || m.finalizedAt !== undefined) return fail(`media_id [${id}] is not an upload in progress.`, 'media_id', id);
  const parts: Uint8Array[] = [];
  for (let i = 0; i < m.chunks.size; i++) {
    const part = m.chunks.get(i);
    if (!part) return fail(`Segment ${i} is missing.`, 'segment_index', i);
    parts.push(part);
  }
  const bytes = Buffer.concat(parts);
  if (bytes.byteLength !== m.totalBytes) return fail(`File size mismatch: expected ${m.totalBytes} bytes, got ${bytes.byteLength}.`, 'total_bytes', m.totalBytes);
  m.invalidReason = contentMismatch(m.mediaType, bytes);
  m.size = bytes.byteLength;
  m.sha256 = createHash('sha256').update(bytes).digest('hex');
  m.chunks.clear();
  m.finalizedAt = ctx.now();
  const data: Record<string, unknown> = { id: m.id, media_key: m.key, size: m.size, expires_after_secs: ttlSecs(ctx, m) };
  const info = processingInfo(m, ctx.now(), ctx.processingMs);
  if (info) data.processing_info = info;
  else if (m.invalidReason) return fail('The media could not be processed: Invalid or Unsupported media.', 'media', m.mediaType);
  return { ok: true, body: { data } };
}

async function oneShot(ctx: TwitterContext, user: SandboxUser, body: unknown): Promise<Result> {
  const raw = body instanceof FormData ? (body.get('media') ?? body.get('media_data')) : (body as Record<string, unknown> | undefined)?.media;
  const bytes = await bytesOf(raw);
  if (!bytes || bytes.byteLength === 0) return fail('media is required.', 'media', null);
  const category = field(body, 'media_category');
  if (!category) return fail('media_category is required.', 'media_category', null);
  if (category !== 'tweet_image' && category !== 'dm_image') return fail('One-shot upload takes images only; use the chunked upload.', 'media_category', category);
  const sniffed = sniffMediaType(bytes);
  if (!sniffed || !sniffed.startsWith('image/')) return fail('Invalid or Unsupported media: not an image.', 'media', null);
  if (bytes.byteLength > MAX_IMAGE_BYTES) return fail(`Images may be at most ${MAX_IMAGE_BYTES} bytes.`, 'media', bytes.byteLength);
  const m = create(ctx, user, sniffed, bytes.byteLength, category);
  m.size = bytes.byteLength;
  m.sha256 = createHash('sha256').update(bytes).digest('hex');
  m.finalizedAt = ctx.now();
  return { ok: true, body: { data: { id: m.id, media_key: m.key, size: m.size, expires_after_secs: ttlSecs(ctx, m), image: { image_type: sniffed, w: 1, h: 1 } } } };
}

function answer(reply: FastifyReply, r: Result): FastifyReply | Record<string, unknown> {
  return r.ok ? r.body : invalidRequest(reply, r.message, { [r.parameter]: [r.value] });
}

export function registerMediaRoutes(app: FastifyInstance, ctx: TwitterContext): void {
  const user = (req: Parameters<typeof authenticate>[1], reply: FastifyReply, route: Parameters<typeof withinRateLimit>[3]) => {
    const u = authenticate(ctx, req, reply, ['media.write']);
    return u && withinRateLimit(ctx, reply, u, route) ? u : undefined;
  };

  app.post('/2/media/upload', async (req, reply) => {
    const u = user(req, reply, 'POST /2/media/upload');
    if (!u) return reply;
    const command = field(req.body, 'command')?.toUpperCase();
    if (command === 'INIT') return answer(reply, initialize(ctx, u, req.body));
    if (command === 'APPEND') return answer(reply, await append(ctx, u, field(req.body, 'media_id'), req.body));
    if (command === 'FINALIZE') return answer(reply, finalize(ctx, u, field(req.body, 'media_id')));
    return answer(reply, await oneShot(ctx, u, req.body));
  });

  app.get('/2/media/upload', async (req, reply) => {
    const u = user(req, reply, 'GET /2/media/upload');
    if (!u) return reply;
    const q = req.query as Record<string, string | undefined>;
    if (q.command?.toUpperCase() !== 'STATUS') return invalidRequest(reply, 'command must be STATUS.', { command: [q.command] });
    const m = ownMedia(ctx, u, q.media_id);
    if (!m || m.finalizedAt === undefined) return invalidRequest(reply, `media_id [${q.media_id}] is not a finalized upload.`, { media_id: [q.media_id] });
    const data: Record<string, unknown> = { id: m.id, media_key: m.key, size: m.size, expires_after_secs: ttlSecs(ctx, m) };
    const info = processingInfo(m, ctx.now(), ctx.processingMs);
    if (info) data.processing_info = info;
    return { data };
  });

  app.post('/2/media/upload/initialize', async (req, reply) => {
    const u = user(req, reply, 'POST /2/media/upload/initialize');
    return u ? answer(reply, initialize(ctx, u, req.body)) : reply;
  });

  app.post('/2/media/upload/:id/append', async (req, reply) => {
    const u = user(req, reply, 'POST /2/media/upload/:id/append');
    return u ? answer(reply, await append(ctx, u, (req.params as { id: string }).id, req.body)) : reply;
  });

  app.post('/2/media/upload/:id/finalize', async (req, reply) => {
    const u = user(req, reply, 'POST /2/media/upload/:id/finalize');
    return u ? answer(reply, finalize(ctx, u, (req.params as { id: string }).id)) : reply;
  });

  // Alt text (and X's other media metadata; only alt_text is kept): images and GIFs, at most 1,000 characters.
  app.post('/2/media/metadata', async (req, reply) => {
    const u = user(req, reply, 'POST /2/media/metadata');
    if (!u) return reply;
    const body = (req.body ?? {}) as { id?: unknown; metadata?: { alt_text?: { text?: unknown } } };
    const id = typeof body.id === 'string' ? body.id : undefined;
    const m = ownMedia(ctx, u, id);
    if (!m || m.finalizedAt === undefined) return invalidRequest(reply, `media_id [${id}] is not a finalized upload.`, { id: [id] });
    const text = body.metadata?.alt_text?.text;
    if (text !== undefined) {
      if (typeof text !== 'string' || [...text].length > 1000) return invalidRequest(reply, 'alt_text.text must be a string of at most 1000 characters.', { 'metadata.alt_text.text': [text] });
      if (m.kind === 'video') return invalidRequest(reply, 'Alt text is supported for images and GIFs only.', { id: [id] });
      m.altText = text;
    }
    return { data: { id: m.id, associated_metadata: text === undefined ? {} : { alt_text: { text } } } };
  });
}
