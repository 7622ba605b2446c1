// Calls to TikTok's API: the bearer-authenticated envelope endpoints and the form-encoded OAuth ones.
// Every answer comes back as data: the envelope's `data` on success, or a PlatformFailure.
import type { AdapterDeps } from '../deps.ts';
import type { HttpRequest } from '../http.ts';
import { failure, type PlatformFailure } from '../types.ts';
import { answeredFailure, parseEnvelopeError, parseOAuthError, tiktokFailure, unansweredFailure } from './errors.ts';
export { asString, asNumber, isFailure } from '../answer-fields.ts';

export type Json = Record<string, unknown>;

export interface ApiOk {
  ok: true;
  data: Json;
  /** The raw answer, for int64 values JSON.parse would round (publicaly_available_post_id). */
  text: string;
}

export type ApiResult = ApiOk | PlatformFailure;

export function apiUrl(deps: AdapterDeps, path: string): string {
  return deps.app.apiUrl.replace(/\/+$/, '') + path;
}

export interface ApiCall {
  method: 'GET' | 'POST';
  path: string;
  token: string;
  query?: HttpRequest['query'];
  json?: unknown;
  /** True for calls that create a post: an unanswered one has an unknown outcome. */
  creates?: boolean;
  signal?: AbortSignal;
}

export async function callApi(deps: AdapterDeps, call: ApiCall): Promise<ApiResult> {
  const req: HttpRequest = {
    method: call.method,
    url: apiUrl(deps, call.path),
    query: call.query,
    headers: { authorization: `Bearer ${call.token}` },
    signal: call.signal,
  };
  if (call.json !== undefined) req.body = { json: call.json };
  const result = await deps.http.request(req);
  if (result.sent !== true) return unansweredFailure(result, call.creates === true);
  const now = deps.clock.now();
  const err = parseEnvelopeError(result.body);
  if (err) return tiktokFailure(err, result.status, now, result.headers);
  if (result.status < 200 || result.status >= 300) return answeredFailure(result, now);
  if (!result.body || typeof result.body !== 'object') {
    // Accepted, but unreadable: a creating call may have taken effect.
    const text = 'TikTok answered with a body Herald cannot read';
    return call.creates ? failure('outcome_unknown', `${text}; the post may exist`) : failure('platform_unavailable', text, { httpStatus: result.status });
  }
  const data = (result.body as { data?: unknown }).data;
  return { ok: true, data: data && typeof data === 'object' ? (data as Json) : {}, text: result.text };
}

/** POSTs a form to an OAuth endpoint; the answer is flat JSON, not the envelope. */
export async function callOAuth(deps: AdapterDeps, path: string, form: Record<string, string | undefined>): Promise<{ ok: true; body: Json } | PlatformFailure> {
  const result = await deps.http.request({ method: 'POST', url: apiUrl(deps, path), body: { form } });
  if (result.sent !== true) return unansweredFailure(result, false);
  const now = deps.clock.now();
  // The HTTP status of OAuth errors is not documented (integrators report 200 as well as 4xx): the body decides.
  const err = parseOAuthError(result.body) ?? parseEnvelopeError(result.body);
  if (err) return tiktokFailure(err, result.status, now, result.headers);
  if (result.status < 200 || result.status >= 300) return answeredFailure(result, now);
  const body = result.body && typeof result.body === 'object' ? (result.body as Json) : {};
  return { ok: true, body };
}
