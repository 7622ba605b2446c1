// Calls to LinkedIn: the versioned REST.li API (/rest/*: LinkedIn-Version and protocol 2.0 headers on
// every call, 7.4), the unversioned identity resources (/v2/*), the OAuth endpoints below the token URL,
// and the upload URLs initializeUpload hands out. Every call returns the raw HttpResult; errors.ts
// turns a non-success into a failure.
import type { AdapterDeps } from '../deps.ts';
import type { HttpResult } from '../http.ts';
import { DEFAULT_API_VERSION } from './info.ts';
export { asString, asNumber } from '../answer-fields.ts';

export type Json = Record<string, unknown>;

export function apiBase(deps: AdapterDeps): string {
  return deps.app.apiUrl.replace(/\/+$/, '');
}

export function tokenBase(deps: AdapterDeps): string {
  return deps.app.tokenUrl.replace(/\/+$/, '');
}

export function apiVersion(deps: AdapterDeps): string {
  return deps.app.apiVersion || DEFAULT_API_VERSION;
}

/** A URN as a REST.li 2.0 path key: fully percent-encoded, parentheses included (7.4). */
export function encodeUrn(urn: string): string {
  return encodeURIComponent(urn).replace(/[()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** A REST.li 2.0 list for a query: `List(a,b)` with each member encoded and the syntax left bare. */
export function restliList(values: string[]): string {
  return `List(${values.map(encodeUrn).join(',')})`;
}

export interface RestCall {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Below the API base, with its query already encoded when it holds REST.li syntax. */
  path: string;
  token: string;
  query?: Record<string, string | number | undefined>;
  json?: unknown;
  /** X-RestLi-Method, for calls whose HTTP method does not say it (PARTIAL_UPDATE, DELETE, FINDER). */
  restliMethod?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** A call to the versioned API. */
export function callRest(deps: AdapterDeps, call: RestCall): Promise<HttpResult> {
  const headers: Record<string, string> = {
    authorization: `Bearer ${call.token}`,
    'linkedin-version': apiVersion(deps),
    'x-restli-protocol-version': '2.0.0',
  };
  if (call.restliMethod) headers['x-restli-method'] = call.restliMethod;
  return deps.http.request({
    method: call.method,
    url: apiBase(deps) + call.path,
    query: call.query,
    headers,
    body: call.json === undefined ? undefined : { json: call.json },
    signal: call.signal,
    timeoutMs: call.timeoutMs,
  });
}

/** A call to an unversioned identity resource (/v2/userinfo, /v2/me): no version header. */
export function callV2(deps: AdapterDeps, path: string, token: string): Promise<HttpResult> {
  return deps.http.request({
    method: 'GET',
    url: apiBase(deps) + path,
    headers: { authorization: `Bearer ${token}`, 'x-restli-protocol-version': '2.0.0' },
  });
}

/** A form POST to an OAuth endpoint below the token URL (/accessToken, /revoke, /introspectToken). */
export function callOAuth(deps: AdapterDeps, path: string, form: Record<string, string | undefined>): Promise<HttpResult> {
  return deps.http.request({ method: 'POST', url: tokenBase(deps) + path, body: { form } });
}

/**
 * Upload URLs are opaque (7.6) and may be presigned; LinkedIn's own clients send the bearer token to
 * them. Herald sends it only to LinkedIn's hosts (or the configured API host), never elsewhere.
 */
export function mayCarryToken(deps: AdapterDeps, uploadUrl: string): boolean {
  try {
    const url = new URL(uploadUrl);
    const host = url.hostname.toLowerCase();
    return url.origin === new URL(apiBase(deps)).origin || host === 'linkedin.com' || host.endsWith('.linkedin.com');
  } catch {
    return false;
  }
}

export function uploadBytes(
  deps: AdapterDeps,
  input: { url: string; token: string; bytes: Uint8Array; timeoutMs?: number; signal?: AbortSignal },
): Promise<HttpResult> {
  const headers: Record<string, string> = {};
  if (mayCarryToken(deps, input.url)) headers.authorization = `Bearer ${input.token}`;
  return deps.http.request({
    method: 'PUT',
    url: input.url,
    headers,
    body: { bytes: input.bytes, contentType: 'application/octet-stream' },
    // At least ~100 kB/s, as for other uploads.
    timeoutMs: input.timeoutMs ?? 30_000 + Math.ceil(input.bytes.byteLength / 100),
    signal: input.signal,
  });
}

export function asObject(v: unknown): Json {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {};
}
