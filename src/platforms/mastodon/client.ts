// Calls to a Mastodon instance. Instances are named by users, so every call goes through
// deps.serverHttp (the outbound address rule applies), never deps.http. Answers come back as data: the
// parsed body on success, or a PlatformFailure built from the instance's own error.
import type { AdapterDeps } from '../deps.ts';
import type { HttpBody, HttpRequest, HttpResult } from '../http.ts';
import { failure, type AccountCredentials, type PlatformFailure } from '../types.ts';
import { callFailure, type ErrorContext } from './errors.ts';
export { asString, isFailure } from '../answer-fields.ts';

export type Json = Record<string, unknown>;

export interface InstanceCall extends ErrorContext {
  method: HttpRequest['method'];
  /** The instance's base URL, e.g. https://mastodon.social (a path below it is kept). */
  instance: string;
  path: string;
  token?: string;
  query?: HttpRequest['query'];
  body?: HttpBody;
  headers?: Record<string, string>;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface CallOk {
  ok: true;
  status: number;
  body: unknown;
  headers: Headers;
}

export function instanceUrl(instance: string, path: string): string {
  return `${instance.replace(/\/+$/, '')}${path}`;
}

export function rawCall(deps: AdapterDeps, call: InstanceCall): Promise<HttpResult> {
  const headers: Record<string, string> = { ...call.headers };
  if (call.token) headers.authorization = `Bearer ${call.token}`;
  return deps.serverHttp.request({
    method: call.method,
    url: instanceUrl(call.instance, call.path),
    query: call.query,
    headers,
    body: call.body,
    timeoutMs: call.timeoutMs,
    signal: call.signal,
  });
}

/** A call whose success is any 2xx; everything else is a failure in Herald's terms. */
export async function callInstance(deps: AdapterDeps, call: InstanceCall): Promise<CallOk | PlatformFailure> {
  const res = await rawCall(deps, call);
  if (res.sent !== true || res.status < 200 || res.status >= 300) return callFailure(res, deps.clock.now(), call);
  return { ok: true, status: res.status, body: res.body, headers: res.headers };
}

/** A 2xx whose body is not the JSON object expected: for a creating call, the outcome is unknown. */
export function unreadable(call: Pick<ErrorContext, 'label' | 'creates'>, status: number): PlatformFailure {
  const text = `${call.label}: the instance answered ${status} with a body Herald cannot read`;
  return call.creates ? failure('outcome_unknown', `${text}; it may have happened`, { httpStatus: status }) : failure('platform_unavailable', text, { httpStatus: status });
}

export function asObject(v: unknown): Json | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined;
}

/** Where an account lives: Herald's app on its server (the core attaches it), else the URL kept in its meta. */
export function instanceOf(account: Pick<AccountCredentials, 'server' | 'meta'>): string | PlatformFailure {
  const url = account.server?.url ?? (typeof account.meta.instance === 'string' ? account.meta.instance : undefined);
  if (url) return url;
  return failure('auth_expired', 'Herald does not know which Mastodon instance this account lives on; connect it again');
}

/** The account's id on its instance: accountId is `<id>@<domain>`. */
export function localIdOf(account: Pick<AccountCredentials, 'accountId' | 'meta'>): string {
  if (typeof account.meta.mastodonId === 'string' && account.meta.mastodonId) return account.meta.mastodonId;
  return account.accountId.split('@')[0] ?? account.accountId;
}
