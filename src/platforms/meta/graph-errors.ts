// Meta's Graph error envelope, shared by Facebook Pages, Instagram and Threads:
// {"error":{"message","type","code","error_subcode","error_user_title","error_user_msg","fbtrace_id"}}
import { failure, notAuthOn404, type FailureCategory, type PlatformFailure } from '../types.ts';
import type { HttpResult } from '../http.ts';

export interface GraphError {
  message: string;
  type?: string;
  code?: number;
  error_subcode?: number;
  error_user_title?: string;
  error_user_msg?: string;
  fbtrace_id?: string;
  /** Graph's own hint that retrying the same call may succeed. */
  is_transient?: boolean;
}

export function parseGraphError(body: unknown): GraphError | null {
  if (!body || typeof body !== 'object') return null;
  const err = (body as { error?: unknown }).error;
  if (!err || typeof err !== 'object') return null;
  const e = err as Record<string, unknown>;
  const num = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : undefined);
  return {
    message: typeof e.message === 'string' ? e.message : 'unknown Graph API error',
    type: typeof e.type === 'string' ? e.type : undefined,
    code: num(e.code),
    error_subcode: num(e.error_subcode),
    error_user_title: typeof e.error_user_title === 'string' ? e.error_user_title : undefined,
    error_user_msg: typeof e.error_user_msg === 'string' ? e.error_user_msg : undefined,
    fbtrace_id: typeof e.fbtrace_id === 'string' ? e.fbtrace_id : undefined,
    is_transient: e.is_transient === true ? true : undefined,
  };
}

const THROTTLE_CODES = new Set([4, 17, 32, 613, 80001, 80002, 80005, 80006, 80008, 341]);
const TRANSIENT_CODES = new Set([1, 2]);
// 104: "An access token is required" — no usable token, same remedy as an expired one.
const AUTH_CODES = new Set([190, 102, 104]);

// Publishing subcodes (Instagram 2207xxx and friends) that are about the media file itself.
const MEDIA_SUBCODES = new Set([
  2207003, 2207004, 2207005, 2207006, 2207008, 2207009, 2207020, 2207023, 2207026, 2207028, 2207052, 2207057,
  2207077, 36001, 36003, 1366046, 2061006,
]);
const RETRYABLE_SUBCODES = new Set([2207027, 2207053, 2207082, 1363047, 1609010]);
const QUOTA_SUBCODES = new Set([2207042]);
const THROTTLE_SUBCODES = new Set([1390008]);
const ACCOUNT_SUBCODES = new Set([2207050, 1404078, 4854002]);

/** Default wait when Meta throttles without saying for how long. */
export const DEFAULT_THROTTLE_WAIT_MS = 5 * 60_000;
/**
 * Default wait when a publishing quota is used up. Quotas are rolling 24-hour windows and Meta does not
 * say when the oldest post leaves the window, so look again in an hour rather than a full day.
 */
export const DEFAULT_QUOTA_WAIT_MS = 60 * 60_000;

/**
 * Reads `estimated_time_to_regain_access` (minutes) from X-Business-Use-Case-Usage, the only place
 * Meta says when a throttle ends.
 */
export function regainAccessAt(headers: Headers | undefined, now: number): number | undefined {
  const raw = headers?.get('x-business-use-case-usage');
  if (!raw) return undefined;
  try {
    const usage = JSON.parse(raw) as Record<string, Array<{ estimated_time_to_regain_access?: number }>>;
    let minutes = 0;
    for (const entries of Object.values(usage)) {
      for (const entry of entries ?? []) minutes = Math.max(minutes, Number(entry.estimated_time_to_regain_access ?? 0));
    }
    return minutes > 0 ? now + minutes * 60_000 : undefined;
  } catch {
    return undefined;
  }
}

export function graphErrorCategory(err: GraphError, httpStatus: number): FailureCategory {
  return notAuthOn404(httpStatus, category(err, httpStatus));
}

