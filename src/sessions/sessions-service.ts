// Dashboard sessions (API.md section 13). Signing in exchanges an API key for a random session id that
// only the browser's HttpOnly cookie holds; the database keeps its SHA-256 hash and the key it stands for.
// A session ends at sign-out, after 12 hours without a request, or when its key is revoked (checked on
// every request, so in every process and on both databases at once).
//
// The CSRF token is derived from the session id (HMAC-SHA256 keyed with the id), so it needs no storage,
// changes with every session, and cannot be computed by anyone who cannot read the cookie.
import { createHmac } from 'node:crypto';
import type { Writer } from '../db/writer.ts';
import type { Clock } from '../lib/clock.ts';
import { constantTimeEqual, sha256Hex } from '../lib/crypto.ts';
import { randomToken } from '../lib/ids.ts';
import type { Caller, KeysService } from '../keys/keys-service.ts';
import type { SessionsDal } from './sessions-dal.ts';

export const SESSION_IDLE_MS = 12 * 60 * 60_000;
/** Last use is written at most this often per session: idle expiry is exact to within this. */
const TOUCH_EVERY_MS = 60_000;
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

export interface SignedIn {
  /** The cookie's value: shown to the browser once, never stored. */
  sessionId: string;
  csrfToken: string;
  caller: Caller;
  prefix: string;
}

export interface SessionCaller {
  caller: Caller;
  prefix: string;
  csrfToken: string;
}

export function csrfTokenOf(sessionId: string): string {
  return createHmac('sha256', sessionId).update('herald dashboard csrf v1').digest('base64url');
}

export function createSessionsService(deps: {
  dal: SessionsDal;
  write: Writer['write'];
  clock: Clock;
  keys: Pick<KeysService, 'authenticate'>;
  idleMs?: number;
}) {
  const { dal, write, clock } = deps;
  const idleMs = deps.idleMs ?? SESSION_IDLE_MS;
  return {
    idleMs,

    /** A new session for a valid key; null for a malformed, unknown or revoked key. */
    async signIn(rawKey: string): Promise<SignedIn | null> {
      const caller = await deps.keys.authenticate(rawKey);
      if (!caller) return null;
      const sessionId = randomToken(32); // 256 bits, 43 characters
      const now = clock.now();
      const hash = sha256Hex(sessionId);
      await write((trx) => dal.insert(trx, { id_hash: hash, api_key_id: caller.id, created_at: now, last_seen_at: now }));
      const row = await dal.byHash(hash);
      return { sessionId, csrfToken: csrfTokenOf(sessionId), caller, prefix: row?.prefix ?? '' };
    },

    /** The caller a session stands for; null when it is unknown, idle too long, or its key is revoked. */
    async authenticate(sessionId: string): Promise<SessionCaller | null> {
      if (!SESSION_ID.test(sessionId)) return null;
      const hash = sha256Hex(sessionId);
      const row = await dal.byHash(hash);
      if (!row || row.revoked_at !== null) return null;
      const now = clock.now();
      if (now - row.last_seen_at >= idleMs) return null;
      if (now - row.last_seen_at >= TOUCH_EVERY_MS) await write((trx) => dal.touch(trx, hash, now));
      return {
        caller: { id: row.api_key_id, name: row.name, defaultRedirectUrl: row.default_redirect_url },
        prefix: row.prefix,
        csrfToken: csrfTokenOf(sessionId),
      };
    },

    csrfMatches(sessionId: string, token: string): boolean {
      return constantTimeEqual(csrfTokenOf(sessionId), token);
    },

    async signOut(sessionId: string): Promise<void> {
      if (!SESSION_ID.test(sessionId)) return;
      await write((trx) => dal.delete(trx, sha256Hex(sessionId)));
    },

    /** Drops sessions idle past the limit and those of revoked keys (hourly maintenance). */
    async purgeExpired(): Promise<number> {
      const before = clock.now() - idleMs;
      return write((trx) => dal.purge(trx, before));
    },
  };
}

export type SessionsService = ReturnType<typeof createSessionsService>;
