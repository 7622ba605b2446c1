// TikTok's error answers → Herald's failure categories. Pure.
// Two shapes: the API envelope {"data":{…},"error":{"code","message","log_id"}} (success ⇔ code "ok"),
// and the OAuth endpoints' {"error","error_description","log_id"}. Post status FAILED carries a
// fail_reason string from the same vocabulary.
import { failure, notAuthOn404, type FailureCategory, type PlatformFailure } from '../types.ts';
import type { HttpResult } from '../http.ts';
import { DAILY_CAP_WAIT_MS, RATE_LIMIT_WAIT_MS } from './info.ts';

export interface TikTokError {
  code: string;
  message: string;
  logId?: string;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** The envelope's error when it is not "ok"; null for success or a body that is not an envelope. */
export function parseEnvelopeError(body: unknown): TikTokError | null {
  if (!body || typeof body !== 'object') return null;
  const err = (body as { error?: unknown }).error;
  if (!err || typeof err !== 'object') return null;
  const code = str((err as Record<string, unknown>).code);
  if (!code || code === 'ok') return null;
  return { code, message: str((err as Record<string, unknown>).message) ?? '', logId: str((err as Record<string, unknown>).log_id) };
}

/** The OAuth endpoints' error ({"error":"invalid_grant","error_description":…}). */
export function parseOAuthError(body: unknown): TikTokError | null {
  if (!body || typeof body !== 'object') return null;
  const b = body as Record<string, unknown>;
  const code = str(b.error);
  if (!code) return null;
  return { code, message: str(b.error_description) ?? '', logId: str(b.log_id) };
}

const CATEGORY_BY_CODE: Record<string, FailureCategory> = {
  // API v2 error codes
  access_token_invalid: 'auth_expired',
  scope_not_authorized: 'permission_missing',
  scope_permission_missed: 'permission_missing',
  rate_limit_exceeded: 'rate_limited',
  internal_error: 'platform_unavailable',
  invalid_params: 'content_rejected',
  invalid_param: 'content_rejected',
  invalid_file_upload: 'media_rejected',
  // Content Posting API
  spam_risk_too_many_posts: 'quota_exceeded',
  spam_risk_too_many_pending_share: 'quota_exceeded',
  reached_active_user_cap: 'quota_exceeded',
  spam_risk_user_banned_from_posting: 'content_rejected',
  spam_risk_text: 'content_rejected',
  spam_risk: 'content_rejected',
  privacy_level_option_mismatch: 'content_rejected',
  unaudited_client_can_only_post_to_private_accounts: 'content_rejected',
  app_version_check_failed: 'content_rejected',
  url_ownership_unverified: 'media_rejected',
  // Post status fail_reason
  file_format_check_failed: 'media_rejected',
  duration_check_failed: 'media_rejected',
  frame_rate_check_failed: 'media_rejected',
  picture_size_check_failed: 'media_rejected',
  video_pull_failed: 'media_rejected',
  photo_pull_failed: 'media_rejected',
  internal: 'platform_unavailable',
  publish_cancelled: 'content_rejected',
  auth_removed: 'auth_expired',
  // OAuth (RFC 6749 names, as TikTok's Login Kit uses them)
  invalid_grant: 'auth_expired',
  invalid_request: 'auth_expired',
  access_denied: 'permission_missing',
  invalid_client: 'permission_missing',
  unauthorized_client: 'permission_missing',
  invalid_scope: 'permission_missing',
  unsupported_grant_type: 'permission_missing',
  server_error: 'platform_unavailable',
  temporarily_unavailable: 'platform_unavailable',
};

/** Codes whose limit resets on a rolling day rather than a minute. */
const DAILY_CODES = new Set(['spam_risk_too_many_posts', 'spam_risk_too_many_pending_share', 'reached_active_user_cap']);

function categoryFromStatus(status: number): FailureCategory {
  if (status === 401) return 'auth_expired';
  // A path the host does not have (a wrong HERALD_TIKTOK_API_URL): passing trouble, not the post's fault.
  if (status === 404) return 'platform_unavailable';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'platform_unavailable';
  // TikTok answers policy refusals (spam_risk_*, audit rules) with 4xx; an unknown one is most
  // likely another refusal of this post, not something a retry fixes.
  return 'content_rejected';
}

export function tiktokErrorCategory(code: string, httpStatus: number): FailureCategory {
  return notAuthOn404(httpStatus, CATEGORY_BY_CODE[code] ?? categoryFromStatus(httpStatus));
}

// Belt and braces: TikTok's texts carry no tokens, but a message must never leak one.
const TOKEN_LIKE = /\b(?:act|rft|clt|tt)\.[\w.~+/=-]{8,}/g;

export function scrub(text: string): string {
  return text.replace(TOKEN_LIKE, '[token]').replace(/\s+/g, ' ').trim().slice(0, 300);
}

const LEAD: Partial<Record<FailureCategory, string>> = {
  auth_expired: 'TikTok no longer accepts this account\'s authorization',
  permission_missing: 'TikTok refused for lack of a permission',
  content_rejected: 'TikTok rejected the post',
  media_rejected: 'TikTok rejected the media',
  rate_limited: 'TikTok is rate limiting this account',
  quota_exceeded: 'TikTok\'s posting limit for this account is reached',
  platform_unavailable: 'TikTok is unavailable',
};

function retryAfterMs(headers: Headers | undefined): number | undefined {
  const raw = headers?.get('retry-after');
  if (!raw) return undefined;
  const seconds = Number(raw);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

export function tiktokFailure(err: TikTokError, httpStatus: number, now: number, headers?: Headers): PlatformFailure {
  const category = tiktokErrorCategory(err.code, httpStatus);
  const detail = scrub(err.message) || err.code;
  const message = `${LEAD[category] ?? 'TikTok refused'}: ${detail}${detail === err.code ? '' : ` (${err.code})`}`;
  const extra: Omit<PlatformFailure, 'ok' | 'category' | 'message'> = { platformCode: err.code };
  if (httpStatus > 0) extra.httpStatus = httpStatus;
  if (category === 'rate_limited') extra.retryAt = now + (retryAfterMs(headers) ?? RATE_LIMIT_WAIT_MS);
  if (category === 'quota_exceeded' && DAILY_CODES.has(err.code)) extra.retryAt = now + DAILY_CAP_WAIT_MS;
  return failure(category, message, extra);
}

/** A post that ended in status FAILED. */
export function failReasonFailure(reason: string, now: number): PlatformFailure {
  const code = reason || 'unknown';
  return tiktokFailure({ code, message: `publishing failed (${code})` }, 0, now);
}

/** For a request that did not get an answer. Creating calls with an unknown fate must be reconciled. */
export function unansweredFailure(result: Extract<HttpResult, { sent: false | 'unknown' }>, creates: boolean): PlatformFailure {
  if (result.sent === 'unknown' && creates) {
    return failure('outcome_unknown', `TikTok did not answer; the post may or may not exist (${result.error})`);
  }
  return failure('platform_unavailable', `TikTok could not be reached (${result.error})`);
}

/** For an answered request that is not a success, whatever its body looks like. */
export function answeredFailure(result: Extract<HttpResult, { sent: true }>, now: number): PlatformFailure {
  const err = parseEnvelopeError(result.body) ?? parseOAuthError(result.body);
  if (err) return tiktokFailure(err, result.status, now, result.headers);
  const category = categoryFromStatus(result.status);
  const extra: Omit<PlatformFailure, 'ok' | 'category' | 'message'> = { httpStatus: result.status };
  if (category === 'rate_limited') extra.retryAt = now + (retryAfterMs(result.headers) ?? RATE_LIMIT_WAIT_MS);
  return failure(category, `${LEAD[category] ?? 'TikTok refused'}: HTTP ${result.status}`, extra);
}
