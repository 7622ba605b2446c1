// Authentication and rate limiting for every /v1 route, in API.md's order: key first, then the key's
// rate limit. Bad keys are limited per client address so keys cannot be guessed at speed.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { KeysService } from '../keys/keys-service.ts';
import { errors } from '../contract/errors.ts';
import type { RateDecision, RateLimiter } from './rate-limit.ts';

export interface AuthDeps {
  keys: Pick<KeysService, 'authenticate'>;
  keyLimiter: RateLimiter;
  badKeyLimiter: RateLimiter;
}

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

function setRateHeaders(reply: FastifyReply, d: RateDecision): void {
  reply.header('x-ratelimit-limit', d.limit);
  reply.header('x-ratelimit-remaining', Math.max(0, d.remaining));
  reply.header('x-ratelimit-reset', Math.ceil(d.resetAt / 1000));
}

const secondsUntil = (at: number) => Math.max(1, Math.ceil((at - Date.now()) / 1000));

export function installAuth(app: FastifyInstance, deps: AuthDeps): void {
  app.addHook('onRequest', async (req, reply) => {
    const match = BEARER.exec(req.headers.authorization ?? '');
    const caller = match ? await deps.keys.authenticate(match[1]!) : null;
    if (!caller) {
      const d = await deps.badKeyLimiter.consume(req.ip);
      if (!d.allowed) throw errors.rateLimited(secondsUntil(d.resetAt));
      throw errors.auth(
        match ? 'API key is unknown or revoked' : 'send your API key as "Authorization: Bearer <key>"',
      );
    }
    req.caller = caller;
    const d = await deps.keyLimiter.consume(caller.id);
    setRateHeaders(reply, d);
    if (!d.allowed) throw errors.rateLimited(secondsUntil(d.resetAt));
  });
}
