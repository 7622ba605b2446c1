// X's error answers → Herald's failure categories. Three shapes reach us:
//   RFC 7807 problem JSON  {type, title, detail, status, errors?}        (v2 API)
//   legacy                 {errors: [{code, message}]}                    (rate limits, older hosts)
//   OAuth token endpoint   {error, error_description}                    (/2/oauth2/token, /revoke)
import { failure, notAuthOn404, type FailureCategory, type PlatformFailure } from '../types.ts';
import type { HttpResult } from '../http.ts';

export type XError =
  | { shape: 'problem'; type: string; title?: string; detail?: string; errors: { message?: string; parameters?: Record<string, unknown> }[] }
  | { shape: 'legacy'; code: number; message: string }
  | { shape: 'oauth'; error: string; description?: string };

const PROBLEM_PREFIXES = ['https://api.x.com/2/problems/', 'https://api.twitter.com/2/problems/'];
/** Problem types that mean the app or user lacks access, whatever the status. */
const PERMISSION_TYPES = new Set([
  'client-forbidden',
  'not-authorized-for-resource',
  'not-authorized-for-field',
  'field-unauthorized',
  'disallowed-resource',
]);

// Legacy (v1.1-era) codes still seen in v2 answers.
const LEGACY_CATEGORIES: Record<number, FailureCategory> = {
  32: 'auth_expired', // could not authenticate you
  89: 'auth_expired', // invalid or expired token
  88: 'rate_limited',
  185: 'rate_limited', // over daily status update limit
  130: 'platform_unavailable', // over capacity
  131: 'platform_unavailable', // internal error
  64: 'permission_missing', // account suspended
  220: 'permission_missing', // credentials do not allow access
  261: 'permission_missing', // app cannot perform write actions
  326: 'permission_missing', // account locked
  187: 'content_rejected', // status is a duplicate
  186: 'content_rejected', // too long
  385: 'content_rejected', // reply to a deleted or invisible post
  433: 'content_rejected', // reply restricted by the author
  324: 'media_rejected', // media id invalid
  323: 'media_rejected', // only one gif allowed
};

/** How long to wait when X throttles without a usable reset header. */
export const DEFAULT_RATE_WAIT_MS = 15 * 60_000;

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

export function problemType(type: string): string {
  for (const prefix of PROBLEM_PREFIXES) if (type.startsWith(prefix)) return type.slice(prefix.length);
  return type;
}

export function parseXError(body: unknown): XError | null {
  if (!body || typeof body !== 'object') return null;
  const b = body as Record<string, unknown>;
  // RFC 6749 error codes are lower-case words joined by underscores; any other `error` (another
  // server's "Not Found" text, say) is not an OAuth answer.
  const error = str(b.error);
  if (error && /^[a-z][a-z0-9_]*$/.test(error)) return { shape: 'oauth', error, description: str(b.error_description) };
  const errors = Array.isArray(b.errors) ? (b.errors as Record<string, unknown>[]).filter((e) => e && typeof e === 'object') : [];
  const type = str(b.type);
  if (type || str(b.title) || str(b.detail)) {
    return {
      shape: 'problem',
      type: problemType(type ?? 'about:blank'),
      title: str(b.title),
      detail: str(b.detail),
      errors: errors.map((e) => ({ message: str(e.message) ?? str(e.detail), parameters: (e.parameters ?? undefined) as Record<string, unknown> | undefined })),
    };
  }
  const first = errors[0];
  if (first && typeof first.code === 'number') return { shape: 'legacy', code: first.code, message: str(first.message) ?? `error ${first.code}` };
  return null;
}

function headerNumber(headers: Headers | undefined, name: string): number | undefined {
  const raw = headers?.get(name);
  if (raw === null || raw === undefined || raw.trim() === '') return undefined;
  const n = Number(raw);
  return Number.isFinite(n) ? n : undefined;
}

/**
 * When X lets this user call again (epoch ms), from its reset headers (epoch seconds). A 24-hour
 * window that is used up outranks the 15-minute one.
 */
export function rateLimitResetAt(headers: Headers | undefined): number | undefined {
  const resets: number[] = [];
  for (const prefix of ['x-user-limit-24hour', 'x-app-limit-24hour']) {
    const reset = headerNumber(headers, `${prefix}-reset`);
    const remaining = headerNumber(headers, `${prefix}-remaining`);
    if (reset !== undefined && remaining !== undefined && remaining <= 0) resets.push(reset * 1000);
  }
  const reset = headerNumber(headers, 'x-rate-limit-reset');
  if (reset !== undefined && (resets.length === 0 || (headerNumber(headers, 'x-rate-limit-remaining') ?? 0) <= 0)) resets.push(reset * 1000);
  return resets.length > 0 ? Math.max(...resets) : undefined;
}

function isAboutMedia(err: XError): boolean {
  if (err.shape !== 'problem') return false;
  if (err.errors.some((e) => e.parameters && Object.keys(e.parameters).some((k) => k.startsWith('media')))) return true;
  const text = [err.detail, ...err.errors.map((e) => e.message)].join(' ');
  return /\b(media|video|image|gif|photo)s?\b/i.test(text);
}

