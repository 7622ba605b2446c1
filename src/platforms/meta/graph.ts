// A thin Graph API caller shared by the Facebook and Instagram adapters: builds versioned URLs, puts the
// token where Graph reads it, signs it with appsecret_proof, and turns every non-success into a failure.
import { createHmac } from 'node:crypto';
import type { AdapterDeps } from '../deps.ts';
import type { HttpRequest, HttpResult } from '../http.ts';
import type { PlatformFailure } from '../types.ts';
import { graphFailure, graphOk } from './graph-errors.ts';

export type GraphParams = Record<string, string | number | boolean | undefined>;
export type GraphBody = Record<string, unknown>;

export type GraphAnswer = { ok: true; body: GraphBody; headers: Headers } | { ok: false; failure: PlatformFailure };

export interface GraphCallOptions {
  /** Names the call in failure messages, e.g. "Facebook feed post". */
  label: string;
  /**
   * The call may make something public (a post, a container publish). Only then does an unanswered
   * request mean "outcome unknown"; for reads and invisible staging it is just "unavailable".
   */
  creates?: boolean;
  signal?: AbortSignal;
}

export interface Graph {
  /** `${apiUrl}/${version}` without a trailing slash. */
  readonly base: string;
  get(path: string, token: string | null, query?: GraphParams, opts?: GraphCallOptions): Promise<GraphAnswer>;
  post(path: string, token: string | null, form?: GraphParams, opts?: GraphCallOptions): Promise<GraphAnswer>;
  delete(path: string, token: string | null, query?: GraphParams, opts?: GraphCallOptions): Promise<GraphAnswer>;
  /** Any other request (absolute upload URLs handed out by Graph), judged the same way. */
  send(req: HttpRequest, opts: GraphCallOptions): Promise<GraphAnswer>;
}

/** App access token `{app-id}|{app-secret}`, accepted by debug_token and permission removal. */
export function appToken(deps: AdapterDeps): string {
  return `${deps.app.clientId}|${deps.app.clientSecret}`;
}

/** HMAC of the token keyed with the app secret; required when the app enables "Require App Secret". */
export function appSecretProof(token: string, secret: string): string {
  return createHmac('sha256', secret).update(token).digest('hex');
}

export function createGraph(deps: AdapterDeps, base?: string): Graph {
  const root = base ?? `${deps.app.apiUrl.replace(/\/+$/, '')}/${deps.app.apiVersion}`;

  const auth = (token: string | null): GraphParams => {
    if (!token) return {};
    // App tokens contain the secret already; a proof is only defined for user and Page tokens.
    if (token.includes('|')) return { access_token: token };
    return { access_token: token, appsecret_proof: appSecretProof(token, deps.app.clientSecret) };
  };

  const judge = (res: HttpResult, opts: GraphCallOptions): GraphAnswer => {
    if (graphOk(res)) {
      const body = res.body === true ? { success: true } : res.body && typeof res.body === 'object' ? (res.body as GraphBody) : {};
      return { ok: true, body, headers: res.headers };
    }
    const failure = graphFailure(res, deps.clock.now(), opts.label);
    if (failure.category === 'outcome_unknown' && !opts.creates) {
      return { ok: false, failure: { ...failure, category: 'platform_unavailable' } };
    }
    return { ok: false, failure };
  };

  const send = async (req: HttpRequest, opts: GraphCallOptions): Promise<GraphAnswer> =>
    judge(await deps.http.request({ ...req, signal: req.signal ?? opts.signal }), opts);

  const url = (path: string) => `${root}${path.startsWith('/') ? path : `/${path}`}`;
  const defaults = (label: string): GraphCallOptions => ({ label });

  return {
    base: root,
    get: (path, token, query = {}, opts = defaults(`Graph GET ${path}`)) =>
      send({ method: 'GET', url: url(path), query: { ...query, ...auth(token) } }, opts),
    post: (path, token, form = {}, opts = defaults(`Graph POST ${path}`)) =>
      send({ method: 'POST', url: url(path), body: { form: { ...form, ...auth(token) } } }, opts),
    delete: (path, token, query = {}, opts = defaults(`Graph DELETE ${path}`)) =>
      send({ method: 'DELETE', url: url(path), query: { ...query, ...auth(token) } }, opts),
    send,
  };
}

/** Reads a string field; Graph ids are strings, but be tolerant of numbers in odd answers. */
export function str(body: GraphBody | undefined, key: string): string | undefined {
  const v = body?.[key];
  if (typeof v === 'string' && v.length > 0) return v;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
  return undefined;
}

export function obj(body: GraphBody | undefined, key: string): GraphBody | undefined {
  const v = body?.[key];
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as GraphBody) : undefined;
}

export function list(body: GraphBody | undefined, key = 'data'): GraphBody[] {
  const v = body?.[key];
  return Array.isArray(v) ? v.filter((x): x is GraphBody => !!x && typeof x === 'object') : [];
}

/** Graph times look like 2026-11-22T10:00:00+0000; Date.parse wants a colon in the offset. */
export function graphTime(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const t = Date.parse(value.replace(/([+-]\d\d)(\d\d)$/, '$1:$2'));
  return Number.isNaN(t) ? undefined : t;
}

/** Follows `paging.cursors.after` on a list edge, at most `maxPages` pages. */
export async function readAllPages(
  graph: Graph,
  path: string,
  token: string,
  query: GraphParams,
  opts: GraphCallOptions,
  maxPages = 20,
): Promise<{ ok: true; items: GraphBody[] } | { ok: false; failure: PlatformFailure }> {
  const items: GraphBody[] = [];
  let after: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const res = await graph.get(path, token, { ...query, ...(after ? { after } : {}) }, opts);
    if (!res.ok) return res;
    items.push(...list(res.body));
    const paging = obj(res.body, 'paging');
    after = str(obj(paging, 'cursors'), 'after');
    if (!paging?.next || !after) break;
  }
  return { ok: true, items };
}
