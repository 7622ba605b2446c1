// Calls to X's API host on behalf of a user (bearer) or the app (Basic, token endpoints only).
import type { AdapterDeps } from '../deps.ts';
import type { HttpBody, HttpRequest, HttpResult } from '../http.ts';

export interface XCall {
  method: HttpRequest['method'];
  path: string;
  token: string;
  query?: HttpRequest['query'];
  body?: HttpBody;
  signal?: AbortSignal;
}

export function apiUrl(deps: AdapterDeps, path: string): string {
  return `${deps.app.apiUrl.replace(/\/+$/, '')}${path}`;
}

export function callX(deps: AdapterDeps, call: XCall): Promise<HttpResult> {
  return deps.http.request({
    method: call.method,
    url: apiUrl(deps, call.path),
    query: call.query,
    headers: { authorization: `Bearer ${call.token}` },
    body: call.body,
    signal: call.signal,
  });
}

/** Confidential clients authenticate to the token endpoints with HTTP Basic (client id : secret). */
export function basicAuth(deps: AdapterDeps): string {
  return `Basic ${Buffer.from(`${deps.app.clientId}:${deps.app.clientSecret}`).toString('base64')}`;
}

export function callTokenEndpoint(deps: AdapterDeps, path: string, form: Record<string, string>): Promise<HttpResult> {
  return deps.http.request({
    method: 'POST',
    url: apiUrl(deps, path),
    headers: { authorization: basicAuth(deps) },
    body: { form },
  });
}

/** `data` of a v2 answer; X may add a partial `errors` array beside it, which does not undo a success. */
export function dataOf(body: unknown): Record<string, unknown> | undefined {
  const data = (body as { data?: unknown } | null)?.data;
  return data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined;
}

export function idOf(body: unknown): string | undefined {
  const id = dataOf(body)?.id;
  return typeof id === 'string' && /^\d+$/.test(id) ? id : undefined;
}
