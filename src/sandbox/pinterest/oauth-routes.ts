// Pinterest OAuth as the emulator serves it (§9.2): the consent page at /oauth/ (approves at once), the
// token endpoint (HTTP Basic client authentication only, form body, authorization_code and
// refresh_token; continuous refresh tokens renewed on every refresh, the used one dead) and revoke
// (system users only).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IssuedTokens } from '../kit/oauth.ts';
import { SAMPLE_MEDIA } from '../media.ts';
import { MESSAGES, sendError, type PinterestContext } from './context.ts';
import { sandboxUser } from './users.ts';

/** components.securitySchemes of the OpenAPI description (5.23.0). */
export const KNOWN_SCOPES = new Set([
  'ads:read', 'ads:write', 'billing:read', 'billing:write', 'biz_access:read', 'biz_access:write', 'boards:read',
  'boards:read_secret', 'boards:write', 'boards:write_secret', 'catalogs:read', 'catalogs:write', 'msot:write',
  'pins:read', 'pins:read_secret', 'pins:write', 'pins:write_secret', 'user_accounts:read', 'user_accounts:write',
]);

type Form = Record<string, string | undefined>;

function splitScopes(raw: string | undefined): string[] {
  return (raw ?? '').split(/[\s,]+/).filter(Boolean);
}

