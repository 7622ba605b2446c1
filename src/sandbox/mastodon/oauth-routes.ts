// App registration and OAuth 2 as a Mastodon instance serves them (platforms.md §11.2–11.3, Doorkeeper):
// POST /api/v1/apps, the consent page that approves at once for the sandbox user, the token endpoint
// (client auth by params or Basic, S256 PKCE, single-use 10-minute codes, no expiry, no refresh grant,
// token reuse for the same user, app and scopes), revoke, and the 4.3 server metadata.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SAMPLE_MEDIA } from '../media.ts';
import { authorize, baseOf, bool, paramsOf, str, type MastodonContext } from './context.ts';
import { OAUTH_TEXT, sendError, sendErrorPage, sendOAuthError } from './envelope.ts';
import type { App } from './state.ts';

/** Doorkeeper's configured scopes (default `read`, the rest optional). */
export const KNOWN_SCOPES = new Set([
  'read',
  'write',
  'follow',
  'push',
  'profile',
  'read:accounts',
  'read:blocks',
  'read:bookmarks',
  'read:favourites',
  'read:filters',
  'read:follows',
  'read:lists',
  'read:mutes',
  'read:notifications',
  'read:search',
  'read:statuses',
  'write:accounts',
  'write:blocks',
  'write:bookmarks',
  'write:conversations',
  'write:favourites',
  'write:filters',
  'write:follows',
  'write:lists',
  'write:media',
  'write:mutes',
  'write:notifications',
  'write:reports',
  'write:statuses',
]);

const OOB = 'urn:ietf:wg:oauth:2.0:oob';

function splitScopes(raw: string | undefined): string[] {
  return (raw ?? '').split(/[\s+]+/).filter(Boolean);
}

function appJson(app: App, withSecret: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: app.id,
    name: app.name,
    website: app.website,
    scopes: app.scopes,
    redirect_uri: app.redirectUris.join('\n'),
    redirect_uris: app.redirectUris,
    vapid_key: 'BCk-QqERU0q-CfYZjcuB6lnyyOYfJ2AifKqfeGIm7Z-HiTU5T9eTG5GxVA0_OH5mMlI4UkkDTpaZwozy0TzdZ2M=',
  };
  if (withSecret) {
    out.client_id = app.clientId;
    out.client_secret = app.clientSecret;
    out.client_secret_expires_at = 0;
  }
  return out;
}

/** Why a redirect URI cannot be registered, or null. */
function redirectProblem(uri: string): string | null {
  if (uri === OOB) return null;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'Validation failed: Redirect URI must be an absolute URI.';
  }
  if (['javascript:', 'data:', 'vbscript:'].includes(url.protocol)) return 'Validation failed: Redirect URI is forbidden by the server.';
  if (url.hash) return 'Validation failed: Redirect URI cannot contain a fragment.';
  return null;
}

/** Client credentials from HTTP Basic or the parameters (Doorkeeper reads both). */
function clientOf(ctx: MastodonContext, req: FastifyRequest, params: Record<string, unknown>): App | null {
  let id = str(params.client_id);
  let secret = str(params.client_secret);
  const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
  if (basic) {
    const [u, p] = Buffer.from(basic, 'base64').toString('utf8').split(':');
    id = decodeURIComponent(u ?? '');
    secret = decodeURIComponent(p ?? '');
  }
  const app = id ? ctx.state.appsByClientId.get(id) : undefined;
  return app && secret === app.clientSecret ? app : null;
}

function tokenJson(token: string, scopes: string[], createdAt: number): Record<string, unknown> {
  return { access_token: token, token_type: 'Bearer', scope: scopes.join(' '), created_at: Math.floor(createdAt / 1000) };
}

