// What the Mastodon emulator's routes share: state, settings, tokens, the ledger; how the instance names
// itself; Rails-style parameters; and bearer authentication with per-endpoint scopes, answered as
// Doorkeeper and Mastodon answer it.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Ledger } from '../kit/ledger.ts';
import type { OAuthServer } from '../kit/oauth.ts';
import { emulatorBaseUrl } from '../kit/emulator.ts';
import { TEXT, sendError, wwwAuthenticate } from './envelope.ts';
import type { MastodonSandboxSettings, MastodonState, User } from './state.ts';

export interface MastodonContext {
  state: MastodonState;
  settings: MastodonSandboxSettings;
  oauth: OAuthServer;
  ledger: Ledger;
  prefix: string;
}

/** The instance's domain, as it appears in handles and status URLs. */
export function domainOf(ctx: MastodonContext, req: FastifyRequest): string {
  return ctx.settings.domain ?? req.host;
}

/** Where the instance answers, for URLs that should resolve (media files, avatars). */
export function baseOf(ctx: MastodonContext, req: FastifyRequest): string {
  return emulatorBaseUrl(req, ctx.prefix);
}

/** Rails params: `key[]` collects an array, `key[sub]` nests one level; body over query. */
export function railsParams(source: Iterable<[string, unknown]>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [rawKey, value] of source) {
    const arrayKey = /^([^[\]]+)\[\]$/.exec(rawKey);
    const nested = /^([^[\]]+)\[([^[\]]+)\](\[\])?$/.exec(rawKey);
    if (arrayKey) {
      const list = Array.isArray(out[arrayKey[1]!]) ? (out[arrayKey[1]!] as unknown[]) : [];
      list.push(...(Array.isArray(value) ? value : [value]));
      out[arrayKey[1]!] = list;
    } else if (nested) {
      const group = (out[nested[1]!] && typeof out[nested[1]!] === 'object' ? out[nested[1]!] : {}) as Record<string, unknown>;
      if (nested[3]) {
        const list = Array.isArray(group[nested[2]!]) ? (group[nested[2]!] as unknown[]) : [];
        list.push(...(Array.isArray(value) ? value : [value]));
        group[nested[2]!] = list;
      } else group[nested[2]!] = value;
      out[nested[1]!] = group;
    } else {
      out[rawKey] = value;
    }
  }
  return out;
}

/** The request's parameters whatever their form (query, JSON, form, multipart), Rails-style. */
export function paramsOf(req: FastifyRequest): Record<string, unknown> {
  const query = Object.entries((req.query ?? {}) as Record<string, unknown>);
  const body = req.body;
  let fromBody: [string, unknown][] = [];
  if (body instanceof FormData) {
    const keys = new Set<string>();
    body.forEach((_v, k) => keys.add(k));
    fromBody = [...keys].map((k) => {
      const all = body.getAll(k);
      return [k, k.endsWith('[]') ? all : all[all.length - 1]];
    });
  } else if (body && typeof body === 'object' && !Buffer.isBuffer(body)) {
    fromBody = Object.entries(body as Record<string, unknown>);
  }
  return railsParams([...query, ...fromBody]);
}

export function str(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

/** ActiveModel's boolean casting: "1", "true", "on"… are true; "", "0", "false", "off" false. */
export function bool(v: unknown): boolean | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'boolean') return v;
  const s = String(v).trim().toLowerCase();
  if (s === '') return undefined;
  return !['0', 'f', 'false', 'off', 'n', 'no'].includes(s);
}

export interface Caller {
  token: string;
  scopes: string[];
  clientId: string;
  /** Null for an app token (client_credentials). */
  user: User | null;
}

export function bearerOf(req: FastifyRequest): string | undefined {
  const header = req.headers.authorization ?? '';
  return /^Bearer\s+(.+)$/i.exec(header)?.[1]?.trim() || undefined;
}

/** The caller of a token, or why it cannot be used. */
export function callerOf(ctx: MastodonContext, token: string | undefined): Caller | { error: string } {
  const check = ctx.oauth.checkAccess(token);
  if (!check.ok) {
    const error = check.reason === 'revoked' ? TEXT.tokenRevoked : check.reason === 'expired' ? TEXT.tokenExpired : TEXT.tokenInvalid;
    return { error };
  }
  const clientId = typeof check.data?.clientId === 'string' ? check.data.clientId : '';
  const user = check.userId.startsWith('app:') ? null : (ctx.state.users.get(check.userId) ?? null);
  return { token: token!, scopes: check.scopes, clientId, user };
}

/**
 * doorkeeper_authorize!: a valid token holding one of `scopes` (the broad or the granular one), and, when
 * `user` is asked, a user's token. Answers the error itself and returns null.
 */
export function authorize(ctx: MastodonContext, req: FastifyRequest, reply: FastifyReply, scopes: string[], opts: { user?: boolean } = {}): Caller | null {
  const caller = callerOf(ctx, bearerOf(req));
  if ('error' in caller) {
    sendError(reply, 401, caller.error, wwwAuthenticate(caller.error));
    return null;
  }
  if (!scopes.some((s) => caller.scopes.includes(s))) {
    sendError(reply, 403, TEXT.outsideScopes);
    return null;
  }
  if (opts.user !== false && !caller.user) {
    sendError(reply, 422, TEXT.userRequired);
    return null;
  }
  return caller;
}

/** authorize_if_got_token!: public without a token; with one, it must be valid and scoped. */
export function authorizeIfToken(ctx: MastodonContext, req: FastifyRequest, reply: FastifyReply, scopes: string[]): { viewer: User | null } | null {
  if (!bearerOf(req)) return { viewer: null };
  const caller = authorize(ctx, req, reply, scopes, { user: false });
  return caller ? { viewer: caller.user } : null;
}