function isHttpUrl(value: string | undefined): value is string {
  try {
    const u = new URL(value ?? '');
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

function errorPage(reply: FastifyReply, message: string): FastifyReply {
  return reply.code(400).type('text/html; charset=utf-8').send(`<!doctype html><title>Pinterest</title><p>${message}</p>`);
}

/** Client authentication is HTTP Basic (the OpenAPI's `security: basic`); credentials in the body are not read. */
function clientAuthenticated(ctx: PinterestContext, req: FastifyRequest): boolean {
  const m = /^Basic\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  if (!m) return false;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon > 0 && decoded.slice(0, colon) === ctx.clientId && decoded.slice(colon + 1) === ctx.clientSecret;
}

function tokenBody(t: IssuedTokens, responseType: 'authorization_code' | 'refresh_token', now: number): Record<string, unknown> {
  return {
    access_token: t.accessToken,
    refresh_token: t.refreshToken,
    response_type: responseType,
    token_type: 'bearer',
    expires_in: t.expiresIn,
    refresh_token_expires_in: t.refreshExpiresIn,
    refresh_token_expires_at: t.refreshExpiresIn !== undefined ? Math.floor(now / 1000) + t.refreshExpiresIn : undefined,
    scope: t.scopes.join(' '),
  };
}

function formOf(req: FastifyRequest): Form | null {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  return type === 'application/x-www-form-urlencoded' && req.body && typeof req.body === 'object' ? (req.body as Form) : null;
}

export function registerOAuthRoutes(app: FastifyInstance, ctx: PinterestContext): void {
  app.get('/oauth/', async (req, reply) => {
    const q = req.query as Form;
    // The quickstart still sends the legacy consumer_id; the docs name client_id.
    if ((q.client_id ?? q.consumer_id) !== ctx.clientId) return errorPage(reply, 'Invalid client_id: this app does not exist.');
    if (!isHttpUrl(q.redirect_uri)) return errorPage(reply, 'Invalid redirect_uri.');
    if (q.response_type !== 'code') return errorPage(reply, 'response_type must be code.');
    const scopes = splitScopes(q.scope);
    const unknown = scopes.filter((s) => !KNOWN_SCOPES.has(s));
    if (scopes.length === 0 || unknown.length > 0) return errorPage(reply, `Invalid scope: ${unknown.join(', ') || '(none)'}.`);
    const target = new URL(q.redirect_uri);
    // Denial parameters are unconfirmed (§9.13); the emulator uses RFC 6749's.
    if (q.sandbox_deny === '1') {
      target.searchParams.set('error', 'access_denied');
      if (q.state) target.searchParams.set('state', q.state);
      return reply.redirect(target.toString(), 302);
    }
    const user = sandboxUser(q.sandbox_user || 'sandbox', ctx.clientId, { pinner: q.sandbox_pinner === '1', systemUser: q.sandbox_system === '1', now: ctx.now() });
    const known = ctx.store.users.get(user.id);
    // Boards already known keep their pins; a new login never drops them.
    ctx.store.users.set(user.id, known ? { ...user, boards: known.boards } : user);
    const code = ctx.oauth.issueCode({ userId: user.id, clientId: ctx.clientId, redirectUri: q.redirect_uri, scopes });
    target.searchParams.set('code', code);
    if (q.state) target.searchParams.set('state', q.state);
    return reply.redirect(target.toString(), 302);
  });

  app.post('/v5/oauth/token', async (req, reply) => {
    if (!clientAuthenticated(ctx, req)) return sendError(reply, 401, 2, MESSAGES.authentication);
    const b = formOf(req);
    if (!b) return sendError(reply, 400, 1, 'Invalid request: the body must be application/x-www-form-urlencoded');
    const now = ctx.now();
    if (b.grant_type === 'authorization_code') {
      if (!b.code || !b.redirect_uri) return sendError(reply, 400, 1, 'Invalid request: code and redirect_uri are required');
      if (b.continuous_refresh !== undefined && b.continuous_refresh !== 'true' && b.continuous_refresh !== 'false') {
        return sendError(reply, 400, 1, 'Invalid request: continuous_refresh must be true or false');
      }
      const r = ctx.oauth.redeemCode(b.code, { clientId: ctx.clientId, redirectUri: b.redirect_uri });
      if (!r.ok) return sendError(reply, 401, 283, 'The authorization grant is invalid');
      return tokenBody(ctx.oauth.issueTokens(r.userId, r.scopes, { withRefresh: true }), 'authorization_code', now);
    }
    if (b.grant_type === 'refresh_token') {
      const record = b.refresh_token ? ctx.oauth.inspect(b.refresh_token) : undefined;
      if (!record || record.kind !== 'refresh' || !record.valid) return sendError(reply, 401, 283, 'The authorization grant is invalid');
      const narrower = splitScopes(b.scope);
      if (narrower.some((s) => !record.scopes.includes(s))) return sendError(reply, 400, 1, 'Invalid request: scope must be a subset of the granted scopes');
      if (narrower.length === 0) {
        const r = ctx.oauth.refresh(b.refresh_token!);
        if (!r.ok) return sendError(reply, 401, 283, 'The authorization grant is invalid');
        return tokenBody(r.tokens, 'refresh_token', now);
      }
      ctx.oauth.revoke(b.refresh_token!);
      return tokenBody(ctx.oauth.issueTokens(record.userId, narrower, { withRefresh: true }), 'refresh_token', now);
    }
    if (b.grant_type === 'client_credentials') return sendError(reply, 400, 1, 'Invalid request: client_credentials is not available to this app');
    return sendError(reply, 400, 1, 'Invalid request: grant_type must be authorization_code or refresh_token');
  });

  app.post('/v5/oauth/token/revoke', async (req, reply) => {
    if (!clientAuthenticated(ctx, req)) return sendError(reply, 401, 2, MESSAGES.authentication);
    const b = formOf(req);
    if (!b?.token) return sendError(reply, 400, 1, 'Invalid request: token is required');
    if (b.token_type_hint !== undefined && b.token_type_hint !== 'access_token' && b.token_type_hint !== 'refresh_token') {
      return sendError(reply, 400, 1, 'Invalid request: token_type_hint must be access_token or refresh_token');
    }
    const record = ctx.oauth.inspect(b.token);
    const user = record ? ctx.store.users.get(record.userId) : undefined;
    // Only tokens issued for system users can be revoked (OpenAPI 5.16+).
    if (!record || !user?.systemUser) return sendError(reply, 403, 29, MESSAGES.notPermitted);
    ctx.oauth.revokeUser(record.userId);
    return reply.code(200).send();
  });

  app.get('/sandbox-avatar/:file', async (_req, reply) => {
    const jpeg = SAMPLE_MEDIA['sample.jpg']!;
    return reply.type(jpeg.contentType).send(jpeg.bytes);
  });
}
