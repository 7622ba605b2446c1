// Applies Idempotency-Key (or Idempotency-Window) to routes marked `idempotent`: after authentication and
// rate limiting, before validation (API.md section 4). Replays stored answers; stores the first completed one.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sha256Hex } from '../lib/crypto.ts';
import { canonicalJson } from '../lib/json.ts';
import { errors } from '../contract/errors.ts';
import { IDEMPOTENCY_TTL_MS, type Claim, type IdempotencyStore } from '../idempotency/idempotency-store.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** 401 and 429 never get here; 5xx answers are not stored so the request can be tried again. */
const storable = (status: number) => status < 500;

/** The longest Idempotency-Window: as long as a stored answer is kept. */
export const MAX_WINDOW_SECONDS = IDEMPOTENCY_TTL_MS / 1000;

const one = (header: string | string[] | undefined) => (Array.isArray(header) ? header[0] : header);

/**
 * The key a request claims: its Idempotency-Key, or, with Idempotency-Window instead, a key made from the
 * request itself (method, path, canonical body), so that a repeat of the same request by the same API key
 * within the window is answered with the first answer. The window runs from the first request: there is
 * no boundary that a repeat a moment later could fall across. Null: neither header, nothing to do.
 */
function keyOf(req: FastifyRequest, requestHash: () => string): { key: string; ttlMs?: number } | null {
  const header = one(req.headers['idempotency-key']);
  const window = one(req.headers['idempotency-window']);
  if (header !== undefined && window !== undefined) {
    throw errors.invalid('Idempotency-Window', 'send Idempotency-Key or Idempotency-Window, not both');
  }
  if (window !== undefined) {
    const seconds = /^\d{1,6}$/.test(window.trim()) ? Number(window.trim()) : NaN;
    if (!(seconds >= 1 && seconds <= MAX_WINDOW_SECONDS)) {
      throw errors.invalid('Idempotency-Window', `Idempotency-Window must be a whole number of seconds from 1 to ${MAX_WINDOW_SECONDS}`);
    }
    return { key: `window:${requestHash()}`, ttlMs: seconds * 1000 };
  }
  if (header === undefined) return null;
  if (!header || !UUID.test(header)) throw errors.invalid('Idempotency-Key', 'Idempotency-Key must be a UUID, e.g. 3f0b6a8e-2c1d-4e5f-9a7b-1c2d3e4f5a6b');
  return { key: header.toLowerCase() };
}

export function installIdempotency(app: FastifyInstance, store: IdempotencyStore): void {
  app.addHook('preValidation', async (req, reply) => {
    const pending = req.pendingKey;
    if (!req.routeOptions.config.idempotent) {
      await pending?.check();
      return;
    }
    const hash = () => sha256Hex(`${req.method} ${req.url}\n${canonicalJson(req.body ?? null)}`);
    let chosen: ReturnType<typeof keyOf>;
    try {
      chosen = keyOf(req, hash);
    } catch (err) {
      await pending?.check(); // 401 and 429 before the header's 400
      throw err;
    }
    if (!chosen) {
      await pending?.check();
      return;
    }
    const { key, ttlMs } = chosen;
    const requestHash = hash();
    const alongsideOf = req.routeOptions.config.alongsideClaim;
    let claim: Claim;
    const inside = pending && store.claimInside?.(key, requestHash, ttlMs);
    if (pending && inside) {
      // PostgreSQL, key not checked yet: the claim is written by the statement that checks the key and
      // counts its limit, only if both pass; the reads the route wants go with it on one connection.
      const alongside = pending.knownId === undefined ? undefined : alongsideOf?.(req, pending.knownId);
      const inserted = await pending.check({ name: 'herald_caller_limited_claim', text: inside.text }, (statement) => inside.send(statement, alongside));
      claim = await inside.settle(req.caller!.id, inserted);
    } else {
      await pending?.check();
      const apiKeyId = req.caller!.id;
      claim = await store.claim(apiKeyId, key, requestHash, ttlMs, alongsideOf?.(req, apiKeyId));
    }
    const apiKeyId = req.caller!.id;
    switch (claim.kind) {
      case 'replay':
        return reply.code(claim.status).header('idempotent-replayed', 'true').type('application/json; charset=utf-8').send(claim.body);
      case 'mismatch':
        throw errors.idempotencyReused();
      case 'in_flight':
        throw errors.idempotencyInUse();
      case 'recovered':
        req.idempotency = { claim: { apiKeyId, key, claimId: claim.claimId }, recoveredResourceId: claim.resourceId };
        return;
      case 'claimed':
        req.idempotency = { claim: { apiKeyId, key, claimId: claim.claimId } };
        return;
    }
  });

  app.addHook('onSend', async (req, reply, payload) => {
    const ctx = req.idempotency;
    if (!ctx || reply.getHeader('idempotent-replayed')) return payload;
    req.idempotency = null;
    // Stored with what it created, in the same transaction (see IdempotencyStore.attachAnswer).
    if (ctx.claim.answered) {
      store.forget(ctx.claim);
      return payload;
    }
    if (storable(reply.statusCode) && typeof payload === 'string') {
      await store.complete(ctx.claim, reply.statusCode, payload);
    } else {
      await store.release(ctx.claim);
    }
    return payload;
  });
}
