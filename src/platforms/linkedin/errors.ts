// LinkedIn's error answers → Herald's failure categories. Pure. Three shapes reach us (7.10):
//   REST.li           {status, serviceErrorCode, code, message}
//   validation        {errorDetailType, message, errorDetails: {inputErrors: [{description, input, code}]}, status}
//   OAuth endpoints   {error, error_description}
// LinkedIn's throttles send no reset header (7.9): its quotas are daily and reset at midnight UTC.
import type { HttpResult } from '../http.ts';
import { failure, notAuthOn404, type FailureCategory, type PlatformFailure } from '../types.ts';

export interface LinkedInError {
  shape: 'rest' | 'oauth';
  status?: number;
  serviceErrorCode?: number;
  /** REST.li code (ACCESS_DENIED, DUPLICATE_POST …) or the OAuth error. */
  code?: string;
  message: string;
  inputErrors: { code?: string; description?: string }[];
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

export function parseLinkedInError(body: unknown): LinkedInError | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const b = body as Record<string, unknown>;
  const oauth = str(b.error);
  if (oauth) return { shape: 'oauth', code: oauth, message: str(b.error_description) ?? oauth, inputErrors: [] };
  const details = b.errorDetails as { inputErrors?: unknown } | undefined;
  const inputErrors = Array.isArray(details?.inputErrors)
    ? (details.inputErrors as Record<string, unknown>[]).filter((e) => e && typeof e === 'object').map((e) => ({ code: str(e.code), description: str(e.description) }))
    : [];
  const message = str(b.message);
  if (!message && inputErrors.length === 0 && b.serviceErrorCode === undefined && !str(b.code)) return null;
  return {
    shape: 'rest',
    status: typeof b.status === 'number' ? b.status : undefined,
    serviceErrorCode: typeof b.serviceErrorCode === 'number' ? b.serviceErrorCode : undefined,
    code: str(b.code) ?? inputErrors.find((e) => e.code)?.code,
    message: message ?? inputErrors.find((e) => e.description)?.description ?? '',
    inputErrors,
  };
}

const AUTH_CODES = new Set(['INVALID_ACCESS_TOKEN', 'REVOKED_ACCESS_TOKEN', 'EXPIRED_ACCESS_TOKEN', 'EMPTY_ACCESS_TOKEN']);
const AUTH_SERVICE_CODES = new Set([65600, 65601, 65602]);
const MEDIA_WORDS = /\b(media|image|images|video|videos|document|documents|upload|thumbnail|caption)\b|\/content\/(media|multiImage)/i;

function oauthCategory(code: string): FailureCategory {
  if (code === 'invalid_client' || code === 'unauthorized_client' || code === 'access_denied' || code === 'unauthorized_scope_error') return 'permission_missing';
  if (code === 'server_error' || code === 'temporarily_unavailable') return 'platform_unavailable';
  // invalid_request / invalid_grant: the code or refresh token is no good.
  return 'auth_expired';
}

function isAboutMedia(err: LinkedInError): boolean {
  return [err.message, ...err.inputErrors.map((e) => e.description ?? '')].some((t) => MEDIA_WORDS.test(t));
}

export function linkedInCategory(status: number, err: LinkedInError | null): FailureCategory {
  return notAuthOn404(status, category(status, err));
}

function category(status: number, err: LinkedInError | null): FailureCategory {
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'platform_unavailable';
  // A resource LinkedIn does not have (its own REST.li answer) is the post's problem; a 404 in any other
  // shape is a path the host does not have (a wrong HERALD_LINKEDIN_API_URL): passing trouble.
  if (status === 404 && err?.shape !== 'rest') return 'platform_unavailable';
  if (err?.shape === 'oauth') return oauthCategory(err.code ?? '');
  if (status === 401 || (err?.code && AUTH_CODES.has(err.code)) || (err?.serviceErrorCode !== undefined && AUTH_SERVICE_CODES.has(err.serviceErrorCode))) {
    return 'auth_expired';
  }
  // Missing scope or product ("Not enough permissions to access: …"), or no role on the Page.
  if (status === 403) return 'permission_missing';
  // A retired LinkedIn-Version: nothing wrong with the post; the operator must pin a current version.
  if (status === 426) return 'platform_unavailable';
  if (status === 413) return 'media_rejected';
  if (err && isAboutMedia(err)) return 'media_rejected';
  return 'content_rejected';
}

