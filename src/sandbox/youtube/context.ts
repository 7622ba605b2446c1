// State the YouTube emulator's routes share, bearer-token and scope checks as Google answers them, the
// quota gate, and the request-shape checks (required part, unknown parameters) every Data API method has.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { OAuthServer } from '../kit/oauth.ts';
import type { SandboxAccount } from './accounts.ts';
import { ERR, sendApiError, type ApiErrorSpec } from './google-errors.ts';
import type { Bucket, QuotaMeter, QuotaModel } from './quota.ts';
import type { YouTubeStore } from './store.ts';

export interface YouTubeSandboxSettings {
  /** How long processing takes after the last byte (uploaded → processed or failed). */
  processingMs: number;
  /** An API project not yet audited: every upload is locked private (§8.5). */
  unverifiedProject: boolean;
  quotaModel: QuotaModel;
  dailyUnits: number;
  dailyUploads: number;
  dailySearches: number;
  /** Uploads per channel per rolling 24 hours before uploadLimitExceeded (YouTube does not publish it). */
  channelDailyUploads: number;
  /** The status of the PUT that completes an upload (201 or 200: which one is unconfirmed, §8.12). */
  completeStatus: 200 | 201;
  /** Non-final chunks are kept in whole multiples of this (256 KiB). */
  chunkGranularity: number;
  /** Live refresh tokens per account and client; the oldest dies beyond it (Google: 100). */
  refreshTokenCap: number;
  /** Whether comments on private videos are accepted (unconfirmed, §8.12: refused here). */
  commentsOnPrivate: boolean;
  /** Custom thumbnails per channel per minute before uploadRateLimitExceeded (an emulator figure). */
  thumbnailsPerMinute: number;
  /** How long a new upload takes to appear in search results (unconfirmed delay, §8.12). */
  searchDelayMs: number;
  /** How long an upload session URI works (a week, as Google's resumable sessions). */
  sessionTtlMs: number;
  /** Registered redirect URIs; null accepts any https URL (or http on localhost). */
  redirectUris: string[] | null;
}

export interface CodeFacts {
  offline: boolean;
  withChallenge: boolean;
}

export interface YouTubeContext {
  clientId: string;
  clientSecret: string;
  now: () => number;
  oauth: OAuthServer;
  accounts: Map<string, SandboxAccount>;
  store: YouTubeStore;
  quota: QuotaMeter;
  settings: YouTubeSandboxSettings;
  /** Accounts that consented with offline access before: later silent consents get no refresh token. */
  consented: Set<string>;
  /** Scopes granted so far per account (include_granted_scopes unions them). */
  grants: Map<string, Set<string>>;
  /** Live refresh tokens per account, oldest first (for the cap). */
  refreshTokens: Map<string, string[]>;
  codes: Map<string, CodeFacts>;
  thumbnailCalls: Map<string, number[]>;
}

export interface Caller {
  token: string;
  account: SandboxAccount;
  scopes: string[];
}

export function bearer(req: FastifyRequest): string | undefined {
  return /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1]?.trim();
}

/**
 * Checks the bearer token and that it carries one of the scopes the method accepts; answers Google's 401
 * or 403 itself and returns null on failure.
 */
export function authenticate(ctx: YouTubeContext, req: FastifyRequest, reply: FastifyReply, accepted: readonly string[], method: string): Caller | null {
  const token = bearer(req);
  if (!token) {
    sendApiError(reply, ERR.loginRequired());
    return null;
  }
  const check = ctx.oauth.checkAccess(token);
  const account = check.ok ? ctx.accounts.get(check.userId) : undefined;
  if (!check.ok || !account) {
    sendApiError(reply, ERR.invalidCredentials());
    return null;
  }
  if (!accepted.some((s) => check.scopes.includes(s))) {
    sendApiError(reply, ERR.insufficientScope(method));
    return null;
  }
  return { token, account, scopes: check.scopes };
}

/** Refuses the call (403 quotaExceeded) when the project's quota for it is used up. */
export function quotaGate(ctx: YouTubeContext, reply: FastifyReply, bucket: Bucket, cost: number): boolean {
  if (!ctx.quota.exhausted(bucket, cost)) return true;
  sendApiError(reply, ERR.quotaExceeded());
  return false;
}

/** An invalid request still costs at least one unit. */
export function refuse(ctx: YouTubeContext, reply: FastifyReply, e: ApiErrorSpec): FastifyReply {
  ctx.quota.charge('units', 1);
  return sendApiError(reply, e);
}

/** Parameters every Google API takes. */
const STANDARD = new Set(['key', 'alt', 'prettyPrint', 'fields', 'quotaUser', 'userIp', 'callback', '$.xgafv', 'upload_protocol', 'access_token']);

export type Query = Record<string, string | undefined>;

/** The request's query parameters: unknown ones refused, `part` required and made of known parts. */
export function checkQuery(query: Query, allowed: readonly string[], parts: readonly string[] | null): ApiErrorSpec | null {
  for (const name of Object.keys(query)) {
    if (!allowed.includes(name) && !STANDARD.has(name) && !name.startsWith('sandbox_')) {
      return ERR.badParam('unexpectedParameter', `The request specifies an unexpected parameter: ${name}`, name);
    }
  }
  if (parts === null) return null;
  const part = query.part;
  if (!part) return ERR.required('part');
  for (const p of part.split(',').map((s) => s.trim())) {
    if (!parts.includes(p)) return ERR.badParam('unknownPart', `'${p}'`, 'part');
  }
  return null;
}

export function partsOf(query: Query): Set<string> {
  return new Set((query.part ?? '').split(',').map((s) => s.trim()).filter(Boolean));
}

export function iso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
