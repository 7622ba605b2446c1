// What the Threads emulator's routes share, and the access-token check every Graph route starts with.
import type { FastifyRequest } from 'fastify';
import type { Emulator, EmulatorOptions, ErrorReply } from '../kit/emulator.ts';
import type { OAuthServer } from '../kit/oauth.ts';
import { graphError, missingPermission, tokenOf, unsupported } from './graph.ts';
import type { SandboxUser, ThreadsStore } from './store.ts';

export interface ThreadsEmulatorOptions extends EmulatorOptions {
  /** API-published posts per rolling 24 hours (Threads: 250). Lower it to test the limit cheaply. */
  postQuota?: number;
  /** API-published replies per rolling 24 hours (Threads: 1,000). */
  replyQuota?: number;
  /** How old a long-lived token must be before th_refresh_token accepts it (Threads: 24 hours). */
  refreshMinAgeMs?: number;
  /** Deletes per profile per rolling 24 hours (Threads: 100). */
  deleteQuota?: number;
}

export interface ThreadsSettings {
  clientId: string;
  clientSecret: string;
  processingMs: number;
  postQuota: number;
  replyQuota: number;
  refreshMinAgeMs: number;
  /** Herald's own origins: Threads can fetch media there (EmulatorOptions.mediaOrigins). */
  mediaOrigins: () => readonly string[];
  deleteQuota: number;
}

export interface ThreadsContext {
  emu: Emulator;
  store: ThreadsStore;
  oauth: OAuthServer;
  now: () => number;
  settings: ThreadsSettings;
}

export interface Caller {
  token: string;
  user: SandboxUser;
  scopes: string[];
}

const REASONS = {
  missing: { code: 104, message: 'An access token is required to request this resource.' },
  invalid: { code: 190, message: 'Invalid OAuth access token - Cannot parse access token' },
  expired: { code: 190, subcode: 463, message: 'Error validating access token: Session has expired.' },
  revoked: { code: 190, subcode: 458, message: 'Error validating access token: The user has not authorized application.' },
} as const;

export function accessError(reason: keyof typeof REASONS): ErrorReply {
  const r = REASONS[reason];
  return graphError({ status: 400, type: 'OAuthException', code: r.code, message: r.message, subcode: 'subcode' in r ? r.subcode : undefined });
}

/** The caller behind the request's token, or the Graph error to answer with. */
export function authenticate(ctx: ThreadsContext, req: FastifyRequest, scopes: readonly string[] = ['threads_basic']): Caller | ErrorReply {
  const token = tokenOf(req);
  const check = ctx.oauth.checkAccess(token);
  if (!check.ok) return accessError(check.reason);
  const user = ctx.store.users.get(check.userId);
  if (!user) return accessError('invalid');
  for (const scope of scopes) if (!check.scopes.includes(scope)) return missingPermission(scope);
  return { token: token!, user, scopes: check.scopes };
}

export function isError(x: Caller | ErrorReply): x is ErrorReply {
  return 'status' in x && 'body' in x;
}

/** Path ids may be `me` or the caller's own id; anyone else's is not there for this caller. */
export function ownUser(caller: Caller, id: string, method: string): ErrorReply | undefined {
  return id === 'me' || id === caller.user.id ? undefined : unsupported(method, id);
}
