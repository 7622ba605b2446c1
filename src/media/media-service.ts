// The media library's use cases (API.md section 10): upload and import (streamed, recognised from the bytes,
// probed, counted against the key's quota), list, get, alt text, delete (refused while an open post uses
// the file), and retention. Routes hand it bytes and ids; it answers with media objects or ApiErrors.
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Logger } from 'pino';
import { errors } from '../contract/errors.ts';
import { exclusive, type DialectName } from '../db/dialect.ts';
import type { MediaRow } from '../db/schema.ts';
import type { Writer } from '../db/writer.ts';
import type { ClaimRef, IdempotencyStore } from '../idempotency/idempotency-store.ts';
import type { Clock } from '../lib/clock.ts';
import { sha256Hex } from '../lib/crypto.ts';
import { newId } from '../lib/ids.ts';
import type { OutboundStream } from '../net/outbound.ts';
import { decodeCursor, encodeCursor } from '../contract/cursor.ts';
import { mediaErrors } from './errors.ts';
import type { MediaFacts } from './facts.ts';
import { ingest } from './ingest.ts';
import type { MediaDal } from './media-dal.ts';
import { presentMedia, publicFilename } from './present.ts';
import type { Prober } from './probe.ts';
import type { MediaOut } from './schemas.ts';
import type { MediaStore } from './store.ts';

const DAY_MS = 24 * 60 * 60_000;

export interface MediaServiceDeps {
  write: Writer['write'];
  dialect: DialectName;
  clock: Clock;
  log: Logger;
  dal: MediaDal;
  store: MediaStore;
  prober: Prober;
  idempotency: IdempotencyStore;
  /** HERALD_PUBLIC_URL (or where Herald listens), read when a URL is made. */
  publicBase(): string;
  /** Opens a user-named URL through the outbound guard (imports). */
  openUrl(url: string): Promise<OutboundStream>;
  maxBytes: number;
  quotaBytes: number;
  retentionDays: number;
  importTimeoutMs: number;
}

export interface UploadInput {
  body: Readable;
  filename?: string;
  altText?: string | null;
  /** A UUID (already checked), with the request line it came with: see upload(). */
  idempotency?: { key: string; request: string };
}

export type Answer = { status: number; body: MediaOut; replayed?: false } | { status: number; raw: string; replayed: true };

/** The probe's facts as the media object's columns (null where they do not apply). */
function factColumns(f: MediaFacts) {
  return {
    width: f.kind === 'document' ? null : f.width,
    height: f.kind === 'document' ? null : f.height,
    duration_ms: f.kind === 'video' ? f.durationMs : null,
    frame_rate: f.kind === 'video' ? f.frameRate : null,
    video_codec: f.kind === 'video' ? f.videoCodec : null,
    audio_codec: f.kind === 'video' ? f.audioCodec : null,
    pages: f.kind === 'document' ? f.pages : null,
  };
}

function filenameFromUrl(url: string): string | undefined {
  try {
    const last = new URL(url).pathname.split('/').filter(Boolean).pop();
    return last ? decodeURIComponent(last) : undefined;
  } catch {
    return undefined;
  }
}

