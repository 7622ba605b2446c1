// The few ways Herald calls graph.threads.net. Tokens travel as the access_token parameter, as in
// Meta's own Threads samples; PlatformHttp drops query strings from its call log.
import type { AdapterDeps } from '../deps.ts';
import type { HttpResult } from '../http.ts';
import { THREADS_GRAPH_VERSION } from './info.ts';

export type Query = Record<string, string | number | boolean | undefined>;
export type OkResult = Extract<HttpResult, { sent: true }>;

export interface ThreadsApi {
  /** GET on the unversioned host root (token endpoints). */
  getRoot(path: string, query: Query): Promise<HttpResult>;
  postRoot(path: string, form: Query): Promise<HttpResult>;
  /** GET /v1.0/{path}. */
  get(path: string, token: string, query?: Query, signal?: AbortSignal): Promise<HttpResult>;
  /** POST /v1.0/{path} with a form body. */
  post(path: string, token: string, form: Query, signal?: AbortSignal): Promise<HttpResult>;
  /** DELETE /v1.0/{path}. */
  delete(path: string, token: string, signal?: AbortSignal): Promise<HttpResult>;
}

export function createThreadsApi(deps: AdapterDeps): ThreadsApi {
  const base = deps.app.apiUrl.replace(/\/+$/u, '');
  const versioned = (path: string) => `${base}/${THREADS_GRAPH_VERSION}/${path}`;
  return {
    getRoot: (path, query) => deps.http.request({ method: 'GET', url: `${base}/${path}`, query }),
    postRoot: (path, form) => deps.http.request({ method: 'POST', url: `${base}/${path}`, body: { form } }),
    get: (path, token, query = {}, signal) =>
      deps.http.request({ method: 'GET', url: versioned(path), query: { ...query, access_token: token }, signal }),
    post: (path, token, form, signal) =>
      deps.http.request({ method: 'POST', url: versioned(path), body: { form: { ...form, access_token: token } }, signal }),
    delete: (path, token, signal) => deps.http.request({ method: 'DELETE', url: versioned(path), query: { access_token: token }, signal }),
  };
}

/** An object body, or an empty one when the answer was not JSON. */
export function bodyOf(res: OkResult): Record<string, unknown> {
  return res.body && typeof res.body === 'object' ? (res.body as Record<string, unknown>) : {};
}

/**
 * Reads a top-level field as a string straight from the raw JSON text. Threads sends `user_id` as a
 * JSON number that can exceed 2^53, which JSON.parse would silently round.
 */
export function rawField(text: string, name: string): string | undefined {
  const match = new RegExp(`"${name}"\\s*:\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|(-?\\d+))`, 'u').exec(text);
  return match ? (match[1] ?? match[2]) : undefined;
}

export function stringField(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

export function numberField(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^\d+$/u.test(value)) return Number(value);
  return undefined;
}
