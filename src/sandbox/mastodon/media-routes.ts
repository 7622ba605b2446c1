// Media attachments (platforms.md §11.6): POST /api/v2/media (multipart `file`, `description`, `focus`)
// answers 200 with a `url` for images and 202 with `url: null` for video and GIF, which are processed
// for `processingMs`; GET /api/v1/media/:id answers 206 while processing, 200 once done, 404 once the
// attachment belongs to a status. The type is read from the bytes; sizes and alt text are limited.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { LedgerEntry } from '../kit/ledger.ts';
import { sniffMediaType } from '../media.ts';
import { authorize, baseOf, domainOf, paramsOf, str, type Caller, type MastodonContext } from './context.ts';
import { TEXT, sendError } from './envelope.ts';
import { renderMedia, type View } from './serialize.ts';
import type { Media, MediaKind } from './state.ts';

const MEDIA_SCOPES = ['write', 'write:media'];

function detect(bytes: Buffer): { mime: string; kind: MediaKind } | null {
  if (bytes.length >= 4 && bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) return { mime: 'video/webm', kind: 'video' };
  const sniffed = sniffMediaType(bytes);
  if (!sniffed) return null;
  if (sniffed === 'video/mp4') return { mime: bytes.subarray(8, 12).toString('latin1') === 'qt  ' ? 'video/quicktime' : 'video/mp4', kind: 'video' };
  if (sniffed === 'image/gif') return { mime: sniffed, kind: 'gifv' };
  return { mime: sniffed, kind: 'image' };
}

const megabytes = (n: number) => `${Math.round(n / (1024 * 1024))} MB`;

export function mediaStatus(ctx: MastodonContext, m: Media): 'processing' | 'failed' | 'ready' {
  if (m.failed) return 'failed';
  return ctx.state.now() >= m.readyAt ? 'ready' : 'processing';
}

/** What the ledger keeps of an attachment. */
export function ledgerMedia(m: Media, url: string): LedgerEntry['media'][number] {
  return { type: m.kind, url };
}

export function registerMediaRoutes(app: FastifyInstance, ctx: MastodonContext): void {
  const view = (req: FastifyRequest, viewer: string): View => ({ ctx, base: baseOf(ctx, req), domain: domainOf(ctx, req), viewer });

  async function create(req: FastifyRequest, reply: FastifyReply, synchronous: boolean) {
    const caller = authorize(ctx, req, reply, MEDIA_SCOPES);
    if (!caller) return reply;
    const form = req.body instanceof FormData ? req.body : null;
    const file = form?.get('file');
    if (!file || typeof file === 'string') return sendError(reply, 422, "Validation failed: File can't be blank");
    const bytes = Buffer.from(await (file as Blob).arrayBuffer());
    const type = detect(bytes);
    if (!type) return sendError(reply, 422, 'Validation failed: File content type is invalid, File is invalid');
    const s = ctx.settings;
    const limit = type.kind === 'video' ? s.videoSizeLimit : s.imageSizeLimit;
    if (bytes.length > limit) return sendError(reply, 422, `Validation failed: File file size must be less than ${megabytes(limit)}`);
    const p = paramsOf(req);
    const description = str(p.description) ?? null;
    if (description !== null && description.length > s.descriptionLimit) {
      return sendError(reply, 422, `Validation failed: Description is too long (maximum is ${s.descriptionLimit} characters)`);
    }
    const focus = str(p.focus) ?? null;
    if (focus !== null && !/^-?(0(\.\d+)?|1(\.0+)?),-?(0(\.\d+)?|1(\.0+)?)$/.test(focus)) return sendError(reply, 422, 'Validation failed: Focus is invalid');
    const now = ctx.state.now();
    // Images are processed inline (since 4.0); video and GIF (→ gifv) afterwards. The v1 route waits.
    const later = type.kind !== 'image' && !synchronous;
    const m: Media = {
      id: ctx.state.nextId(now),
      accountId: caller.user!.id,
      kind: type.kind,
      mime: type.mime,
      bytes: bytes.length,
      description,
      focus,
      createdAt: now,
      readyAt: later ? now + s.processingMs : now,
      failed: later && s.failProcessing,
      statusId: null,
      scheduledId: null,
      deleted: false,
    };
    ctx.state.media.set(m.id, m);
    return reply.code(later ? 202 : 200).send(renderMedia(view(req, caller.user!.id), m));
  }

  app.post('/api/v2/media', (req, reply) => create(req, reply, false));
  app.post('/api/v1/media', (req, reply) => create(req, reply, true));

  /** An unattached attachment of the caller's, or null (404 answered). */
  function own(req: FastifyRequest, reply: FastifyReply, caller: Caller): Media | null {
    const m = ctx.state.media.get((req.params as { id: string }).id);
    if (!m || m.deleted || m.accountId !== caller.user!.id || m.statusId !== null || m.scheduledId !== null) {
      sendError(reply, 404, TEXT.recordNotFound);
      return null;
    }
    return m;
  }

  app.get('/api/v1/media/:id', async (req, reply) => {
    const caller = authorize(ctx, req, reply, MEDIA_SCOPES);
    if (!caller) return reply;
    const m = own(req, reply, caller);
    if (!m) return reply;
    const state = mediaStatus(ctx, m);
    if (state === 'failed') return sendError(reply, 422, TEXT.processingFailed);
    return reply.code(state === 'processing' ? 206 : 200).send(renderMedia(view(req, caller.user!.id), m));
  });

  app.put('/api/v1/media/:id', async (req, reply) => {
    const caller = authorize(ctx, req, reply, MEDIA_SCOPES);
    if (!caller) return reply;
    const m = own(req, reply, caller);
    if (!m) return reply;
    const p = paramsOf(req);
    const description = str(p.description);
    if (description !== undefined) {
      if (description.length > ctx.settings.descriptionLimit) {
        return sendError(reply, 422, `Validation failed: Description is too long (maximum is ${ctx.settings.descriptionLimit} characters)`);
      }
      m.description = description;
    }
    const focus = str(p.focus);
    if (focus !== undefined) m.focus = focus;
    return renderMedia(view(req, caller.user!.id), m);
  });

  app.delete('/api/v1/media/:id', async (req, reply) => {
    const caller = authorize(ctx, req, reply, MEDIA_SCOPES);
    if (!caller) return reply;
    const m = own(req, reply, caller);
    if (!m) return reply;
    m.deleted = true;
    return {};
  });
}
