// Statuses (platforms.md §11.7–11.8): create with the server's rules and order of checks (the post
// replied to, the Idempotency-Key — per account, an hour, a lock that answers 503 to a concurrent
// duplicate, 404 once its status is deleted — then media, visibility, text, length, the statuses cap),
// scheduled statuses, edits that take every field as sent (media, content warning and sensitivity left
// out are cleared) with their history, deletes, reads of one status, its source and its replies. The
// ledger records every status made, edited and deleted, with its media's sizes and alt text.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { IDEMPOTENCY_TTL_MS, VISIBILITIES } from '../../platforms/mastodon/info.ts';
import { statusLength } from '../../platforms/mastodon/text.ts';
import { authorize, authorizeIfToken, baseOf, bool, domainOf, paramsOf, str, type Caller, type MastodonContext } from './context.ts';
import { TEXT, sendError } from './envelope.ts';
import { ledgerMedia, mediaStatus } from './media-routes.ts';
import { renderMedia, renderStatus, statusUrl, type View } from './serialize.ts';
import type { Media, Status } from './state.ts';
import { statusesFamily, type Counters } from './throttle.ts';

const WRITE = ['write', 'write:statuses'];
const READ = ['read', 'read:statuses'];
const MIN_SCHEDULE_MS = 5 * 60_000;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** `media_ids` as Rails permits it (`media_ids: []`): an array; a scalar is dropped. */
function mediaIdsParam(v: unknown): string[] | undefined {
  if (!Array.isArray(v)) return undefined;
  return v.map((x) => str(x)).filter((x): x is string => x !== undefined && x !== '');
}

type Check = { ok: true; media: Media[] } | { ok: false; status: number; error: string };

