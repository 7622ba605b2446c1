// Authentication and rate limiting for every /v1 route, in API.md's order: key first, then the key's
// rate limit. Bad keys are limited per client address so keys cannot be guessed at speed.
// Without an Authorization header, a dashboard session cookie stands in for the key (API.md section
// 13), with the cross-origin checks of session-guard.ts.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Caller, KeysService } from '../keys/keys-service.ts';
import type { SessionsService } from '../sessions/sessions-service.ts';
import { errors } from '../contract/errors.ts';
import type { Also, RateDecision, RateLimiter } from './rate-limit.ts';
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
  /**
   * Leave the key of a request that carries an idempotency key to be checked with its claim (PendingKey);
   * only where the key is read with its limit in one statement (PostgreSQL).
   */
  pendingKeys?: boolean;
}

export const IN_PROCESS_HEADER = 'x-herald-in-process';

/**
 * A bearer key the onRequest hook left unchecked, on PostgreSQL, for a request whose idempotency claim
 * can be written by the same statement (see deferrable): the idempotency hook checks it with the claim,
 * and the error handler checks it before answering an error raised before that (a body that is not
 * JSON, too large, …). Either way the key is checked and counted before anything else is answered.
 */
export interface PendingKey {
  /** The id of the key when this process has authenticated it before (a key hash's id never changes). */
  knownId: string | undefined;
  /**
   * Checks the key and counts its rate limit as the hook does (401 or 429 thrown, headers set, req.caller
   * set), with `also` run inside the same statement when the key passes; returns what `also` returned.
   * `via` sends that statement (with `run`, where to run it): on a connection of the caller's, say; the
   * answer (and the bad-key limit, which takes a connection of its own) comes after `via` has returned.
   */
  check(also?: Also, via?: <T>(statement: (run: Also['run']) => Promise<T>) => Promise<T>): Promise<unknown>;
}

/**
 * The largest JSON body whose request may be read before its key is checked: a create is a few hundred
 * bytes; anything larger (or of unknown length) is refused on a bad key before its body is read.
 */
const PENDING_BODY_MAX = 64 * 1024;

/** Whether a request's key may wait for its body: an idempotent route, a key header, a small JSON body. */
function deferrable(req: FastifyRequest): boolean {
  // The headers first: Fastify builds routeOptions afresh on every read, and most requests (every GET)
  // have no idempotency header.
  const h = req.headers;
  if (h['idempotency-key'] === undefined && h['idempotency-window'] === undefined) return false;
  if (!req.routeOptions.config?.idempotent) return false;
  const length = Number(h['content-length']);
  if (!(length > 0 && length <= PENDING_BODY_MAX)) return false;
  return /^application\/json\s*(;|$)/i.test(h['content-type'] ?? '');
}

/** Key hash → key id of keys authenticated in this process (bounded; only to read ahead, never to authenticate). */
const KNOWN_KEYS_MAX = 10_000;

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
  const knownIds = new Map<string, string>();
  // Keyed by the key's hash (the lookup's value), never by the key itself.
  const remember = (lookup: { values: unknown[] }, id: string) => {
    const hash = String(lookup.values[0]);
    if (knownIds.get(hash) === id) return;
    if (knownIds.size >= KNOWN_KEYS_MAX) knownIds.clear();
    knownIds.set(hash, id);
  };

  /** 401 (or 429 for an address that sent too many bad keys) when there is no caller; else the key's own limit. */
  async function settle(req: FastifyRequest, reply: FastifyReply, caller: Caller | null, decision: RateDecision | undefined, message: string, inProcess: boolean) {
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
  }

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
      const consumeAfter = deps.keyLimiter.consumeAfter;
      if (match && lookup && callerOf && consumeAfter && !inProcess) {
        // PostgreSQL: the key and its rate limit in one round trip.
        const sql = lookup(match[1]!);
        if (sql && deps.pendingKeys && deferrable(req)) {
          // With the idempotency claim, in the same statement, once the body is here.
          req.pendingKey = {
            knownId: knownIds.get(String(sql.values[0])),
            check: async (also, via) => {
              req.pendingKey = null;
              const statement = (run: Also['run']) =>
                consumeAfter<{ id: string; name: string; default_redirect_url: string | null }>('herald_caller_limited', sql, also && { ...also, run });
              const found = via ? await via(statement) : await statement(undefined);
              if (found) remember(sql, found.row.id);
              await settle(req, reply, found ? callerOf(found.row) : null, found?.decision, message, false);
              return found?.also ?? null;
            },
          };
          return;
        }
        const found = sql ? await consumeAfter<{ id: string; name: string; default_redirect_url: string | null }>('herald_caller_limited', sql) : null;
        if (found) {
          caller = callerOf(found.row);
          decision = found.decision;
          remember(sql!, found.row.id);
        }
      } else {
        caller = match ? await deps.keys.authenticate(match[1]!) : null;
      }
    }
    await settle(req, reply, caller, decision, message, inProcess);
  });
}