export function createMediaService(deps: MediaServiceDeps) {
  const { write, clock, log, dal, store, prober, idempotency } = deps;

  const present = (m: MediaRow) => presentMedia(m, deps.publicBase());

  async function deleteFiles(m: Pick<MediaRow, 'id' | 'store_key'>, renditionKeys: string[]): Promise<void> {
    for (const key of [m.store_key, ...renditionKeys]) {
      const r = await store.delete(key);
      if (!r.ok) log.warn({ mediaId: m.id, key, reason: r.message }, 'a deleted media file could not be removed from the store; it is unreachable (its row is gone)');
    }
  }

  /** Everything after the bytes are stored and probed: quota, the row, the idempotency answer, in one transaction. */
  async function commit(apiKeyId: string, id: string, key: string, filename: string | undefined, altText: string | null, ingested: Extract<Awaited<ReturnType<typeof ingest>>, { ok: true }>, claim?: ClaimRef): Promise<MediaOut> {
    const now = clock.now();
    const { facts } = ingested;
    const row = {
      id,
      api_key_id: apiKeyId,
      type: facts.kind,
      content_type: facts.contentType,
      bytes: ingested.bytes,
      sha256: ingested.sha256,
      ...factColumns(facts),
      facts: JSON.stringify(facts),
      alt_text: altText,
      filename: publicFilename(filename, id, facts.contentType),
      token: randomBytes(24).toString('base64url'),
      store_key: key,
      stored_bytes: ingested.bytes,
      created_at: now,
      last_used_at: now,
    } satisfies MediaRow;
    const answer = presentMedia(row, deps.publicBase());
    try {
      await write(async (trx) => {
        // One key's uploads are counted one at a time, across processes, so two cannot both squeeze in.
        await exclusive(deps.dialect, trx, `herald:media-quota:${apiKeyId}`);
        const used = await dal.usedBytes(trx, apiKeyId);
        if (used + ingested.bytes > deps.quotaBytes) throw mediaErrors.quotaExceeded(deps.quotaBytes, used, ingested.bytes);
        await dal.insert(trx, row);
        if (claim) await idempotency.attachAnswer(trx, claim, id, 201, JSON.stringify(answer));
      });
    } catch (err) {
      await store.delete(key);
      throw err;
    }
    if (claim) claim.answered = true;
    return answer;
  }

  async function preflight(apiKeyId: string): Promise<void> {
    // A quick look on the read side; the count that decides is taken again in the inserting transaction.
    const used = await dal.usedBytes(undefined, apiKeyId);
    if (used >= deps.quotaBytes) throw mediaErrors.quotaExceeded(deps.quotaBytes, used, null);
  }

  return {
    present,

    /**
     * POST /v1/media. The body streams to the store before anything else is decided, so an
     * Idempotency-Key is claimed once the bytes are in, for the request line and the file's SHA-256: a
     * replay (the same file sent again under the same key) answers the first media object and keeps
     * nothing of its own copy; another file under the same key is 422, as for any reused key.
     */
    async upload(apiKeyId: string, input: UploadInput): Promise<Answer> {
      await preflight(apiKeyId);
      const id = newId('med', clock.now());
      const key = `${id}/original`;
      const ingested = await ingest({ store, prober }, key, input.body, deps.maxBytes);
      if (!ingested.ok) {
        if (ingested.aborted) throw errors.invalid(undefined, ingested.message);
        throw ingested.error;
      }
      let claim: ClaimRef | undefined;
      if (input.idempotency) {
        const { key: idemKey, request } = input.idempotency;
        // The file is in the store and no row names it yet: if the claim fails (the database does), it goes.
        const c = await idempotency.claim(apiKeyId, idemKey, sha256Hex(`${request}\n${ingested.sha256}`)).catch(async (err: unknown) => {
          await store.delete(key).catch(() => {});
          throw err;
        });
        if (c.kind !== 'claimed') await store.delete(key);
        if (c.kind === 'replay') return { status: c.status, raw: c.body, replayed: true };
        if (c.kind === 'mismatch') throw errors.idempotencyReused();
        if (c.kind === 'in_flight') throw errors.idempotencyInUse();
        if (c.kind === 'recovered') {
          const m = await dal.get(apiKeyId, c.resourceId);
          if (!m) throw errors.notFound(`media ${c.resourceId} was deleted`);
          return { status: 201, body: present(m) };
        }
        claim = { apiKeyId, key: idemKey, claimId: c.claimId };
      }
      try {
        const body = await commit(apiKeyId, id, key, input.filename, input.altText ?? null, ingested, claim);
        // The answer was stored with the media item: the claim needs no more renewing.
        if (claim) idempotency.forget(claim);
        return { status: 201, body };
      } catch (err) {
        if (claim && !claim.answered) await idempotency.release(claim).catch(() => {});
        throw err;
      }
    },

    /** POST /v1/media/import: the URL's answer streams through the same steps as an upload. */
    async importUrl(apiKeyId: string, body: { url: string; altText?: string }, claim?: ClaimRef): Promise<MediaOut> {
      await preflight(apiKeyId);
      const res = await deps.openUrl(body.url);
      if (!res.ok) {
        if (res.reason === 'blocked' || res.reason === 'invalid_url') throw errors.invalid('url', `${body.url} cannot be fetched: ${res.message}`);
        throw mediaErrors.fetchFailed(`${body.url} could not be fetched: ${res.message}`);
      }
      const cancel = () => void res.body?.cancel().catch(() => {});
      if (res.status >= 300) {
        cancel();
        throw mediaErrors.fetchFailed(`${body.url} answered HTTP ${res.status}${res.status < 400 ? ' (a redirect too many)' : ''}`);
      }
      const declared = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      if (declared === 'text/html' || declared === 'application/xhtml+xml') {
        cancel();
        throw mediaErrors.unsupported(`${body.url} is a web page (${declared}), not a media file`);
      }
      const id = newId('med', clock.now());
      const key = `${id}/original`;
      const source = res.body ? Readable.fromWeb(res.body as never) : Readable.from([]);
      const ingested = await ingest({ store, prober }, key, source, deps.maxBytes);
      if (!ingested.ok) {
        if (ingested.aborted) throw mediaErrors.fetchFailed(`${body.url} stopped before the file ended, or took longer than ${deps.importTimeoutMs} ms`);
        throw ingested.error;
      }
      return commit(apiKeyId, id, key, filenameFromUrl(res.url), body.altText ?? null, ingested, claim);
    },

    async get(apiKeyId: string, id: string): Promise<MediaOut> {
      const m = await dal.get(apiKeyId, id);
      if (!m) throw errors.notFound(`no media ${id}`);
      return present(m);
    },

    async list(apiKeyId: string, query: { limit?: number; cursor?: string }) {
      const limit = query.limit ?? 20;
      const after = query.cursor === undefined ? null : decodeCursor(query.cursor);
      if (query.cursor !== undefined && !after) throw errors.invalid('cursor', 'cursor is not one this API returned; pass back the cursor of the previous page');
      const { items, hasMore } = await dal.list(apiKeyId, after, limit);
      const last = items.at(-1);
      return {
        media: items.map(present),
        cursor: hasMore && last ? encodeCursor({ createdAt: Number(last.created_at), id: last.id }) : null,
        hasMore,
      };
    },

    async setAltText(apiKeyId: string, id: string, altText: string | null): Promise<MediaOut> {
      const changed = await write((trx) => dal.setAltText(trx, apiKeyId, id, altText));
      if (!changed) throw errors.notFound(`no media ${id}`);
      return this.get(apiKeyId, id);
    },

    /** DELETE /v1/media/{id}: the row first (so the URL answers 404 at once), then the files. */
    async remove(apiKeyId: string, id: string): Promise<{ id: string; deleted: true }> {
      const gone = await write(async (trx) => {
        const m = await dal.get(apiKeyId, id, trx);
        if (!m) throw errors.notFound(`no media ${id}`);
        // Creates and edits writing uses now finish first (PostgreSQL; SQLite serializes writes anyway).
        await dal.lockUses(trx);
        if ((await dal.inUse(trx, [id])).has(id)) throw mediaErrors.inUse(id);
        const renditions = await dal.renditionsOf(id, trx);
        await dal.delete(trx, id);
        return { m, renditionKeys: renditions.map((r) => r.store_key) };
      });
      dal.forget(id);
      await deleteFiles(gone.m, gone.renditionKeys);
      return { id, deleted: true };
    },

    /** Retention (hourly, on workers): media no post has used for HERALD_MEDIA_RETENTION_DAYS, with its renditions. */
    async purgeUnused(): Promise<number> {
      const cutoff = clock.now() - deps.retentionDays * DAY_MS;
      let removed = 0;
      for (;;) {
        const batch = await dal.unusedSince(cutoff, 100);
        if (batch.length === 0) return removed;
        let progressed = false;
        for (const candidate of batch) {
          const gone = await write(async (trx) => {
            // Checked again in the transaction, after the writes of uses in flight: used, or taken by a
            // post, since it was listed, it stays.
            await dal.lockUses(trx);
            if (!(await dal.stillUnused(trx, candidate.id, cutoff))) return null;
            const renditions = await dal.renditionsOf(candidate.id, trx);
            await dal.delete(trx, candidate.id);
            return { m: candidate, renditionKeys: renditions.map((r) => r.store_key) };
          });
          if (!gone) continue;
          dal.forget(candidate.id);
          progressed = true;
          removed++;
          await deleteFiles(gone.m, gone.renditionKeys);
        }
        if (!progressed || batch.length < 100) return removed;
      }
    },
  };
}

export type MediaService = ReturnType<typeof createMediaService>;
