// Google's error answers → Herald's failure categories. Pure.
// Two shapes (§8.8, §8.3): the API envelope {"error":{"code","message","errors":[{"message","domain",
// "reason",…}],"status"?,"details"?}} and the OAuth endpoints' {"error","error_description"}.
import type { HttpResult } from '../http.ts';
import { failure, notAuthOn404, type FailureCategory, type PlatformFailure } from '../types.ts';
import { RATE_LIMIT_WAIT_MS, UPLOAD_CAP_WAIT_MS } from './info.ts';
import { nextQuotaReset } from './quota.ts';

export interface GoogleApiError {
  /** error.message, HTML removed. */
  message: string;
  /** errors[].reason, in order (quotaExceeded, authError, invalidTitle, …). */
  reasons: string[];
  /** error.status (UNAUTHENTICATED, PERMISSION_DENIED, INVALID_ARGUMENT, RESOURCE_EXHAUSTED, …). */
  status?: string;
  /** ErrorInfo.reason in details (ACCESS_TOKEN_SCOPE_INSUFFICIENT, RATE_LIMIT_EXCEEDED, …). */
  infoReason?: string;
  /** RetryInfo.retryDelay in details, in ms. */
  retryDelayMs?: number;
}

type Json = Record<string, unknown>;

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const obj = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);

/** "30s", "1.5s" (protobuf Duration in JSON) → ms. */
export function durationMs(text: string | undefined): number | undefined {
  const m = /^(\d+(?:\.\d+)?)s$/.exec(text ?? '');
  return m ? Math.round(Number(m[1]) * 1000) : undefined;
}

/** Google's quota message carries a link; a message Herald shows is plain text. */
export function plainText(text: string): string {
  return text.replace(/<[^>]*>/g, '').replace(/\s+/g, ' ').trim();
}

/** The API envelope's error, or null when the body is not one. */
export function parseApiError(body: unknown): GoogleApiError | null {
  const err = obj(obj(body)?.error);
  if (!err) return null;
  const items = Array.isArray(err.errors) ? err.errors.map(obj).filter((e): e is Json => e !== undefined) : [];
  const details = Array.isArray(err.details) ? err.details.map(obj).filter((d): d is Json => d !== undefined) : [];
  const info = details.find((d) => str(d['@type'])?.endsWith('google.rpc.ErrorInfo'));
  const retry = details.find((d) => str(d['@type'])?.endsWith('google.rpc.RetryInfo'));
  const out: GoogleApiError = {
    message: plainText(str(err.message) ?? str(items[0]?.message) ?? ''),
    reasons: items.map((e) => str(e.reason)).filter((r): r is string => r !== undefined),
  };
  const status = str(err.status);
  if (status) out.status = status;
  const infoReason = str(info?.reason);
  if (infoReason) out.infoReason = infoReason;
  const delay = durationMs(str(retry?.retryDelay));
  if (delay !== undefined) out.retryDelayMs = delay;
  return out;
}

/** The OAuth endpoints' error ({"error":"invalid_grant","error_description":"Bad Request"}). */
export function parseOAuthError(body: unknown): { error: string; description: string } | null {
  const b = obj(body);
  const error = str(b?.error);
  if (!b || !error) return null;
  return { error, description: str(b.error_description) ?? '' };
}

