// Applies Idempotency-Key to routes marked `idempotent`: after authentication and rate limiting, before
// validation (API.md section 4). Replays stored answers; stores the first completed one.
import type { FastifyInstance } from 'fastify';
import { sha256Hex } from '../lib/crypto.ts';
import { canonicalJson } from '../lib/json.ts';
import { errors } from '../contract/errors.ts';
import type { IdempotencyStore } from '../idempotency/idempotency-store.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** 401 and 429 never get here; 5xx answers are not stored so the request can be tried again. */
const storable = (status: number) => status < 500;

export function installIdempotency(app: FastifyInstance, store: IdempotencyStore): void {
  app.addHook('preValidation', async (req, reply) => {
    if (!req.routeOptions.config.idempotent) return;
    const header = req.headers['idempotency-key'];
    if (header === undefined) return;
    const key = Array.isArray(header) ? header[0] : header;
    if (!key || !UUID.test(key)) throw errors.invalid('Idempotency-Key', 'Idempotency-Key must be a UUID, e.g. 3f0b6a8e-2c1d-4e5f-9a7b-1c2d3e4f5a6b');
    const apiKeyId = req.caller!.id;
    const requestHash = sha256Hex(`${req.method} ${req.url}\n${canonicalJson(req.body ?? null)}`);
    const claim = await store.claim(apiKeyId, key.toLowerCase(), requestHash);
    switch (claim.kind) {
      case 'replay':
        return reply.code(claim.status).header('idempotent-replayed', 'true').type('application/json; charset=utf-8').send(claim.body);
      case 'mismatch':
        throw errors.idempotencyReused();
      case 'in_flight':
        throw errors.idempotencyInUse();
      case 'recovered':
        req.idempotency = { claim: { apiKeyId, key: key.toLowerCase(), claimId: claim.claimId }, recoveredResourceId: claim.resourceId };
        return;
      case 'claimed':
        req.idempotency = { claim: { apiKeyId, key: key.toLowerCase(), claimId: claim.claimId } };
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