function category(err: GraphError, httpStatus: number): FailureCategory {
  const { code, error_subcode: sub } = err;
  if (sub !== undefined) {
    if (QUOTA_SUBCODES.has(sub)) return 'quota_exceeded';
    if (THROTTLE_SUBCODES.has(sub)) return 'rate_limited';
    if (RETRYABLE_SUBCODES.has(sub)) return 'platform_unavailable';
    if (MEDIA_SUBCODES.has(sub)) return 'media_rejected';
    if (ACCOUNT_SUBCODES.has(sub)) return 'permission_missing';
  }
  if (code !== undefined) {
    if (AUTH_CODES.has(code)) return 'auth_expired';
    if (code === 10 || (code >= 200 && code <= 299)) return 'permission_missing';
    if (THROTTLE_CODES.has(code)) return 'rate_limited';
    if (TRANSIENT_CODES.has(code)) return 'platform_unavailable';
    if (err.is_transient) return 'platform_unavailable';
    if (code === 9004) return 'media_rejected';
    if (code === 100 || code === 368 || code === 506 || code === 1609005 || code === 24) return 'content_rejected';
  }
  if (httpStatus === 401) return 'auth_expired';
  if (httpStatus === 403) return 'permission_missing';
  if (httpStatus === 429) return 'rate_limited';
  if (httpStatus >= 500) return 'platform_unavailable';
  return 'content_rejected';
}

function graphMessage(err: GraphError): string {
  const detail = err.error_user_msg && err.error_user_msg !== err.message ? `${err.message} (${err.error_user_msg})` : err.message;
  const code = err.code !== undefined ? ` [code ${err.code}${err.error_subcode !== undefined ? `/${err.error_subcode}` : ''}]` : '';
  return `${detail}${code}`;
}

/**
 * Turns a Graph answer that is not a success into a failure. `label` names the call for the message
 * ("Instagram media_publish").
 */
export function graphFailure(res: HttpResult, now: number, label: string): PlatformFailure {
  if (res.sent === false) return failure('platform_unavailable', `${label}: ${res.error}`);
  if (res.sent === 'unknown') return failure('outcome_unknown', `${label}: ${res.error}`);
  const err = parseGraphError(res.body);
  if (!err) {
    // No Graph envelope: not Graph answering. A 404 then is a path the host does not have (a wrong
    // HERALD_FACEBOOK_GRAPH_URL / HERALD_THREADS_API_URL): passing trouble, not this post's fault.
    const category: FailureCategory =
      res.status === 429 || res.status >= 500 || res.status === 404
        ? res.status === 429
          ? 'rate_limited'
          : 'platform_unavailable'
        : res.status === 401
          ? 'auth_expired'
          : 'content_rejected';
    return failure(category, `${label}: HTTP ${res.status}`, {
      httpStatus: res.status,
      ...(category === 'rate_limited' ? { retryAt: regainAccessAt(res.headers, now) ?? now + DEFAULT_THROTTLE_WAIT_MS } : {}),
    });
  }
  const category = graphErrorCategory(err, res.status);
  const platformCode = err.code !== undefined ? `${err.code}${err.error_subcode !== undefined ? `/${err.error_subcode}` : ''}` : undefined;
  const extra: Omit<PlatformFailure, 'ok' | 'category' | 'message'> = { httpStatus: res.status, platformCode };
  if (category === 'rate_limited') extra.retryAt = regainAccessAt(res.headers, now) ?? now + DEFAULT_THROTTLE_WAIT_MS;
  if (category === 'quota_exceeded') extra.retryAt = regainAccessAt(res.headers, now) ?? now + DEFAULT_QUOTA_WAIT_MS;
  return failure(category, `${label}: ${graphMessage(err)}`, extra);
}

/** True when a Graph answer is a success (2xx and no error envelope). */
export function graphOk(res: HttpResult): res is Extract<HttpResult, { sent: true }> {
  return res.sent === true && res.status >= 200 && res.status < 300 && parseGraphError(res.body) === null;
}
