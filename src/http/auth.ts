// Authentication and rate limiting for every /v1 route, in API.md's order: key first, then the key's
// rate limit. Bad keys are limited per client address so keys cannot be guessed at speed.
// Without an Authorization header, a dashboard session cookie stands in for the key (API.md section
// 13), with the cross-origin checks of session-guard.ts.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Caller, KeysService } from '../keys/keys-service.ts';
import type { SessionsService } from '../sessions/sessions-service.ts';
import { errors } from '../contract/errors.ts';
import type { RateDecision, RateLimiter } from './rate-limit.ts';
import { CSRF_HEADER, checkSameOrigin, readCookie } from './session-guard.ts';

export interface SessionAuth {
  sessions: Pick<SessionsService, 'authenticate' | 'csrfMatches'>;
  cookieName: string;
  publicUrl(): string;
}

export interface AuthDeps {
  /** With lookup and callerOf, and a limiter that has consumeAfter, the key is read and counted in one statement. */
  keys: Pick<KeysService, 'authenticate'> & Partial<Pick<KeysService, 'lookup' | 'callerOf'>>;
  keyLimiter: RateLimiter;
  badKeyLimiter: RateLimiter;
  /** Dashboard sessions; without it only bearer keys are accepted. */
  session?: SessionAuth;
  /**
   * A random secret of this process that POST /mcp sends (IN_PROCESS_HEADER) on the /v1 calls its tools
   * make in-process: the /mcp request was counted against the key's rate limit, so its tool's call is not
   * counted a second time. It never leaves the process; the call is still authenticated as usual.
   */
  inProcessToken?: string;
}

export const IN_PROCESS_HEADER = 'x-herald-in-process';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;
const CHANGES_STATE = (method: string) => method !== 'GET' && method !== 'HEAD';

function setRateHeaders(reply: FastifyReply, d: RateDecision): void {
  reply.header('x-ratelimit-limit', d.limit);
  reply.header('x-ratelimit-remaining', Math.max(0, d.remaining));
  reply.header('x-ratelimit-reset', Math.ceil(d.resetAt / 1000));
}

const secondsUntil = (at: number) => Math.max(1, Math.ceil((at - Date.now()) / 1000));

function isInProcess(req: FastifyRequest, token: string | undefined): boolean {
  const sent = req.headers[IN_PROCESS_HEADER];
  if (token === undefined || typeof sent !== 'string' || sent.length !== token.length) return false;
  return timingSafeEqual(Buffer.from(sent), Buffer.from(token));
}

/** The caller of a session cookie, after the cross-origin checks; null when there is no cookie or it ended. */
async function sessionCaller(req: FastifyRequest, auth: SessionAuth): Promise<Caller | null | 'none'> {
  const sessionId = readCookie(req.headers.cookie, auth.cookieName);
  if (sessionId === undefined) return 'none';
  const found = await auth.sessions.authenticate(sessionId);
  if (!found) return null;
  checkSameOrigin(req, auth.publicUrl);
  if (CHANGES_STATE(req.method)) {
    const token = req.headers[CSRF_HEADER];
    if (typeof token !== 'string' || !auth.sessions.csrfMatches(sessionId, token)) {
      throw errors.crossOrigin(`a request that changes something with the dashboard session must carry the session's token in ${CSRF_HEADER}`);
    }
  }
  return found.caller;
}

export function installAuth(app: FastifyInstance, deps: AuthDeps): void {
  app.addHook('onRequest', async (req, reply) => {
    const header = req.headers.authorization;
    let caller: Caller | null = null;
    let decision: RateDecision | undefined;
    let message = 'send your API key as "Authorization: Bearer <key>"';
    const inProcess = isInProcess(req, deps.inProcessToken);
    if (header === undefined && deps.session) {
      const found = await sessionCaller(req, deps.session);
      if (found === null) message = 'the dashboard session has ended (signed out, 12 hours idle, or its key revoked); sign in again';
      else if (found !== 'none') caller = found;
    } else {
      const match = BEARER.exec(header ?? '');
      if (match) message = 'API key is unknown or revoked';
      const { lookup, callerOf } = deps.keys;
      if (match && lookup && callerOf && deps.keyLimiter.consumeAfter && !inProcess) {
        // PostgreSQL: the key and its rate limit in one round trip.
        const sql = lookup(match[1]!);
        const found = sql ? await deps.keyLimiter.consumeAfter<{ id: string; name: string; default_redirect_url: string | null }>('herald_caller_limited', sql) : null;
        if (found) {
          caller = callerOf(found.row);
          decision = found.decision;
        }
      } else {
        caller = match ? await deps.keys.authenticate(match[1]!) : null;
      }
    }
    if (!caller) {
      const d = await deps.badKeyLimiter.consume(req.ip);
      if (!d.allowed) throw errors.rateLimited(secondsUntil(d.resetAt));
      throw errors.auth(message);
    }
    req.caller = caller;
    if (inProcess) return;
    const d = decision ?? (await deps.keyLimiter.consume(caller.id));
    setRateHeaders(reply, d);
    if (!d.allowed) throw errors.rateLimited(secondsUntil(d.resetAt));
  });
}