export function registerStatusRoutes(app: FastifyInstance, ctx: MastodonContext, counters: Counters): void {
  const { state, settings } = ctx;
  const view = (req: FastifyRequest, viewer: string | null): View => ({ ctx, base: baseOf(ctx, req), domain: domainOf(ctx, req), viewer });

  /** PostStatusService#validate_media! (and UpdateStatusService's, which also accepts the status's own). */
  function checkMedia(caller: Caller, ids: string[] | undefined, hasPoll: boolean, ownStatus: string | null): Check {
    if (!ids || ids.length === 0) return { ok: true, media: [] };
    const max = settings.maxMediaAttachments;
    if (ids.length > max || hasPoll) return { ok: false, status: 422, error: TEXT.tooManyFiles(max) };
    const media = ids.map((id) => state.media.get(id));
    const missing = ids.filter((id, i) => {
      const m = media[i];
      return !m || m.deleted || m.accountId !== caller.user!.id || m.scheduledId !== null || (m.statusId !== null && m.statusId !== ownStatus);
    });
    if (missing.length > 0) return { ok: false, status: 422, error: TEXT.mediaNotFound(missing) };
    const found = media as Media[];
    if (found.length > 1 && found.some((m) => m.kind === 'video')) return { ok: false, status: 422, error: TEXT.imagesAndVideo };
    if (found.some((m) => mediaStatus(ctx, m) !== 'ready')) return { ok: false, status: 422, error: TEXT.notReady };
    return { ok: true, media: found };
  }

  function checkText(text: string, spoiler: string, hasMedia: boolean): { status: number; error: string } | null {
    if (!text.trim() && !hasMedia) return { status: 422, error: TEXT.textBlank };
    if (statusLength(text, spoiler, settings.charactersReservedPerUrl) > settings.maxCharacters) return { status: 422, error: TEXT.tooLong(settings.maxCharacters) };
    return null;
  }

  function ledgerAccount(req: FastifyRequest, accountId: string): string {
    return `${accountId}@${domainOf(ctx, req)}`;
  }

  function record(req: FastifyRequest, s: Status, key: string | undefined): void {
    const v = view(req, s.accountId);
    const media = s.mediaIds.map((id) => state.media.get(id)!);
    ctx.ledger.record({
      id: s.id,
      accountId: ledgerAccount(req, s.accountId),
      kind: s.inReplyToId ? 'reply' : 'post',
      text: s.text,
      media: media.map((m) => ledgerMedia(m, String(renderMedia(v, m).url))),
      createdAt: s.createdAt,
      extra: {
        url: statusUrl(v, s, state.users.get(s.accountId)!),
        visibility: s.visibility,
        spoilerText: s.spoilerText,
        sensitive: s.sensitive,
        language: s.language,
        inReplyToId: s.inReplyToId,
        idempotencyKey: key ?? null,
        mediaBytes: media.map((m) => m.bytes),
        altTexts: media.map((m) => m.description),
      },
    });
  }

  /** A status the caller may see, or null. */
  function visible(id: string, viewer: string | null): Status | null {
    const s = state.statuses.get(id);
    return s && state.visibleTo(s, viewer) ? s : null;
  }

  app.post('/api/v1/statuses', async (req, reply) => {
    const caller = authorize(ctx, req, reply, WRITE);
    if (!caller) return reply;
    const user = caller.user!;
    const p = paramsOf(req);

    // The post replied to is looked up before anything else.
    const inReplyTo = str(p.in_reply_to_id) || undefined;
    const thread = inReplyTo ? visible(inReplyTo, user.id) : null;
    if (inReplyTo && !thread) return sendError(reply, 404, TEXT.replyNotFound);

    const key = typeof req.headers['idempotency-key'] === 'string' && req.headers['idempotency-key'] ? req.headers['idempotency-key'] : undefined;
    const slot = key ? `${user.id}:${key}` : undefined;
    if (slot) {
      if (state.locks.has(slot)) return sendError(reply, 503, TEXT.temporaryProblem);
      const earlier = state.idempotency.get(slot);
      if (earlier && earlier.expiresAt > state.now()) {
        // A replay answers with the first status, whatever this request says.
        const s = state.statuses.get(earlier.statusId);
        if (!s || s.deleted) return sendError(reply, 404, TEXT.recordNotFound);
        return renderStatus(view(req, user.id), s);
      }
      state.locks.add(slot);
    }
    try {
      if (settings.createDelayMs > 0) await sleep(settings.createDelayMs);
      const text = str(p.status) ?? '';
      const spoiler = str(p.spoiler_text) ?? '';
      const hasPoll = p.poll !== undefined && p.poll !== null && p.poll !== '';
      const media = checkMedia(caller, mediaIdsParam(p.media_ids), hasPoll, null);
      if (!media.ok) return sendError(reply, media.status, media.error);
      const visibility = str(p.visibility) || 'public';
      if (!(VISIBILITIES as readonly string[]).includes(visibility)) return sendError(reply, 422, 'Validation failed: Visibility is not included in the list');
      const refused = checkText(text, spoiler, media.media.length > 0 || hasPoll);
      if (refused) return sendError(reply, refused.status, refused.error);
      const language = /^[a-z]{2,3}$/.test(str(p.language) ?? '') ? str(p.language)! : 'en';
      const sensitive = (bool(p.sensitive) ?? false) || spoiler.length > 0;

      const scheduledRaw = str(p.scheduled_at);
      const scheduledAt = scheduledRaw ? Date.parse(scheduledRaw) : NaN;
      if (scheduledRaw && !Number.isFinite(scheduledAt)) return sendError(reply, 422, 'Invalid date');
      if (Number.isFinite(scheduledAt) && scheduledAt > state.now()) {
        if (scheduledAt < state.now() + MIN_SCHEDULE_MS) return sendError(reply, 422, 'Validation failed: Scheduled at The scheduled date must be in the future');
        const id = state.nextId();
        state.scheduled.set(id, { id, accountId: user.id, scheduledAt, params: { text, spoiler_text: spoiler, visibility, in_reply_to_id: inReplyTo ?? null }, mediaIds: media.media.map((m) => m.id) });
        for (const m of media.media) m.scheduledId = id;
        const v = view(req, user.id);
        return {
          id,
          scheduled_at: new Date(scheduledAt).toISOString(),
          params: { text, poll: null, media_ids: media.media.map((m) => m.id), sensitive, spoiler_text: spoiler, visibility, scheduled_at: null, in_reply_to_id: inReplyTo ?? null, language, application_id: null, idempotency: null, with_rate_limit: false },
          media_attachments: media.media.map((m) => renderMedia(v, m)),
        };
      }

      if (statusesFamily(ctx, counters, reply, user.id, true).throttled) return reply;
      const now = state.now();
      const s: Status = {
        id: state.nextId(now),
        accountId: user.id,
        text,
        spoilerText: spoiler,
        sensitive,
        visibility,
        language,
        inReplyToId: thread?.id ?? null,
        inReplyToAccountId: thread?.accountId ?? null,
        mediaIds: media.media.map((m) => m.id),
        createdAt: now,
        editedAt: null,
        edits: [],
        deleted: false,
        appClientId: caller.clientId || null,
      };
      state.statuses.set(s.id, s);
      for (const m of media.media) m.statusId = s.id;
      if (slot) state.idempotency.set(slot, { statusId: s.id, expiresAt: now + IDEMPOTENCY_TTL_MS });
      record(req, s, key);
      return renderStatus(view(req, user.id), s);
    } finally {
      if (slot) state.locks.delete(slot);
    }
  });

  app.put('/api/v1/statuses/:id', async (req, reply) => {
    const caller = authorize(ctx, req, reply, WRITE);
    if (!caller) return reply;
    const user = caller.user!;
    const s = state.statuses.get((req.params as { id: string }).id);
    if (!s || s.deleted || s.accountId !== user.id) return sendError(reply, 404, TEXT.recordNotFound);
    const p = paramsOf(req);
    // The controller passes every field, present or not: what is left out is cleared (UpdateStatusService).
    const spoilerGiven = str(p.spoiler_text);
    let text = str(p.status) ?? '';
    let spoiler = spoilerGiven ?? '';
    if (!text.trim()) {
      text = spoilerGiven ?? '';
      spoiler = s.spoilerText;
    }
    const hasPoll = p.poll !== undefined && p.poll !== null && p.poll !== '';
    const media = checkMedia(caller, mediaIdsParam(p.media_ids), hasPoll, s.id);
    if (!media.ok) return sendError(reply, media.status, media.error);
    const refused = checkText(text, spoiler, media.media.length > 0 || hasPoll);
    if (refused) return sendError(reply, refused.status, refused.error);
    const sensitive = (bool(p.sensitive) ?? false) || spoiler.length > 0;
    const language = /^[a-z]{2,3}$/.test(str(p.language) ?? '') ? str(p.language)! : s.language;
    const mediaIds = media.media.map((m) => m.id);
    const changed = text !== s.text || spoiler !== s.spoilerText || sensitive !== s.sensitive || language !== s.language || mediaIds.join(',') !== s.mediaIds.join(',');
    statusesFamily(ctx, counters, reply, user.id, false);
    // No change: no edit is recorded.
    if (!changed) return renderStatus(view(req, user.id), s);
    const now = state.now();
    if (s.edits.length === 0) s.edits.push({ at: s.createdAt, text: s.text, spoilerText: s.spoilerText, sensitive: s.sensitive, mediaIds: s.mediaIds });
    const previousText = s.text;
    for (const id of s.mediaIds) if (!mediaIds.includes(id)) state.media.get(id)!.statusId = null;
    for (const m of media.media) m.statusId = s.id;
    Object.assign(s, { text, spoilerText: spoiler, sensitive, language, mediaIds, editedAt: now });
    s.edits.push({ at: now, text, spoilerText: spoiler, sensitive, mediaIds });
    ctx.ledger.record({
      id: s.id,
      accountId: ledgerAccount(req, s.accountId),
      kind: 'edit',
      text,
      media: media.media.map((m) => ledgerMedia(m, String(renderMedia(view(req, user.id), m).url))),
      createdAt: now,
      extra: { previousText, spoilerText: spoiler, sensitive, mediaIds },
    });
    return renderStatus(view(req, user.id), s);
  });

  app.delete('/api/v1/statuses/:id', async (req, reply) => {
    const caller = authorize(ctx, req, reply, WRITE);
    if (!caller) return reply;
    const user = caller.user!;
    const s = state.statuses.get((req.params as { id: string }).id);
    if (!s || s.deleted || s.accountId !== user.id) return sendError(reply, 404, TEXT.recordNotFound);
    const body = { ...renderStatus(view(req, user.id), s), text: s.text };
    s.deleted = true;
    // Attachments become reusable (for a redraft) unless asked to go with the status (4.4).
    const dropMedia = bool(paramsOf(req).delete_media) === true;
    for (const id of s.mediaIds) {
      const m = state.media.get(id)!;
      m.statusId = null;
      if (dropMedia) m.deleted = true;
    }
    ctx.ledger.record({ id: s.id, accountId: ledgerAccount(req, s.accountId), kind: 'delete', text: s.text, media: [], createdAt: state.now(), extra: { deleteMedia: dropMedia } });
    return body;
  });

  app.get('/api/v1/statuses/:id', async (req, reply) => {
    const auth = authorizeIfToken(ctx, req, reply, READ);
    if (!auth) return reply;
    const viewer = auth.viewer?.id ?? null;
    const s = visible((req.params as { id: string }).id, viewer);
    if (!s) return sendError(reply, 404, TEXT.recordNotFound);
    return renderStatus(view(req, viewer), s);
  });

  app.get('/api/v1/statuses/:id/source', async (req, reply) => {
    const caller = authorize(ctx, req, reply, READ);
    if (!caller) return reply;
    const s = state.statuses.get((req.params as { id: string }).id);
    if (!s || s.deleted || s.accountId !== caller.user!.id) return sendError(reply, 404, TEXT.recordNotFound);
    return { id: s.id, text: s.text, spoiler_text: s.spoilerText };
  });

  app.get('/api/v1/statuses/:id/context', async (req, reply) => {
    const auth = authorizeIfToken(ctx, req, reply, READ);
    if (!auth) return reply;
    const viewer = auth.viewer?.id ?? null;
    const s = visible((req.params as { id: string }).id, viewer);
    if (!s) return sendError(reply, 404, TEXT.recordNotFound);
    const v = view(req, viewer);
    const ancestors: Status[] = [];
    for (let at = s.inReplyToId ? state.statuses.get(s.inReplyToId) : undefined; at; at = at.inReplyToId ? state.statuses.get(at.inReplyToId) : undefined) {
      if (state.visibleTo(at, viewer)) ancestors.unshift(at);
    }
    const descendants: Status[] = [];
    const walk = (id: string) => {
      const children = [...state.statuses.values()].filter((c) => c.inReplyToId === id && state.visibleTo(c, viewer)).sort((a, b) => (BigInt(a.id) > BigInt(b.id) ? 1 : -1));
      for (const c of children) {
        descendants.push(c);
        walk(c.id);
      }
    };
    walk(s.id);
    return { ancestors: ancestors.map((a) => renderStatus(v, a)), descendants: descendants.map((d) => renderStatus(v, d)) };
  });

  app.get('/api/v1/statuses/:id/history', async (req, reply) => {
    const auth = authorizeIfToken(ctx, req, reply, READ);
    if (!auth) return reply;
    const viewer = auth.viewer?.id ?? null;
    const s = visible((req.params as { id: string }).id, viewer);
    if (!s) return sendError(reply, 404, TEXT.recordNotFound);
    const v = view(req, viewer);
    const account = renderStatus(v, s).account;
    const versions = s.edits.length > 0 ? s.edits : [{ at: s.createdAt, text: s.text, spoilerText: s.spoilerText, sensitive: s.sensitive, mediaIds: s.mediaIds }];
    return versions.map((e) => ({
      content: renderStatus(v, { ...s, text: e.text }).content,
      spoiler_text: e.spoilerText,
      sensitive: e.sensitive,
      created_at: new Date(e.at).toISOString(),
      account,
      poll: null,
      media_attachments: e.mediaIds.map((id) => state.media.get(id)).filter((m): m is Media => m !== undefined).map((m) => renderMedia(v, m)),
      emojis: [],
    }));
  });
}
