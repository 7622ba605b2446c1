// Pinterest's error answers → Herald's failure categories. Pure.
// Every v5 error is {"code": <int>, "message": "<text>"} (OpenAPI `Error`), sometimes with
// "status": "failure"; the HTTP status and the code are independent (§9.11).
import type { HttpResult } from '../http.ts';
import { failure, type FailureCategory, type PlatformFailure } from '../types.ts';
import { DAILY_BLOCK_WAIT_MS, RATE_LIMIT_WAIT_MS } from './info.ts';

export interface PinterestError {
  code: number | null;
  message: string;
}

export function parseError(body: unknown): PinterestError | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const b = body as Record<string, unknown>;
  const code = typeof b.code === 'number' && Number.isInteger(b.code) ? b.code : null;
  const message = typeof b.message === 'string' ? b.message : '';
  if (code === null && !message) return null;
  return { code, message };
}

// Tokens never appear in Pinterest's texts, but a message must never carry one.
const TOKEN_LIKE = /\bpin[acr][._][\w.~+/=-]{8,}/g;

export function scrub(text: string): string {
  return text.replace(TOKEN_LIKE, '[token]').replace(/\s+/g, ' ').trim().slice(0, 300);
}

const MEDIA_WORDS = /\b(image|images|media|video|cover|picture|photo)\b/i;
/** §9.10: spam blocks come as 429 with a message naming spam (the quickstart tells them apart). */
const BLOCK_WORDS = /\bspam\b|\bdaily\b|per day|\btrial\b/i;

/** The category of an answered error: the code first, then the HTTP status. */
export function pinterestCategory(status: number, err: PinterestError | null): FailureCategory {
  const code = err?.code ?? null;
  const text = err?.message ?? '';
  if (status === 429 || code === 8) return BLOCK_WORDS.test(text) ? 'quota_exceeded' : 'rate_limited';
  // A 404 names a missing board, section, Pin or upload — or a wrong API URL: never an expired token.
  if (status === 404) return code === 40 || code === 2031 ? 'content_rejected' : 'platform_unavailable';
  if (code === 3) return 'permission_missing';
  if (status === 401 || code === 2 || code === 283) return 'auth_expired';
  if (code === 233 || code === 235) return 'media_rejected';
  if (status === 403 || code === 29) return 'permission_missing';
  if (status >= 500) return 'platform_unavailable';
  if (status === 405 || status === 409 || status === 408) return 'platform_unavailable';
  if (status === 413) return 'media_rejected';
  return MEDIA_WORDS.test(text) ? 'media_rejected' : 'content_rejected';
}

const LEAD: Record<FailureCategory, string> = {
  auth_expired: 'Pinterest no longer accepts this account\'s authorization',
  permission_missing: 'Pinterest refused for lack of a permission',
  content_rejected: 'Pinterest rejected the Pin',
  media_rejected: 'Pinterest rejected the media',
  rate_limited: 'Pinterest is rate limiting this account',
  quota_exceeded: 'Pinterest blocked further writes for now',
  platform_unavailable: 'Pinterest is unavailable',
  outcome_unknown: 'Pinterest did not say what happened',
};

/** Retry-After in seconds or as an HTTP date; undefined when absent or unreadable. */
export function retryAfterAt(headers: Headers | undefined, now: number): number | undefined {
  const raw = headers?.get('retry-after')?.trim();
  if (!raw) return undefined;
  if (/^\d+$/.test(raw)) return now + Number(raw) * 1000;
  const at = Date.parse(raw);
  return Number.isFinite(at) ? Math.max(now, at) : undefined;
}

export interface FailureContext {
  /** What Herald was doing, when it says more than the category ("registering the video upload"). */
  doing?: string;
}

export function pinterestFailure(status: number, body: unknown, headers: Headers | undefined, now: number, ctx: FailureContext = {}): PlatformFailure {
  const err = parseError(body);
  const category = pinterestCategory(status, err);
  const detail = err?.message ? scrub(err.message) : `HTTP ${status}`;
  const code = err?.code ?? null;
  const where = ctx.doing ? ` while ${ctx.doing}` : '';
  const message = `${LEAD[category]}${where}: ${detail}${code !== null ? ` (code ${code})` : ''}`;
  const extra: Omit<PlatformFailure, 'ok' | 'category' | 'message'> = { httpStatus: status };
  if (code !== null) extra.platformCode = String(code);
  if (category === 'rate_limited') extra.retryAt = retryAfterAt(headers, now) ?? now + RATE_LIMIT_WAIT_MS;
  if (category === 'quota_exceeded') extra.retryAt = retryAfterAt(headers, now) ?? now + DAILY_BLOCK_WAIT_MS;
  return failure(category, message, extra);
}

/** An answered request that is not a success. */
export function answeredFailure(result: Extract<HttpResult, { sent: true }>, now: number, ctx: FailureContext = {}): PlatformFailure {
  return pinterestFailure(result.status, result.body, result.headers, now, ctx);
}

/** A request that got no answer. Only a call that creates a Pin can leave an unknown outcome. */
export function unansweredFailure(result: Extract<HttpResult, { sent: false | 'unknown' }>, creates: boolean, ctx: FailureContext = {}): PlatformFailure {
  const where = ctx.doing ? ` while ${ctx.doing}` : '';
  if (result.sent === 'unknown' && creates) {
    return failure('outcome_unknown', `Pinterest did not answer${where}; the Pin may or may not exist (${result.error})`);
  }
  return failure('platform_unavailable', `Pinterest could not be reached${where} (${result.error})`);
}
