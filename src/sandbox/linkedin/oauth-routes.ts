// LinkedIn's OAuth as the emulator serves it (platforms.md 7.2): the consent page (approves at once,
// refuses scopes the app's products do not grant), /accessToken (single-use codes, client secret,
// refresh only for programmatic-refresh apps, counted from consent and never extended), /revoke,
// /introspectToken, and the identity resources /v2/userinfo (openid) and /v2/me (r_basicprofile).
import type { FastifyInstance, FastifyReply } from 'fastify';
import { SAMPLE_MEDIA } from '../media.ts';
import { emulatorBaseUrl } from '../kit/emulator.ts';
import type { IssuedTokens } from '../kit/oauth.ts';
import { authenticate, type LinkedInContext } from './context.ts';
import { accessDenied, sendOAuthError, sendRestError } from './envelope.ts';
import { sandboxMember, type SandboxMember } from './store.ts';

type Query = Record<string, string | undefined>;

const DAY_S = 24 * 3600;
/** 60-day access tokens; refresh tokens live 365 days from consent (MS programmatic refresh tokens). */
export const ACCESS_TTL_MS = 60 * DAY_S * 1000;
export const REFRESH_TTL_MS = 365 * DAY_S * 1000;

const CODE_REFUSED =
  'Unable to retrieve access token: appid/redirect uri/code verifier does not match authorization code. Or authorization code expired. Or external member binding exists';

function tokenBody(ctx: LinkedInContext, t: IssuedTokens, refreshToken?: string): Record<string, unknown> {
  const body: Record<string, unknown> = { access_token: t.accessToken, expires_in: t.expiresIn };
  const refresh = refreshToken ?? t.refreshToken;
  if (refresh) {
    const record = ctx.oauth.inspect(refresh);
    body.refresh_token = refresh;
    if (record?.expiresAt) body.refresh_token_expires_in = Math.max(0, Math.round((record.expiresAt - ctx.now()) / 1000));
  }
  // LinkedIn answers the granted scopes as a comma list.
  body.scope = t.scopes.join(',');
  body.token_type = 'Bearer';
  return body;
}

function clientOk(ctx: LinkedInContext, b: Query, reply: FastifyReply): boolean {
  if (b.client_id === ctx.clientId && b.client_secret === ctx.clientSecret) return true;
  sendOAuthError(reply, 401, 'invalid_client', 'Client authentication failed');
  return false;
}