export function registerOAuthRoutes(app: FastifyInstance, ctx: MastodonContext): void {
  app.post('/api/v1/apps', async (req, reply) => {
    const p = paramsOf(req);
    const name = str(p.client_name)?.trim() ?? '';
    if (!name) return sendError(reply, 422, "Validation failed: Name can't be blank");
    if (name.length > 60) return sendError(reply, 422, 'Validation failed: Name is too long (maximum is 60 characters)');
    const rawUris = Array.isArray(p.redirect_uris) ? p.redirect_uris.map(str) : (str(p.redirect_uris) ?? '').split(/\r?\n/);
    const uris = rawUris.filter((u): u is string => typeof u === 'string' && u.trim().length > 0).map((u) => u.trim());
    if (uris.length === 0) return sendError(reply, 422, "Validation failed: Redirect URI can't be blank");
    for (const uri of uris) {
      const problem = redirectProblem(uri);
      if (problem) return sendError(reply, 422, problem);
    }
    const scopes = splitScopes(str(p.scopes) ?? 'read');
    const unknown = scopes.filter((s) => !KNOWN_SCOPES.has(s));
    if (unknown.length > 0) return sendError(reply, 422, 'Validation failed: Scopes must be from configured scopes');
    const website = str(p.website)?.trim() || null;
    const created = ctx.state.registerApp({ name, website, scopes, redirectUris: uris });
    return reply.send(appJson(created, true));
  });

  app.get('/api/v1/apps/verify_credentials', async (req, reply) => {
    const caller = authorize(ctx, req, reply, ['read', 'write', 'follow', 'push', 'profile', ...KNOWN_SCOPES], { user: false });
    if (!caller) return reply;
    const found = ctx.state.appsByClientId.get(caller.clientId);
    if (!found) return sendError(reply, 401, OAUTH_TEXT.invalid_client);
    return appJson(found, false);
  });

  app.get('/.well-known/oauth-authorization-server', async (req) => {
    const base = baseOf(ctx, req);
    return {
      issuer: `${base}/`,
      service_documentation: 'https://docs.joinmastodon.org/',
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/oauth/token`,
      revocation_endpoint: `${base}/oauth/revoke`,
      userinfo_endpoint: `${base}/oauth/userinfo`,
      app_registration_endpoint: `${base}/api/v1/apps`,
      scopes_supported: [...KNOWN_SCOPES],
      response_types_supported: ['code'],
      response_modes_supported: ['query', 'fragment', 'form_post'],
      code_challenge_methods_supported: ['S256'],
      grant_types_supported: ['authorization_code', 'client_credentials'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    };
  });

  // The consent page. The sandbox approves at once as `sandbox_user` (default "sandbox");
  // `sandbox_deny=1` plays a user who declines.
  app.get('/oauth/authorize', async (req, reply) => {
    const q = req.query as Record<string, string | undefined>;
    const client = q.client_id ? ctx.state.appsByClientId.get(q.client_id) : undefined;
    if (!client) return sendErrorPage(reply, 401, OAUTH_TEXT.invalid_client);
    if (!q.redirect_uri || !client.redirectUris.includes(q.redirect_uri)) return sendErrorPage(reply, 400, OAUTH_TEXT.invalid_redirect_uri);
    if (q.redirect_uri === OOB) return sendErrorPage(reply, 400, 'The out-of-band flow shows the code on a page; the sandbox does not.');
    const target = new URL(q.redirect_uri);
    const back = (params: Record<string, string | undefined>) => {
      for (const [k, v] of Object.entries(params)) if (v !== undefined) target.searchParams.set(k, v);
      return reply.redirect(target.toString(), 302);
    };
    const error = (code: keyof typeof OAUTH_TEXT, description?: string) => back({ error: code, error_description: description ?? OAUTH_TEXT[code], state: q.state });
    if (q.response_type !== 'code') return error('unsupported_response_type');
    const scopes = splitScopes(q.scope ?? 'read');
    if (scopes.length === 0 || scopes.some((s) => !client.scopes.includes(s))) return error('invalid_scope');
    if (q.code_challenge && q.code_challenge_method !== 'S256') return back({ error: 'invalid_request', error_description: OAUTH_TEXT.code_challenge_method, state: q.state });
    if (bool(q.sandbox_deny)) return error('access_denied');
    const user = ctx.state.userFor(q.sandbox_user || 'sandbox');
    const code = ctx.oauth.issueCode({
      userId: user.id,
      clientId: client.clientId,
      redirectUri: q.redirect_uri,
      scopes,
      ...(q.code_challenge ? { challenge: q.code_challenge, challengeMethod: 'S256' } : {}),
    });
    if (q.code_challenge) ctx.state.codesWithChallenge.add(code);
    return back({ code, state: q.state });
  });

  app.post('/oauth/token', async (req, reply) => {
    const p = paramsOf(req);
    const client = clientOf(ctx, req, p);
    if (!client) return sendOAuthError(reply, 401, 'invalid_client');
    const grantType = str(p.grant_type);
    const now = ctx.state.now();
    if (grantType === 'authorization_code') {
      const code = str(p.code);
      const redirectUri = str(p.redirect_uri);
      if (!code) return sendOAuthError(reply, 400, 'invalid_request', 'Missing required parameter: code.');
      if (!redirectUri) return sendOAuthError(reply, 400, 'invalid_request', 'Missing required parameter: redirect_uri.');
      const verifier = str(p.code_verifier) || undefined;
      const challenged = ctx.state.codesWithChallenge.has(code);
      if (challenged && !verifier) return sendOAuthError(reply, 400, 'invalid_request', 'Missing required parameter: code_verifier.');
      // A verifier for a grant that had no challenge fails Doorkeeper's check too.
      if (!challenged && verifier) return sendOAuthError(reply, 400, 'invalid_grant');
      const r = ctx.oauth.redeemCode(code, { clientId: client.clientId, redirectUri, codeVerifier: verifier });
      if (!r.ok) return sendOAuthError(reply, 400, r.error === 'invalid_request' ? 'invalid_request' : 'invalid_grant', r.error === 'invalid_request' ? r.description : undefined);
      ctx.state.codesWithChallenge.delete(code);
      const reuseKey = `${r.userId}|${client.clientId}|${[...r.scopes].sort().join(' ')}`;
      const existing = ctx.state.reusableTokens.get(reuseKey);
      if (existing && ctx.oauth.checkAccess(existing).ok) return tokenJson(existing, r.scopes, now);
      const issued = ctx.oauth.issueTokens(r.userId, r.scopes, { withRefresh: false, data: { clientId: client.clientId } });
      ctx.state.reusableTokens.set(reuseKey, issued.accessToken);
      return tokenJson(issued.accessToken, issued.scopes, now);
    }
    if (grantType === 'client_credentials') {
      const scopes = splitScopes(str(p.scope) ?? 'read');
      if (scopes.some((s) => !client.scopes.includes(s))) return sendOAuthError(reply, 400, 'invalid_scope');
      const issued = ctx.oauth.issueTokens(`app:${client.clientId}`, scopes, { withRefresh: false, data: { clientId: client.clientId } });
      return tokenJson(issued.accessToken, issued.scopes, now);
    }
    // No refresh grant: Mastodon does not issue refresh tokens.
    return sendOAuthError(reply, 400, 'unsupported_grant_type');
  });

  app.post('/oauth/revoke', async (req, reply: FastifyReply) => {
    const p = paramsOf(req);
    const client = clientOf(ctx, req, p);
    if (!client) return sendOAuthError(reply, 403, 'unauthorized_client', OAUTH_TEXT.unauthorized_revoke);
    const token = str(p.token);
    const record = token ? ctx.oauth.inspect(token) : undefined;
    // Unknown tokens "revoke" fine (RFC 7009): nothing to say about them.
    if (!token || !record) return {};
    if (record.data?.clientId !== client.clientId) return sendOAuthError(reply, 403, 'unauthorized_client', OAUTH_TEXT.unauthorized_revoke);
    ctx.oauth.revoke(token);
    return {};
  });

  app.get('/avatars/original/missing.png', async (_req, reply) => {
    const png = SAMPLE_MEDIA['sample.png']!;
    return reply.type(png.contentType).send(png.bytes);
  });
}
