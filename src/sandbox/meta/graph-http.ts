// How the Meta emulator reads requests and answers like Graph: parameters from query, form, JSON or
// multipart; tokens from access_token or Authorization; the Graph error envelope; field selection; paging.
import { createHmac, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { field } from '../kit/body.ts';
import type { EmulatorOptions } from '../kit/emulator.ts';
import type { Ledger } from '../kit/ledger.ts';
import type { OAuthServer } from '../kit/oauth.ts';
import type { IgAccount, MetaState, Page } from './state.ts';

export interface MetaEmulatorOptions extends EmulatorOptions {
  /** Instagram publishing quota per account per 24 h (content_publishing_limit quota_total; default 50). */
  publishQuota?: number;
  /** Most Pages one /me/accounts page returns, whatever `limit` asks (default 25, Graph's default). */
  accountsPageSize?: number;
}

export interface MetaContext {
  state: MetaState;
  oauth: OAuthServer;
  ledger: Ledger;
  now: () => number;
  clientId: string;
  clientSecret: string;
  processingMs: number;
  publishQuota: number;
  accountsPageSize: number;
  /** Origins whose media the emulator downloads, as Meta's crawler would (EmulatorOptions.mediaOrigins). */
  mediaOrigins: () => readonly string[];
  /** Whose Business Use Case a request counted against, for X-Business-Use-Case-Usage. */
  buc: WeakMap<FastifyRequest, { id: string; type: 'pages' | 'instagram' }>;
}

export type Caller =
  | { kind: 'app' }
  | { kind: 'user'; userId: string; scopes: string[]; longLived: boolean }
  | { kind: 'page'; pageId: string; userId: string; scopes: string[] };

export const LONG_LIVED_MS = 60 * 24 * 60 * 60_000;
export const SHORT_LIVED_MS = 2 * 60 * 60_000;

/** A request parameter, wherever Graph would accept it (body first, then query string). */
export function param(req: FastifyRequest, name: string): string | undefined {
  const fromBody = field(req.body, name);
  if (fromBody !== undefined) return fromBody;
  const q = (req.query as Record<string, unknown> | undefined)?.[name];
  return typeof q === 'string' ? q : undefined;
}

export function tokenOf(req: FastifyRequest): string | undefined {
  const auth = req.headers.authorization;
  const m = typeof auth === 'string' ? /^(?:Bearer|OAuth)\s+(.+)$/i.exec(auth.trim()) : null;
  return m?.[1] ?? param(req, 'access_token');
}

export function envelope(code: number, message: string, opts: { subcode?: number; type?: string; userMsg?: string; transient?: boolean } = {}) {
  return {
    error: {
      message,
      type: opts.type ?? 'OAuthException',
      code,
      ...(opts.subcode !== undefined ? { error_subcode: opts.subcode } : {}),
      ...(opts.userMsg ? { error_user_title: 'Request failed', error_user_msg: opts.userMsg } : {}),
      ...(opts.transient ? { is_transient: true } : {}),
      fbtrace_id: randomBytes(8).toString('base64url'),
    },
  };
}

export function graphError(
  reply: FastifyReply,
  status: number,
  code: number,
  message: string,
  opts: { subcode?: number; type?: string; userMsg?: string } = {},
): FastifyReply {
  return reply.code(status).send(envelope(code, message, opts));
}

export function badParam(reply: FastifyReply, message: string, subcode?: number): FastifyReply {
  return graphError(reply, 400, 100, `(#100) ${message}`, { subcode, type: 'GraphMethodException' });
}

export function missingObject(reply: FastifyReply, id: string, verb = 'get'): FastifyReply {
  return graphError(
    reply,
    400,
    100,
    `Unsupported ${verb} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
    { subcode: 33, type: 'GraphMethodException' },
  );
}

/** Checks the token (and appsecret_proof when sent); answers with Graph's error and returns undefined when bad. */
export function authenticate(ctx: MetaContext, req: FastifyRequest, reply: FastifyReply): Caller | undefined {
  const token = tokenOf(req);
  if (!token) {
    graphError(reply, 400, 104, 'An access token is required to request this resource.');
    return undefined;
  }
  if (token.includes('|')) {
    if (token === `${ctx.clientId}|${ctx.clientSecret}`) return { kind: 'app' };
    graphError(reply, 400, 190, 'Invalid OAuth access token signature.');
    return undefined;
  }
  const proof = param(req, 'appsecret_proof');
  if (proof !== undefined && proof !== createHmac('sha256', ctx.clientSecret).update(token).digest('hex')) {
    graphError(reply, 400, 100, 'Invalid appsecret_proof provided in the API argument', { type: 'GraphMethodException' });
    return undefined;
  }
  const check = ctx.oauth.checkAccess(token);
  if (!check.ok) {
    if (check.reason === 'expired') {
      graphError(reply, 400, 190, `Error validating access token: Session has expired on ${new Date(ctx.now()).toUTCString()}.`, { subcode: 463 });
    } else if (check.reason === 'revoked') {
      graphError(reply, 400, 190, 'Error validating access token: The user has not authorized application.', { subcode: 458 });
    } else {
      graphError(reply, 400, 190, 'Invalid OAuth access token - Cannot parse access token');
    }
    return undefined;
  }
  const data = check.data ?? {};
  if (data.kind === 'page' && typeof data.pageId === 'string' && typeof data.userId === 'string') {
    return { kind: 'page', pageId: data.pageId, userId: data.userId, scopes: check.scopes };
  }
  return { kind: 'user', userId: check.userId, scopes: check.scopes, longLived: data.longLived === true };
}

export function hasScope(caller: Caller, scope: string): boolean {
  return caller.kind !== 'app' && caller.scopes.includes(scope);
}

function denied(reply: FastifyReply, scope: string): undefined {
  graphError(reply, 403, 200, `(#200) Requires ${scope} permission to manage the object`);
  return undefined;
}

/**
 * Access to a Page: writes need that Page's own token; reads also accept the token of a user who
 * manages it. Every Page call needs pages_read_engagement beside its own permission (Pages API:
 * publishing takes pages_manage_posts and pages_read_engagement).
 */
export function pageAccess(
  ctx: MetaContext,
  req: FastifyRequest,
  reply: FastifyReply,
  pageId: string,
  opts: { write: boolean; scope: string },
): { page: Page; caller: Caller } | undefined {
  const caller = authenticate(ctx, req, reply);
  if (!caller) return undefined;
  const page = ctx.state.pages.get(pageId);
  if (!page) return void missingObject(reply, pageId, opts.write ? 'post' : 'get');
  const own = caller.kind === 'page' && caller.pageId === pageId;
  const manager = caller.kind === 'user' && caller.userId === page.userId;
  if (!own && !(manager && !opts.write)) {
    graphError(reply, 403, 200, '(#200) This action requires a Page access token of the Page');
    return undefined;
  }
  for (const scope of new Set([opts.scope, 'pages_read_engagement'])) if (!hasScope(caller, scope)) return denied(reply, scope);
  ctx.buc.set(req, { id: pageId, type: 'pages' });
  return { page, caller };
}

/**
 * Access to an Instagram professional account: the user token of the user who manages its Page, with
 * instagram_basic and pages_read_engagement beside the call's own permission (IG User reference).
 */
export function igAccess(ctx: MetaContext, req: FastifyRequest, reply: FastifyReply, igId: string, scope: string): { ig: IgAccount; caller: Caller } | undefined {
  const caller = authenticate(ctx, req, reply);
  if (!caller) return undefined;
  const ig = ctx.state.igAccounts.get(igId);
  if (!ig) return void missingObject(reply, igId, req.method === 'GET' ? 'get' : 'post');
  if (caller.kind !== 'user' || caller.userId !== ig.userId) {
    graphError(reply, 403, 10, '(#10) Application does not have permission for this action');
    return undefined;
  }
  for (const needed of new Set(['instagram_basic', 'pages_read_engagement', scope])) if (!hasScope(caller, needed)) return denied(reply, needed);
  ctx.buc.set(req, { id: igId, type: 'instagram' });
  return { ig, caller };
}

/** Top-level names in `fields`, ignoring nested selections like `instagram_business_account{id}`. */
export function fieldsOf(req: FastifyRequest): Set<string> | undefined {
  const raw = param(req, 'fields');
  if (!raw) return undefined;
  const names = new Set<string>();
  let depth = 0;
  let current = '';
  for (const ch of raw) {
    if (ch === '{') depth++;
    else if (ch === '}') depth--;
    else if (ch === ',' && depth === 0) {
      if (current.trim()) names.add(current.trim());
      current = '';
    } else if (depth === 0) current += ch;
  }
  if (current.trim()) names.add(current.trim());
  return names;
}

/** Keeps the requested fields (always the id); without `fields`, the object's defaults. */
export function select(all: Record<string, unknown>, fields: Set<string> | undefined, defaults: string[]): Record<string, unknown> {
  const keep = fields ?? new Set(defaults);
  const out: Record<string, unknown> = {};
  if ('id' in all) out.id = all.id;
  for (const name of keep) if (all[name] !== undefined) out[name] = all[name];
  return out;
}

/** Cursor paging as Graph does it: `limit`, `after`, and `paging.next` only when more remain. */
export function paginate<T>(req: FastifyRequest, base: string, items: T[], maxLimit = 100): { data: T[]; paging?: Record<string, unknown> } {
  const asked = Number(param(req, 'limit') ?? 25);
  const limit = Math.max(1, Math.min(Number.isFinite(asked) ? asked : 25, maxLimit));
  const after = param(req, 'after');
  const start = after ? Number(Buffer.from(after, 'base64url').toString()) || 0 : 0;
  const data = items.slice(start, start + limit);
  if (items.length === 0) return { data };
  const cursor = (i: number) => Buffer.from(String(i)).toString('base64url');
  const paging: Record<string, unknown> = { cursors: { before: cursor(start), after: cursor(start + data.length) } };
  if (start + data.length < items.length) {
    const next = new URL(`${base}${req.url.split('?')[0]}`);
    for (const [k, v] of Object.entries(req.query as Record<string, string>)) if (k !== 'after') next.searchParams.set(k, v);
    next.searchParams.set('after', cursor(start + data.length));
    paging.next = next.toString();
  }
  return { data, paging };
}