const BY_REASON: Record<string, FailureCategory> = {
  authError: 'auth_expired',
  youtubeSignupRequired: 'permission_missing',
  insufficientPermissions: 'permission_missing',
  forbidden: 'permission_missing',
  ineligibleAccount: 'permission_missing',
  accountDelegationForbidden: 'permission_missing',
  authenticatedUserAccountClosed: 'permission_missing',
  authenticatedUserAccountSuspended: 'permission_missing',
  authenticatedUserNotChannel: 'permission_missing',
  channelClosed: 'permission_missing',
  channelSuspended: 'permission_missing',
  quotaExceeded: 'quota_exceeded',
  dailyLimitExceeded: 'quota_exceeded',
  uploadLimitExceeded: 'quota_exceeded',
  rateLimitExceeded: 'rate_limited',
  userRateLimitExceeded: 'rate_limited',
  uploadRateLimitExceeded: 'rate_limited',
  invalidTitle: 'content_rejected',
  invalidDescription: 'content_rejected',
  invalidTags: 'content_rejected',
  invalidCategoryId: 'content_rejected',
  invalidPublishAt: 'content_rejected',
  invalidVideoMetadata: 'content_rejected',
  invalidRecordingDetails: 'content_rejected',
  invalidFilename: 'content_rejected',
  commentTextRequired: 'content_rejected',
  commentTextTooLong: 'content_rejected',
  invalidCommentThreadMetadata: 'content_rejected',
  channelOrVideoIdMissing: 'content_rejected',
  commentsDisabled: 'content_rejected',
  processingFailure: 'content_rejected',
  badContent: 'media_rejected',
  mediaBodyRequired: 'media_rejected',
  invalidImage: 'media_rejected',
  uploadTooLarge: 'media_rejected',
  // Something named is gone (a video deleted meanwhile): nothing a retry or a new token fixes.
  videoNotFound: 'content_rejected',
  playlistNotFound: 'content_rejected',
  channelNotFound: 'content_rejected',
  backendError: 'platform_unavailable',
  internalError: 'platform_unavailable',
  // A route the host does not know (a wrong HERALD_YOUTUBE_API_URL): never auth_expired.
  notFound: 'platform_unavailable',
};

const BY_STATUS: Record<string, FailureCategory> = {
  UNAUTHENTICATED: 'auth_expired',
  PERMISSION_DENIED: 'permission_missing',
  INVALID_ARGUMENT: 'content_rejected',
  RESOURCE_EXHAUSTED: 'rate_limited',
  UNAVAILABLE: 'platform_unavailable',
  INTERNAL: 'platform_unavailable',
};

export function categoryFromHttp(status: number): FailureCategory {
  if (status === 401) return 'auth_expired';
  if (status === 403) return 'permission_missing';
  if (status === 404) return 'platform_unavailable';
  if (status === 413) return 'media_rejected';
  if (status === 429) return 'rate_limited';
  if (status >= 500 || status === 408) return 'platform_unavailable';
  return 'content_rejected';
}

export function apiErrorCategory(err: GoogleApiError, httpStatus: number): { category: FailureCategory; code: string } {
  const found = apiCategory(err, httpStatus);
  return { ...found, category: notAuthOn404(httpStatus, found.category) };
}

function apiCategory(err: GoogleApiError, httpStatus: number): { category: FailureCategory; code: string } {
  for (const reason of err.reasons) {
    const category = BY_REASON[reason];
    if (category) return { category, code: reason };
  }
  // `required` is the reason of both a missing credential (401) and a missing parameter (400).
  if (err.infoReason === 'ACCESS_TOKEN_SCOPE_INSUFFICIENT') return { category: 'permission_missing', code: err.infoReason };
  const byStatus = err.status ? BY_STATUS[err.status] : undefined;
  if (byStatus) return { category: byStatus, code: err.reasons[0] ?? err.status! };
  return { category: categoryFromHttp(httpStatus), code: err.reasons[0] ?? String(httpStatus) };
}

// Belt and braces: Google's texts carry no tokens, but a message must never leak one.
const TOKEN_LIKE = /\b(?:ya29\.[\w.~+/=-]{8,}|1\/\/[\w.~+/=-]{8,})/g;

export function scrub(text: string): string {
  return text.replace(TOKEN_LIKE, '[token]').replace(/\s+/g, ' ').trim().slice(0, 300);
}

const LEAD: Record<FailureCategory, string> = {
  auth_expired: 'YouTube no longer accepts this account\'s authorization',
  permission_missing: 'YouTube refused for lack of a permission',
  content_rejected: 'YouTube rejected the request',
  media_rejected: 'YouTube rejected the media',
  rate_limited: 'YouTube is rate limiting requests',
  quota_exceeded: 'The YouTube API quota is used up',
  platform_unavailable: 'YouTube is unavailable',
  outcome_unknown: 'YouTube did not answer',
};

/** Seconds or an HTTP date, as Retry-After may carry. */
export function retryAfterMs(headers: Headers | undefined, now: number): number | undefined {
  const raw = headers?.get('retry-after')?.trim();
  if (!raw) return undefined;
  if (/^\d+$/.test(raw)) return Number(raw) * 1000;
  const at = Date.parse(raw);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}

