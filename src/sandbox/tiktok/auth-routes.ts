// Login Kit v2 as the emulator serves it: consent that approves at once, the token endpoint
// (authorization_code with optional PKCE, refresh_token with rotation), revoke, and user/info.
import type { FastifyInstance } from 'fastify';
import { SAMPLE_MEDIA } from '../media.ts';
import { authenticate, avatarUrl, type TikTokContext } from './context.ts';
import { sendError, sendOAuthError, sendOk } from './envelope.ts';
import { selectUserFields, sandboxUser } from './users.ts';
import type { IssuedTokens } from '../kit/oauth.ts';

const KNOWN_SCOPES = new Set([
  'user.info.basic',
  'user.info.profile',
  'user.info.stats',
  'video.list',
  'video.publish',
  'video.upload',
]);

type Query = Record<string, string | undefined>;

function tokenBody(openId: string, t: IssuedTokens): Record<string, unknown> {
  return {
    access_token: t.accessToken,
    expires_in: t.expiresIn,
    open_id: openId,
    refresh_expires_in: t.refreshExpiresIn,
    refresh_token: t.refreshToken,
    scope: t.scopes.join(','),
    token_type: 'Bearer',
  };
}

export function registerAuthRoutes(app: FastifyInstance, ctx: TikTokContext, prefix: string): void {
  app.get('/v2/auth/authorize/', async (req, reply) => {
    const q = req.query as Query;
    // Without a known app or a usable redirect, TikTok shows an error page instead of redirecting.
    if (q.client_key !== ctx.clientId) return reply.code(400).type('text/plain').send('client_key is invalid');
    let target: URL;
    try {
      target = new URL(q.redirect_uri ?? '');
      if (target.protocol !== 'https:' && target.protocol !== 'http:') throw new Error('scheme');
    } catch {
      return reply.code(400).type('text/plain').send('redirect_uri is missing or invalid');
    }
    // TikTok's redirect URIs are static: no query, no fragment, under 512 characters.
    if (target.search || target.hash || q.redirect_uri!.includes('#') || q.redirect_uri!.length >= 512) {
      return reply.code(400).type('text/plain').send('redirect_uri must be a static URL under 512 characters, without query parameters or a fragment');
    }
    const back = (params: Record<string, string | undefined>) => {
      for (const [k, v] of Object.entries(params)) if (v !== undefined) target.searchParams.set(k, v);
      return reply.redirect(target.toString(), 302);
    };
    if (q.response_type !== 'code') {
      return back({ error: 'unsupported_response_type', error_description: 'response_type must be code', state: q.state });
    }
    const scopes = (q.scope ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    const unknown = scopes.filter((s) => !KNOWN_SCOPES.has(s));
    if (scopes.length === 0 || unknown.length > 0) {
      return back({ error: 'invalid_scope', error_description: `unknown or missing scope: ${unknown.join(',') || '(none)'}`, state: q.state });
    }
    const user = sandboxUser(q.sandbox_user || 'sandbox', ctx.clientId, q.sandbox_private === '1');
    ctx.users.set(user.openId, user);
    const code = ctx.oauth.issueCode({
      userId: user.openId,
      clientId: ctx.clientId,
      redirectUri: q.redirect_uri!,
      scopes,
      challenge: q.code_challenge,
      challengeMethod: q.code_challenge_method,
    });
    return back({ code, scopes: scopes.join(','), state: q.state });
  });

  app.post('/v2/oauth/token/', async (req, reply) => {
    const b = (req.body ?? {}) as Query;
    if (b.client_key !== ctx.clientId || b.client_secret !== ctx.clientSecret) {
      return sendOAuthError(reply, 401, 'invalid_client', 'Client key or secret is invalid.');
    }
    if (b.grant_type === 'authorization_code') {
      if (!b.code || !b.redirect_uri) return sendOAuthError(reply, 400, 'invalid_request', 'code and redirect_uri are required.');
      const r = ctx.oauth.redeemCode(b.code, { clientId: b.client_key, redirectUri: b.redirect_uri, codeVerifier: b.code_verifier });
      if (!r.ok) return sendOAuthError(reply, 400, r.error, r.description);
      return tokenBody(r.userId, ctx.oauth.issueTokens(r.userId, r.scopes, { withRefresh: true }));
    }
    if (b.grant_type === 'refresh_token') {
      const owner = b.refresh_token ? ctx.oauth.inspect(b.refresh_token) : undefined;
      const r = b.refresh_token ? ctx.oauth.refresh(b.refresh_token) : { ok: false as const, description: 'refresh_token is required' };
      if (!r.ok || !owner) return sendOAuthError(reply, 400, 'invalid_grant', r.ok ? 'refresh token is invalid' : r.description);
      return tokenBody(owner.userId, r.tokens);
    }
    return sendOAuthError(reply, 400, 'unsupported_grant_type', 'grant_type must be authorization_code or refresh_token.');
  });

  app.post('/v2/oauth/revoke/', async (req, reply) => {
    const b = (req.body ?? {}) as Query;
    if (b.client_key !== ctx.clientId || b.client_secret !== ctx.clientSecret) {
      return sendOAuthError(reply, 401, 'invalid_client', 'Client key or secret is invalid.');
    }
    const check = ctx.oauth.checkAccess(b.token);
    if (!check.ok) return sendOAuthError(reply, 400, 'invalid_grant', 'The access token is invalid, expired or revoked.');
    // The app leaves the user's authorized apps: every token of the grant dies.
    ctx.oauth.revokeUser(check.userId);
    return {};
  });

  app.get('/v2/user/info/', async (req, reply) => {
    const caller = authenticate(ctx, req, reply);
    if (!caller) return reply;
    const fields = ((req.query as Query).fields ?? '').split(',').map((f) => f.trim()).filter(Boolean);
    const picked = selectUserFields(caller.user, fields, caller.scopes, avatarUrl(req, prefix, caller.user));
    if (!picked.ok) return sendError(reply, picked.code === 'invalid_params' ? 400 : 401, picked.code, picked.message);
    return sendOk(reply, { user: picked.user });
  });

  app.get('/sandbox-avatar/:file', async (_req, reply) => {
    const jpeg = SAMPLE_MEDIA['sample.jpg']!;
    return reply.type(jpeg.contentType).send(jpeg.bytes);
  });
}