/** The URN named by a DUPLICATE_POST refusal ("Content is a duplicate of urn:li:share:…"). */
export function duplicateOf(err: LinkedInError | null): string | null | undefined {
  if (!err) return undefined;
  const isDuplicate = err.code === 'DUPLICATE_POST' || err.inputErrors.some((e) => e.code === 'DUPLICATE_POST') || /duplicate/i.test(err.message);
  if (!isDuplicate) return undefined;
  const text = [err.message, ...err.inputErrors.map((e) => e.description ?? '')].join(' ');
  return /urn:li:(?:share|ugcPost):\d+/.exec(text)?.[0] ?? null;
}

/** The next midnight UTC after `now`: when LinkedIn's daily quotas reset (MS api-guide rate limits). */
export function nextUtcMidnight(now: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
}

function retryAfterMs(headers: Headers | undefined, now: number): number | undefined {
  const raw = headers?.get('retry-after');
  if (!raw) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(raw);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}

// LinkedIn access tokens ("AQ…") are long base64url runs; none should reach a message, but mask any.
export function scrub(text: string): string {
  const clean = text.replace(/[A-Za-z0-9._~+/=-]{40,}/g, '[redacted]').replace(/\s+/g, ' ').trim();
  return clean.length > 300 ? `${clean.slice(0, 297)}...` : clean;
}

function detail(err: LinkedInError | null, status: number): string {
  if (!err) return `HTTP ${status}`;
  const specific = err.inputErrors.find((e) => e.description)?.description;
  const text = err.message && !/^ERROR :: /.test(err.message) ? err.message : (specific ?? err.message);
  return scrub(text || err.code || `HTTP ${status}`);
}

/** Turns an answered request that is not a success into a failure; `label` says what was attempted. */
export function answeredFailure(res: Extract<HttpResult, { sent: true }>, now: number, label: string): PlatformFailure {
  const err = parseLinkedInError(res.body);
  let category = linkedInCategory(res.status, err);
  const extra: Omit<PlatformFailure, 'ok' | 'category' | 'message'> = { httpStatus: res.status };
  const code = err?.code ?? (err?.serviceErrorCode !== undefined ? String(err.serviceErrorCode) : undefined);
  if (code) extra.platformCode = code;
  let message = `${label}: ${detail(err, res.status)}`;
  if (res.status === 429) {
    const after = retryAfterMs(res.headers, now);
    if (after !== undefined) {
      extra.retryAt = now + after;
    } else {
      // No reset signal: LinkedIn's quotas are per day and reset at midnight UTC.
      category = 'quota_exceeded';
      extra.retryAt = nextUtcMidnight(now);
      message = `${message} (LinkedIn's daily limit; it resets at 00:00 UTC)`;
    }
  }
  if (res.status === 426) message = `${message}; set HERALD_LINKEDIN_API_VERSION to a version LinkedIn serves (YYYYMM)`;
  return failure(category, message, extra);
}

/**
 * Any non-success. Not sent → platform_unavailable; unknown → outcome_unknown for calls that make
 * something public (a post, an edit, a comment), platform_unavailable for everything else.
 */
export function linkedInFailure(res: HttpResult, now: number, label: string, opts: { creates?: boolean } = {}): PlatformFailure {
  if (res.sent === false) return failure('platform_unavailable', `${label}: ${res.error}`);
  if (res.sent === 'unknown') {
    return opts.creates
      ? failure('outcome_unknown', `${label}: LinkedIn did not answer, so it may or may not have done it (${res.error})`)
      : failure('platform_unavailable', `${label}: ${res.error}`);
  }
  return answeredFailure(res, now, label);
}

/** An answered request; the brand keeps a `false` from narrowing answered requests away. */
export type Succeeded = Extract<HttpResult, { sent: true }> & { readonly __succeeded: true };

export function isSuccess(res: HttpResult): res is Succeeded {
  return res.sent === true && res.status >= 200 && res.status < 300;
}
