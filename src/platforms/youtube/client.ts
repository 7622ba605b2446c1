// Calls to Google: the YouTube Data API (bearer token, JSON envelope errors) and the OAuth endpoints
// (form posts, flat errors). Every answer comes back as data: the parsed body, or a PlatformFailure.
import type { AdapterDeps } from '../deps.ts';
import type { HttpBody, HttpRequest } from '../http.ts';
import type { PlatformFailure } from '../types.ts';
import { answeredFailure, unansweredFailure } from './errors.ts';
export { asString, asNumber, isFailure } from '../answer-fields.ts';

export type Json = Record<string, unknown>;

export interface ApiOk {
  ok: true;
  status: number;
  headers: Headers;
  body: Json;
}

export type ApiResult = ApiOk | PlatformFailure;

const base = (url: string) => url.replace(/\/+$/, '');

/** A Data API path (`/youtube/v3/…`) or an upload path (`/upload/youtube/v3/…`) below HERALD_YOUTUBE_API_URL. */
export function apiUrl(deps: AdapterDeps, path: string): string {
  return base(deps.app.apiUrl) + path;
}

/** `/token`, `/revoke`, `/tokeninfo` below HERALD_YOUTUBE_TOKEN_URL. */
export function tokenUrl(deps: AdapterDeps, path: string): string {
  return base(deps.app.tokenUrl) + path;
}

export interface ApiCall {
  method: HttpRequest['method'];
  /** A path below the API URL, or a full URL (a resumable session URI). */
  path?: string;
  url?: string;
  token: string;
  query?: HttpRequest['query'];
  json?: unknown;
  bytes?: { data: Uint8Array; contentType: string };
  headers?: Record<string, string>;
  /** True for calls that may create or change something: an unanswered one has an unknown outcome. */
  creates?: boolean;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export async function callApi(deps: AdapterDeps, call: ApiCall): Promise<ApiResult> {
  let body: HttpBody | undefined;
  if (call.json !== undefined) body = { json: call.json };
  else if (call.bytes) body = { bytes: call.bytes.data, contentType: call.bytes.contentType };
  const result = await deps.http.request({
    method: call.method,
    url: call.url ?? apiUrl(deps, call.path ?? ''),
    query: call.query,
    headers: { authorization: `Bearer ${call.token}`, ...call.headers },
    body,
    timeoutMs: call.timeoutMs,
    signal: call.signal,
  });
  if (result.sent !== true) return unansweredFailure(result, call.creates === true);
  if (result.status < 200 || result.status >= 300) return answeredFailure(result, deps.clock.now());
  const parsed = result.body && typeof result.body === 'object' ? (result.body as Json) : {};
  return { ok: true, status: result.status, headers: result.headers, body: parsed };
}

/** POSTs a form to an OAuth endpoint (`/token`, `/revoke`); the answer is flat JSON. */
export async function callOAuth(deps: AdapterDeps, path: string, form: Record<string, string | undefined>): Promise<{ ok: true; body: Json } | PlatformFailure> {
  const result = await deps.http.request({ method: 'POST', url: tokenUrl(deps, path), body: { form } });
  if (result.sent !== true) return unansweredFailure(result, false);
  if (result.status < 200 || result.status >= 300) return answeredFailure(result, deps.clock.now());
  return { ok: true, body: result.body && typeof result.body === 'object' ? (result.body as Json) : {} };
}

export function asObject(v: unknown): Json {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {};
}

export function asArray(v: unknown): Json[] {
  return Array.isArray(v) ? v.filter((x): x is Json => Boolean(x) && typeof x === 'object' && !Array.isArray(x)) : [];
}