function registerTokenRoutes(app: FastifyInstance, ctx: LinkedInContext, base: string): void {
  app.post(`${base}/accessToken`, async (req, reply) => {
    const b = (req.body ?? {}) as Query;
    if (!clientOk(ctx, b, reply)) return reply;
    if (b.grant_type === 'authorization_code') {
      if (!b.code || !b.redirect_uri) return sendOAuthError(reply, 400, 'invalid_request', 'A required parameter "code" or "redirect_uri" is missing');
      const r = ctx.oauth.redeemCode(b.code, { clientId: b.client_id, redirectUri: b.redirect_uri });
      if (!r.ok) return sendOAuthError(reply, 400, 'invalid_request', CODE_REFUSED);
      ctx.consentAt.set(r.userId, ctx.now());
      return tokenBody(ctx, ctx.oauth.issueTokens(r.userId, r.scopes, { withRefresh: ctx.settings.programmaticRefresh }));
    }
    if (b.grant_type === 'refresh_token') {
      if (!ctx.settings.programmaticRefresh) return sendOAuthError(reply, 400, 'invalid_request', 'Programmatic refresh is not enabled for this application');
      const r = b.refresh_token ? ctx.oauth.refresh(b.refresh_token) : { ok: false as const, description: 'A required parameter "refresh_token" is missing' };
      if (!r.ok) return sendOAuthError(reply, 400, 'invalid_request', `The provided refresh token is invalid: ${r.description}`);
      // Not rotated: the same refresh token comes back with what is left of its 365 days.
      return tokenBody(ctx, r.tokens, b.refresh_token);
    }
    return sendOAuthError(reply, 400, 'unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
  });

  app.post(`${base}/revoke`, async (req, reply) => {
    const b = (req.body ?? {}) as Query;
    if (!clientOk(ctx, b, reply)) return reply;
    if (!b.token) return sendOAuthError(reply, 400, 'invalid_request', 'A required parameter "token" is missing');
    // The member's authorization of the app ends: every token of the grant dies (RFC 7009: an unknown
    // or dead token is not an error).
    const record = ctx.oauth.inspect(b.token);
    if (record) ctx.oauth.revokeUser(record.userId);
    return reply.code(200).send();
  });

  app.post(`${base}/introspectToken`, async (req, reply) => {
    const b = (req.body ?? {}) as Query;
    if (!clientOk(ctx, b, reply)) return reply;
    const record = b.token ? ctx.oauth.inspect(b.token) : undefined;
    if (!record || record.kind !== 'access') return { active: false };
    const status = record.revoked ? 'revoked' : record.valid ? 'active' : 'expired';
    const consent = ctx.consentAt.get(record.userId);
    return {
      active: status === 'active',
      client_id: ctx.clientId,
      authorized_at: consent ? Math.floor(consent / 1000) : undefined,
      created_at: record.expiresAt ? Math.floor((record.expiresAt - ACCESS_TTL_MS) / 1000) : undefined,
      status,
      expires_at: record.expiresAt ? Math.floor(record.expiresAt / 1000) : undefined,
      scope: record.scopes.join(','),
      auth_type: '3L',
    };
  });
}

function avatarUrl(base: string, member: SandboxMember): string {
  return `${base}/sandbox-media/avatar/${member.id}.jpg`;
}

export function registerOAuthRoutes(app: FastifyInstance, ctx: LinkedInContext, prefix: string): void {
  app.get('/oauth/v2/authorization', async (req, reply) => {
    const q = req.query as Query;
    // Without a known app or a usable redirect LinkedIn shows an error page instead of redirecting.
    if (q.client_id !== ctx.clientId) return reply.code(400).type('text/plain').send('The passed in client_id is invalid');
    let target: URL;
    try {
      target = new URL(q.redirect_uri ?? '');
    } catch {
      return reply.code(400).type('text/plain').send('The redirect_uri does not match the registered value');
    }
    const back = (params: Record<string, string | undefined>) => {
      for (const [k, v] of Object.entries(params)) if (v !== undefined) target.searchParams.set(k, v);
      return reply.redirect(target.toString(), 302);
    };
    if (q.response_type !== 'code') return back({ error: 'invalid_request', error_description: 'response_type must be code', state: q.state });
    // Space separated; a comma list reads as one unknown scope (platforms.md 7.2).
    const scopes = (q.scope ?? '').split(' ').filter(Boolean);
    const refused = scopes.find((s) => !ctx.appScopes.has(s));
    if (scopes.length === 0 || refused) {
      return back({ error: 'unauthorized_scope_error', error_description: `Scope "${refused ?? ''}" is not authorized for your application`, state: q.state });
    }
    if (q.sandbox_cancel === '1') return back({ error: 'user_cancelled_authorize', error_description: 'The user cancelled the authorization', state: q.state });
    const pages = q.sandbox_pages === undefined ? 2 : Math.max(0, Math.min(20, Number(q.sandbox_pages) || 0));
    const member = sandboxMember(q.sandbox_user || 'sandbox', ctx.clientId, pages, q.sandbox_page_role || 'ADMINISTRATOR');
    ctx.members.set(member.id, member);
    // PKCE is for native apps LinkedIn enabled it for; a web app's challenge is not bound to the code.
    const code = ctx.oauth.issueCode({ userId: member.id, clientId: ctx.clientId, redirectUri: q.redirect_uri!, scopes });
    return back({ code, state: q.state });
  });

  // The token URL's base is www.linkedin.com/oauth/v2; in the sandbox it is the emulator's root.
  registerTokenRoutes(app, ctx, '');
  registerTokenRoutes(app, ctx, '/oauth/v2');

  app.get('/v2/userinfo', async (req, reply) => {
    const caller = authenticate(ctx, req, reply);
    if (!caller) return reply;
    if (!caller.scopes.includes('openid')) return sendRestError(reply, accessDenied('userinfo.GET.NO_VERSION'));
    const m = caller.member;
    const body: Record<string, unknown> = { sub: m.id };
    if (caller.scopes.includes('profile')) {
      Object.assign(body, { name: `${m.firstName} ${m.lastName}`, given_name: m.firstName, family_name: m.lastName, picture: avatarUrl(emulatorBaseUrl(req, prefix), m), locale: { country: 'US', language: 'en' } });
    }
    if (caller.scopes.includes('email')) Object.assign(body, { email: m.email, email_verified: true });
    return body;
  });

  app.get('/v2/me', async (req, reply) => {
    const caller = authenticate(ctx, req, reply);
    if (!caller) return reply;
    if (!caller.scopes.includes('r_basicprofile')) return sendRestError(reply, accessDenied('me.GET.NO_VERSION'));
    const m = caller.member;
    const picture = avatarUrl(emulatorBaseUrl(req, prefix), m);
    return {
      id: m.id,
      localizedFirstName: m.firstName,
      localizedLastName: m.lastName,
      vanityName: m.vanityName,
      profilePicture: {
        displayImage: `urn:li:digitalmediaAsset:${m.id}`,
        'displayImage~': { elements: [{ identifiers: [{ identifier: picture, identifierType: 'EXTERNAL_URL' }] }] },
      },
    };
  });

  app.get('/sandbox-media/avatar/:file', async (_req, reply) => {
    const jpeg = SAMPLE_MEDIA['sample.jpg']!;
    return reply.type(jpeg.contentType).send(jpeg.bytes);
  });
}