/** When the limit behind a failure lifts: the platform's own signal first. */
function retryAtOf(category: FailureCategory, code: string, now: number, signalMs: number | undefined): number | undefined {
  if (category === 'rate_limited') return now + (signalMs ?? RATE_LIMIT_WAIT_MS);
  if (category !== 'quota_exceeded') return undefined;
  if (code === 'uploadLimitExceeded') return now + (signalMs ?? UPLOAD_CAP_WAIT_MS);
  // quotaExceeded: "retrying the same day is useless" (§8.7); the project's quota refills at midnight Pacific.
  return nextQuotaReset(now);
}

export function apiFailure(err: GoogleApiError, httpStatus: number, now: number, headers?: Headers): PlatformFailure {
  const { category, code } = apiErrorCategory(err, httpStatus);
  const detail = scrub(err.message) || code;
  const message = `${LEAD[category]}: ${detail}${detail === code ? '' : ` (${code})`}`;
  const extra: Omit<PlatformFailure, 'ok' | 'category' | 'message'> = { platformCode: code, httpStatus };
  const retryAt = retryAtOf(category, code, now, retryAfterMs(headers, now) ?? err.retryDelayMs);
  if (retryAt !== undefined) extra.retryAt = retryAt;
  return failure(category, message, extra);
}

const BY_OAUTH_ERROR: Record<string, FailureCategory> = {
  // Refresh token revoked or expired, code reused or expired, PKCE verifier wrong: the grant is gone.
  invalid_grant: 'auth_expired',
  invalid_token: 'auth_expired',
  redirect_uri_mismatch: 'content_rejected',
  invalid_request: 'content_rejected',
  invalid_client: 'permission_missing',
  unauthorized_client: 'permission_missing',
  invalid_scope: 'permission_missing',
  access_denied: 'permission_missing',
  unsupported_grant_type: 'permission_missing',
  rate_limit_exceeded: 'rate_limited',
  server_error: 'platform_unavailable',
  temporarily_unavailable: 'platform_unavailable',
};

export function oauthFailure(err: { error: string; description: string }, httpStatus: number, now: number, headers?: Headers): PlatformFailure {
  const category = notAuthOn404(httpStatus, BY_OAUTH_ERROR[err.error] ?? categoryFromHttp(httpStatus));
  const detail = scrub(err.description);
  const message = `Google refused the token request: ${detail ? `${detail} (${err.error})` : err.error}`;
  const extra: Omit<PlatformFailure, 'ok' | 'category' | 'message'> = { platformCode: err.error, httpStatus };
  if (category === 'rate_limited') extra.retryAt = now + (retryAfterMs(headers, now) ?? RATE_LIMIT_WAIT_MS);
  return failure(category, message, extra);
}

/** For a request that got no answer. A call that may have created something has an unknown outcome. */
export function unansweredFailure(result: Extract<HttpResult, { sent: false | 'unknown' }>, creates: boolean): PlatformFailure {
  if (result.sent === 'unknown' && creates) {
    return failure('outcome_unknown', `YouTube did not answer; the change may or may not have been made (${result.error})`);
  }
  return failure('platform_unavailable', `YouTube could not be reached (${result.error})`);
}

/** For an answered request that is not a success, whatever its body looks like. */
export function answeredFailure(result: Extract<HttpResult, { sent: true }>, now: number): PlatformFailure {
  const api = parseApiError(result.body);
  if (api) return apiFailure(api, result.status, now, result.headers);
  const oauth = parseOAuthError(result.body);
  if (oauth) return oauthFailure(oauth, result.status, now, result.headers);
  const category = categoryFromHttp(result.status);
  const extra: Omit<PlatformFailure, 'ok' | 'category' | 'message'> = { httpStatus: result.status };
  const retryAt = retryAtOf(category, String(result.status), now, retryAfterMs(result.headers, now));
  if (retryAt !== undefined) extra.retryAt = retryAt;
  return failure(category, `${LEAD[category]}: HTTP ${result.status}`, extra);
}
