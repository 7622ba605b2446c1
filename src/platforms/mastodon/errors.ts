// Mastodon's error answers → Herald's failure categories. Pure.
// The envelope is `{"error": "…"}` (platforms.md §11.10); the OAuth endpoints add `error_description` and
// put a code in `error` (`invalid_grant`). Throttling is a 429 with `X-RateLimit-Reset` as an ISO 8601
// time (microseconds), never epoch seconds, and no Retry-After (§11.9).
import type { HttpResult } from '../http.ts';
import { failure, notAuthOn404, type FailureCategory, type PlatformFailure } from '../types.ts';
import { API_WINDOW_MS, QUOTA_WINDOW_MS, RATE_LIMIT_WAIT_MS } from './info.ts';

type Answered = Extract<HttpResult, { sent: true }>;
type Unanswered = Extract<HttpResult, { sent: false | 'unknown' }>;

export interface ErrorContext {
  /** What Herald was doing, for the message: "Mastodon rejected the post". */
  label: string;
  /** The call creates something public (a status, an edit): an unanswered one has an unknown outcome. */
  creates?: boolean;
  /** The call uploads media: its 422s are about the file. */
  media?: boolean;
  /**
   * The call creates a status: a 429 whose window ends later than the API's 5-minute windows is the
   * per-account statuses cap (300 per 3 hours), a posting quota.
   */
  statusCap?: boolean;
}

export interface MastodonError {
  /** The `error` text, or for OAuth endpoints the code (`invalid_grant`). */
  error: string;
  description?: string;
}

export function parseError(body: unknown): MastodonError | null {
  if (!body || typeof body !== 'object') return null;
  const b = body as Record<string, unknown>;
  if (typeof b.error !== 'string' || !b.error) return null;
  const out: MastodonError = { error: b.error };
  if (typeof b.error_description === 'string' && b.error_description) out.description = b.error_description;
  return out;
}

// Belt and braces: Mastodon's texts carry no tokens, but a message must never leak one (tokens are
// 43 base64url characters).
const TOKEN_LIKE = /[A-Za-z0-9_-]*[A-Za-z_-][A-Za-z0-9_-]*/g;

export function scrub(text: string): string {
  return text
    .replace(TOKEN_LIKE, (w) => (w.length >= 32 ? '[redacted]' : w))
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 300);
}

/** When the throttle lifts: X-RateLimit-Reset (ISO 8601), else Retry-After (seconds, sent by proxies). */
export function resetAt(headers: Headers | undefined, now: number): number | undefined {
  const reset = headers?.get('x-ratelimit-reset');
  if (reset) {
    const at = /^\d+$/.test(reset) ? Number(reset) * 1000 : Date.parse(reset);
    if (Number.isFinite(at)) return Math.max(at, now);
  }
  const retryAfter = headers?.get('retry-after');
  if (retryAfter && /^\d+$/.test(retryAfter)) return now + Number(retryAfter) * 1000;
  return undefined;
}

const MEDIA_TEXT = /\bmedia\b|\battach|\bfile\b|\bprocessing\b|\bthumbnail\b|\bimages?\b|\bvideo\b/i;
const NOT_READY_TEXT = /have not finished processing/i;
const OAUTH_AUTH_CODES = new Set(['invalid_grant', 'invalid_request', 'invalid_client', 'unauthorized_client', 'invalid_token']);

function categoryOf(status: number, err: MastodonError | null, ctx: ErrorContext): FailureCategory {
  const code = err?.error ?? '';
  if (err?.description !== undefined) {
    // An OAuth endpoint: the code says what happened.
    if (OAUTH_AUTH_CODES.has(code)) return 'auth_expired';
    if (code === 'invalid_scope' || code === 'access_denied') return 'permission_missing';
  }
  if (status === 401) return 'auth_expired';
  if (status === 403) return 'permission_missing';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'platform_unavailable';
  if (status >= 300 && status < 400) return 'platform_unavailable';
  if (status === 422) {
    if (NOT_READY_TEXT.test(code)) return 'platform_unavailable';
    if (ctx.media || MEDIA_TEXT.test(code)) return 'media_rejected';
  }
  // 400, 404 (an unknown status to reply to, a gone status), 410, 422: this request will not work as it
  // is. A 404 is never read as an expired token.
  return 'content_rejected';
}

/** An answered request that is not a success. */
export function answeredFailure(res: Answered, now: number, ctx: ErrorContext): PlatformFailure {
  const err = parseError(res.body);
  // A 404 is never an expired token, not even with an OAuth error in its body (types.ts).
  let category = notAuthOn404(res.status, categoryOf(res.status, err, ctx));
  const extra: Omit<PlatformFailure, 'ok' | 'category' | 'message'> = { httpStatus: res.status };
  if (err) extra.platformCode = err.description !== undefined ? err.error : String(res.status);
  if (category === 'rate_limited') {
    const at = resetAt(res.headers, now) ?? now + RATE_LIMIT_WAIT_MS;
    // The 3-hour statuses cap (300 per account) is a posting quota, not a passing throttle.
    if (at - now > (ctx.statusCap ? API_WINDOW_MS : QUOTA_WINDOW_MS)) category = 'quota_exceeded';
    extra.retryAt = at;
  }
  const text = err ? scrub(err.description ?? err.error) : `HTTP ${res.status}`;
  const status = err ? ` (HTTP ${res.status})` : '';
  const redirect = res.status >= 300 && res.status < 400 ? ` to ${scrub(res.headers.get('location') ?? 'elsewhere')}; is the instance URL right?` : '';
  return failure(category, `${ctx.label}: ${text}${status}${redirect}`, extra);
}

/** A request that got no answer. Creating calls with an unknown fate must be reconciled. */
export function unansweredFailure(res: Unanswered, ctx: ErrorContext): PlatformFailure {
  if (res.sent === 'unknown' && ctx.creates) {
    return failure('outcome_unknown', `${ctx.label}: no answer from the instance, so it may or may not have happened (${res.error})`);
  }
  return failure('platform_unavailable', `${ctx.label}: the instance could not be reached (${res.error})`);
}

export function callFailure(res: HttpResult, now: number, ctx: ErrorContext): PlatformFailure {
  return res.sent === true ? answeredFailure(res, now, ctx) : unansweredFailure(res, ctx);
}
