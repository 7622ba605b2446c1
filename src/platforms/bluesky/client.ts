// XRPC calls to an account's PDS. The PDS is user input (the `service` given at connect), so every call
// goes through deps.serverHttp, where the outbound address rule applies; nothing here uses deps.http.
import type { AdapterDeps } from '../deps.ts';
import type { HttpResult } from '../http.ts';
import type { AccountCredentials, PlatformFailure } from '../types.ts';
import { failure } from '../types.ts';
import { transportFailure, xrpcFailure } from './errors.ts';
export { asString, isFailure } from '../answer-fields.ts';

export type Json = Record<string, unknown>;

export interface XrpcCall {
  /** The PDS's base URL (https://bsky.social, or the sandbox mount); /xrpc/<nsid> is appended. */
  server: string;
  nsid: string;
  /** Queries are GET with parameters; procedures POST with a JSON body or raw bytes. */
  method: 'GET' | 'POST';
  token?: string;
  query?: Record<string, string | number | boolean | undefined>;
  json?: unknown;
  bytes?: { data: Uint8Array; contentType: string };
  signal?: AbortSignal;
  timeoutMs?: number;
}

export type XrpcResult = Extract<HttpResult, { sent: true }> | Extract<HttpResult, { sent: false } | { sent: 'unknown' }>;

export function xrpc(deps: AdapterDeps, call: XrpcCall): Promise<HttpResult> {
  const headers: Record<string, string> = {};
  if (call.token) headers.authorization = `Bearer ${call.token}`;
  return deps.serverHttp.request({
    method: call.method,
    url: `${call.server.replace(/\/+$/, '')}/xrpc/${call.nsid}`,
    query: call.query,
    headers,
    body: call.bytes ? { bytes: call.bytes.data, contentType: call.bytes.contentType } : call.json !== undefined ? { json: call.json } : undefined,
    signal: call.signal,
    timeoutMs: call.timeoutMs,
  });
}

/** A 2xx answer. (Not a type guard: a failed check must not rule out the other answers with a status.) */
export function isOk(res: HttpResult): boolean {
  return res.sent === true && res.status >= 200 && res.status < 300;
}

/** The answer's JSON object ({} for no answer, an empty or a non-object body). */
export function bodyOf(res: HttpResult): Json {
  return res.sent === true && res.body && typeof res.body === 'object' && !Array.isArray(res.body) ? (res.body as Json) : {};
}

/** A failure for any answer that is not a 2xx (or no answer). */
export function failureOf(deps: AdapterDeps, res: HttpResult, label: string, creates = false): PlatformFailure {
  if (res.sent !== true) return transportFailure(res, label, creates);
  return xrpcFailure(res, deps.clock.now(), label);
}

/** The base URL of the account's PDS, saved in its meta when it connected. */
export function serverOf(account: Pick<AccountCredentials, 'meta'>, fallback: string): string {
  const url = account.meta.serverUrl;
  return typeof url === 'string' && url ? url : fallback;
}

export function missing(label: string, what: string): PlatformFailure {
  return failure('platform_unavailable', `${label}: the PDS answered without ${what}`);
}
