// Calls to Pinterest's API v5: bearer-authenticated JSON endpoints, and the token endpoint with HTTP
// Basic client authentication. Every answer comes back as data: the JSON body, or a PlatformFailure.
import type { AdapterDeps } from '../deps.ts';
import type { HttpRequest } from '../http.ts';
import { failure, type PlatformFailure } from '../types.ts';
import { answeredFailure, parseError, unansweredFailure } from './errors.ts';
export { asString, asNumber, isFailure } from '../answer-fields.ts';

export type Json = Record<string, unknown>;

export interface ApiOk {
  ok: true;
  status: number;
  body: Json;
  headers: Headers;
}

export type ApiResult = ApiOk | PlatformFailure;

export function apiUrl(deps: AdapterDeps, path: string): string {
  return deps.app.apiUrl.replace(/\/+$/, '') + path;
}

export interface ApiCall {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  token: string;
  query?: HttpRequest['query'];
  json?: unknown;
  /** True for the call that creates a Pin: an unanswered one has an unknown outcome. */
  creates?: boolean;
  /** What Herald was doing, for messages ("creating the Pin"). */
  doing?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
}

export async function callApi(deps: AdapterDeps, call: ApiCall): Promise<ApiResult> {
  const req: HttpRequest = {
    method: call.method,
    url: apiUrl(deps, call.path),
    query: call.query,
    headers: { authorization: `Bearer ${call.token}` },
    signal: call.signal,
    timeoutMs: call.timeoutMs,
  };
  if (call.json !== undefined) req.body = { json: call.json };
  const ctx = { doing: call.doing };
  const result = await deps.http.request(req);
  if (result.sent !== true) return unansweredFailure(result, call.creates === true, ctx);
  if (result.status < 200 || result.status >= 300) return answeredFailure(result, deps.clock.now(), ctx);
  if (result.text.length === 0) return { ok: true, status: result.status, body: {}, headers: result.headers };
  if (!result.body || typeof result.body !== 'object' || Array.isArray(result.body)) {
    // Accepted, but unreadable: a creating call may have taken effect.
    const text = `Pinterest answered ${result.status} with a body Herald cannot read${call.doing ? ` while ${call.doing}` : ''}`;
    return call.creates ? failure('outcome_unknown', `${text}; the Pin may exist`, { httpStatus: result.status }) : failure('platform_unavailable', text, { httpStatus: result.status });
  }
  return { ok: true, status: result.status, body: result.body as Json, headers: result.headers };
}

/** POSTs a form to /v5/oauth/token (or /revoke) with the app's credentials as HTTP Basic (§9.2). */
export async function callToken(deps: AdapterDeps, path: string, form: Record<string, string | undefined>): Promise<{ ok: true; body: Json } | PlatformFailure> {
  const basic = Buffer.from(`${deps.app.clientId}:${deps.app.clientSecret}`, 'utf8').toString('base64');
  const result = await deps.http.request({
    method: 'POST',
    url: deps.app.tokenUrl.replace(/\/+$/, '') + path,
    headers: { authorization: `Basic ${basic}` },
    body: { form },
  });
  const ctx = { doing: 'asking for tokens' };
  if (result.sent !== true) return unansweredFailure(result, false, ctx);
  if (result.status === 401 && parseError(result.body)?.code === 2) {
    // Client authentication failed: Herald's app credentials are wrong, not the account's grant.
    return failure('platform_unavailable', 'Pinterest refused Herald\'s app credentials (check HERALD_PINTEREST_CLIENT_ID and HERALD_PINTEREST_CLIENT_SECRET)', {
      httpStatus: 401,
      platformCode: '2',
    });
  }
  if (result.status < 200 || result.status >= 300) return answeredFailure(result, deps.clock.now(), ctx);
  const body = result.body && typeof result.body === 'object' && !Array.isArray(result.body) ? (result.body as Json) : {};
  return { ok: true, body };
}

/** Pinterest ids are digit strings; some clients send them as numbers. Never parse them as numbers. */
export function asId(v: unknown): string | undefined {
  if (typeof v === 'string' && /^\d+$/.test(v)) return v;
  return undefined;
}