function oauthCategory(error: string): FailureCategory {
  if (error === 'unauthorized_client' || error === 'invalid_client' || error === 'invalid_scope' || error === 'access_denied') {
    return 'permission_missing';
  }
  return 'auth_expired'; // invalid_request / invalid_grant: the code or refresh token is no good
}

function forbiddenCategory(err: XError): FailureCategory {
  if (err.shape !== 'problem') return 'permission_missing';
  if (PERMISSION_TYPES.has(err.type)) return 'permission_missing';
  const detail = err.detail ?? '';
  if (/duplicate/i.test(detail)) return 'content_rejected';
  if (isAboutMedia(err)) return 'media_rejected';
  if (detail === '' || /^forbidden\.?$/i.test(detail) || /not permitted to perform this action|scope|permission/i.test(detail)) {
    return 'permission_missing';
  }
  return 'content_rejected';
}

export function xErrorCategory(status: number, err: XError | null): FailureCategory {
  return notAuthOn404(status, category(status, err));
}

function category(status: number, err: XError | null): FailureCategory {
  // A post X does not have (replying to a deleted one) is the post's problem; any other 404 is a route
  // the host does not have (a wrong HERALD_TWITTER_API_URL): passing trouble, never an expired token.
  if (status === 404) return err?.shape === 'problem' && err.type === 'resource-not-found' ? 'content_rejected' : 'platform_unavailable';
  if (err?.shape === 'oauth') {
    if (status === 429) return 'rate_limited';
    if (status >= 500) return 'platform_unavailable';
    return oauthCategory(err.error);
  }
  if (err?.shape === 'legacy' && LEGACY_CATEGORIES[err.code]) return LEGACY_CATEGORIES[err.code]!;
  if (err?.shape === 'problem' && err.type === 'usage-capped') return 'quota_exceeded';
  if (status === 401) return 'auth_expired';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'platform_unavailable';
  if (status === 403) return err ? forbiddenCategory(err) : 'permission_missing';
  if (status === 413) return 'media_rejected';
  if (err?.shape === 'problem' && isAboutMedia(err)) return 'media_rejected';
  return 'content_rejected';
}

// Tokens never appear in X's error texts, but a long opaque run is masked anyway before it reaches a message.
function scrub(text: string): string {
  const clean = text.replace(/[A-Za-z0-9._~+/=-]{40,}/g, '[redacted]').replace(/\s+/g, ' ').trim();
  return clean.length > 300 ? `${clean.slice(0, 297)}...` : clean;
}

export function xErrorText(err: XError | null, status: number): string {
  if (!err) return `HTTP ${status}`;
  if (err.shape === 'oauth') return err.description ? `${err.description} (${err.error})` : err.error;
  if (err.shape === 'legacy') return err.message;
  const specific = err.errors.find((e) => e.message)?.message;
  const generic = /one or more parameters to your request was invalid/i.test(err.detail ?? '');
  return (generic && specific) || err.detail || specific || err.title || `HTTP ${status}`;
}

function platformCode(err: XError | null): string | undefined {
  if (!err) return undefined;
  if (err.shape === 'oauth') return err.error;
  if (err.shape === 'legacy') return String(err.code);
  return err.type === 'about:blank' ? (err.title ?? err.type) : err.type;
}

/** Turns an answer that is not a success into a failure. */
export function xAnswerFailure(res: Extract<HttpResult, { sent: true }>, now: number, label: string): PlatformFailure {
  const err = parseXError(res.body);
  const category = xErrorCategory(res.status, err);
  const extra: Omit<PlatformFailure, 'ok' | 'category' | 'message'> = { httpStatus: res.status };
  const code = platformCode(err);
  if (code) extra.platformCode = code;
  const resetAt = rateLimitResetAt(res.headers);
  if (category === 'rate_limited') extra.retryAt = resetAt && resetAt > now ? resetAt : now + DEFAULT_RATE_WAIT_MS;
  if (category === 'quota_exceeded' && resetAt && resetAt > now) extra.retryAt = resetAt;
  return failure(category, `${label}: ${scrub(xErrorText(err, res.status))}`, extra);
}

/**
 * Any non-success: not sent → platform_unavailable; unknown → outcome_unknown for calls that create
 * something public (a post, an edit), platform_unavailable for everything else.
 */
export function xFailure(res: HttpResult, now: number, label: string, opts: { creates?: boolean } = {}): PlatformFailure {
  if (res.sent === false) return failure('platform_unavailable', `${label}: ${res.error}`);
  if (res.sent === 'unknown') return failure(opts.creates ? 'outcome_unknown' : 'platform_unavailable', `${label}: ${res.error}`);
  return xAnswerFailure(res, now, label);
}

export function isSuccess(res: HttpResult): res is Extract<HttpResult, { sent: true }> {
  return res.sent === true && res.status >= 200 && res.status < 300;
}
