// Bluesky's XRPC error answers → Herald's failure categories. Pure.
// Every error is JSON {"error": "<Name>", "message": "<text>"} (10.12). Notable: an expired token is a 400
// ExpiredToken, not a 401; a wrong token type is 400 InvalidToken; an over-limit blob upload 413; rate
// limits are 429 RateLimitExceeded with ratelimit-* headers (reset in epoch seconds) and retry-after.
import type { HttpResult } from '../http.ts';
import { failure, notAuthOn404, type FailureCategory, type PlatformFailure } from '../types.ts';
import { RATE_LIMIT_FALLBACK_MS } from './info.ts';

export interface XrpcError {
  status: number;
  error: string;
  message: string;
}

/** The error of an answer that is not a 2xx; the name falls back to the HTTP status's meaning. */
export function parseXrpcError(status: number, body: unknown): XrpcError {
  const b = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const error = typeof b.error === 'string' ? b.error : status >= 500 ? 'InternalServerError' : 'InvalidRequest';
  const message = typeof b.message === 'string' ? b.message : typeof body === 'string' && body.length < 200 ? body : '';
  return { status, error, message };
}

const DAY_S = 86_400;

/** When a 429 lifts (epoch ms) and whether its window is a day (a quota) rather than minutes. */
export function rateLimitReset(headers: Headers, now: number): { retryAt: number; daily: boolean } {
  const policy = headers.get('ratelimit-policy') ?? '';
  const window = Number(/w=(\d+)/.exec(policy)?.[1] ?? NaN);
  const daily = Number.isFinite(window) && window >= DAY_S;
  const reset = Number(headers.get('ratelimit-reset'));
  if (Number.isFinite(reset) && reset > 0) {
    // Epoch seconds per the PDS; a small number would be delta-seconds (draft-polli): read it as such.
    const at = reset > 1e9 ? reset * 1000 : now + reset * 1000;
    if (at > now) return { retryAt: at, daily };
  }
  const afterHeader = headers.get('retry-after');
  const after = afterHeader === null || afterHeader.trim() === '' ? NaN : Number(afterHeader);
  if (Number.isFinite(after) && after >= 0) return { retryAt: now + after * 1000, daily };
  return { retryAt: now + RATE_LIMIT_FALLBACK_MS, daily };
}

/** Lexicon errors about the embed or a blob: the media, not the text, was refused. */
const MEDIA_PATH = /\$\.record\.embed|\bblob\b/i;

function categoryOf(e: XrpcError): FailureCategory {
  switch (e.error) {
    case 'ExpiredToken':
    case 'AuthMissing':
    case 'AuthenticationRequired':
    case 'AuthFactorTokenRequired':
      return 'auth_expired';
    case 'InvalidToken':
      // "Bad token scope": the token works but may not do this (an app password where the main one is needed).
      return /scope/i.test(e.message) ? 'permission_missing' : 'auth_expired';
    case 'AccountNotFound':
      // The PDS holds no repository for this DID (the account moved or was deleted): connect it again.
      return 'auth_expired';
    case 'AccountTakedown':
    case 'AccountDeactivated':
    case 'AccountSuspended':
      return 'permission_missing';
    case 'RateLimitExceeded':
      return 'rate_limited';
    case 'PayloadTooLarge':
    case 'BlobTooLarge':
    case 'BlobNotFound':
    case 'InvalidMimeType':
      return 'media_rejected';
    case 'InternalServerError':
    case 'UpstreamFailure':
    case 'UpstreamTimeout':
    case 'NotEnoughResources':
    case 'MethodNotImplemented':
      return 'platform_unavailable';
  }
  if (e.status === 429) return 'rate_limited';
  if (e.status === 413) return 'media_rejected';
  if (e.status >= 500) return 'platform_unavailable';
  // A route the server does not have (a URL that is not a PDS): never a token problem.
  if (e.status === 404) return 'platform_unavailable';
  if (e.status === 401) return 'auth_expired';
  if (e.status === 400 && MEDIA_PATH.test(e.message)) return 'media_rejected';
  return 'content_rejected';
}

/** A failure from an answer that is not a 2xx. `label` says what was refused, e.g. "Bluesky refused the post". */
export function xrpcFailure(res: Extract<HttpResult, { sent: true }>, now: number, label: string): PlatformFailure {
  const e = parseXrpcError(res.status, res.body);
  // A 404 is never an expired token, whatever its body names (types.ts).
  let category = notAuthOn404(e.status, categoryOf(e));
  const text = e.message ? `${e.error}: ${e.message}` : e.error;
  const extra: Omit<PlatformFailure, 'ok' | 'category' | 'message'> = { platformCode: e.error, httpStatus: e.status };
  if (category === 'rate_limited') {
    const reset = rateLimitReset(res.headers, now);
    extra.retryAt = reset.retryAt;
    // A daily window (35,000 write points a day, 300 sign-ins a day) is a quota until its reset.
    if (reset.daily) category = 'quota_exceeded';
  }
  return failure(category, `${label} (HTTP ${e.status} ${text})`, extra);
}

/** A failure for a call that got no answer. Creates may have happened: the caller says so with `creates`. */
export function transportFailure(res: Extract<HttpResult, { sent: false } | { sent: 'unknown' }>, label: string, creates = false): PlatformFailure {
  if (res.sent === 'unknown' && creates) return failure('outcome_unknown', `${label}: ${res.error}; the post may or may not exist`);
  return failure('platform_unavailable', `${label}: ${res.error}`);
}
