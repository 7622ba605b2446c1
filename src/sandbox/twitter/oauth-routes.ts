// X's OAuth 2.0 endpoints: the consent page (approves at once, or denies with sandbox_deny=1), the
// token endpoint (authorization_code with PKCE, rotating refresh_token; confidential clients only)
// and revoke. Errors use the OAuth shape X uses here, not problem JSON.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { field } from '../kit/body.ts';
import type { TwitterContext } from './replies.ts';
import { SUBSCRIPTIONS, type Subscription } from './state.ts';

const KNOWN_SCOPES = new Set([
  'tweet.read', 'tweet.write', 'tweet.moderate.write', 'users.read', 'users.email', 'follows.read', 'follows.write',
  'offline.access', 'space.read', 'mute.read', 'mute.write', 'like.read', 'like.write', 'list.read', 'list.write',
  'block.read', 'block.write', 'bookmark.read', 'bookmark.write', 'media.write', 'dm.read', 'dm.write',
]);

function oauthError(reply: FastifyReply, status: number, error: string, description: string): FastifyReply {
  return reply.code(status).send({ error, error_description: description });
}

function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Confidential clients must send HTTP Basic with the app's id and secret. */
function clientAuthenticated(ctx: TwitterContext, req: FastifyRequest): boolean {
  const m = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
  if (!m) return false;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon > 0 && decoded.slice(0, colon) === ctx.clientId && decoded.slice(colon + 1) === ctx.clientSecret;
}

export function registerOAuthRoutes(app: FastifyInstance, ctx: TwitterContext): void {
  app.get('/i/oauth2/authorize', async (req, reply) => {
    const q = req.query as Record<string, string | undefined>;
    const problems: string[] = [];
    if (q.response_type !== 'code') problems.push('response_type must be "code"');
    if (q.client_id !== ctx.clientId) problems.push('client_id is not a registered OAuth 2.0 client');
    if (!q.redirect_uri || !isHttpUrl(q.redirect_uri)) problems.push('redirect_uri must be an absolute http(s) URL');
    if (!q.state) problems.push('state is required');
    else if (q.state.length > 500) problems.push('state may be at most 500 characters');
    if (!q.code_challenge) problems.push('code_challenge is required (PKCE)');
    const method = (q.code_challenge_method ?? 'plain').toLowerCase();
    if (method !== 's256' && method !== 'plain') problems.push('code_challenge_method must be S256 or plain');
    const scopes = (q.scope ?? '').split(/\s+/).filter(Boolean);
    if (scopes.length === 0) problems.push('scope is required');
    const unknown = scopes.filter((s) => !KNOWN_SCOPES.has(s));
    if (unknown.length > 0) problems.push(`unknown scope ${unknown.join(', ')}`);
    const subscription = (q.sandbox_subscription ?? 'None') as Subscription;
    if (!SUBSCRIPTIONS.includes(subscription)) problems.push(`sandbox_subscription must be one of ${SUBSCRIPTIONS.join(', ')}`);
    // Without a trustworthy redirect_uri there is nowhere to send the user: the page itself shows the error.
    if (problems.length > 0) return oauthError(reply, 400, 'invalid_request', `Something went wrong: ${problems.join('; ')}.`);

    const target = new URL(q.redirect_uri!);
    if (q.sandbox_deny === '1') {
      target.searchParams.set('error', 'access_denied');
      target.searchParams.set('state', q.state!);
      return reply.redirect(target.toString(), 302);
    }
    const user = ctx.state.upsertUser(q.sandbox_user || 'sandbox', subscription, ctx.now());
    const code = ctx.oauth.issueCode({
      userId: user.id,
      clientId: ctx.clientId,
      redirectUri: q.redirect_uri!,
      scopes,
      challenge: q.code_challenge!,
      challengeMethod: method === 's256' ? 'S256' : 'plain',
    });
    target.searchParams.set('state', q.state!);
    target.searchParams.set('code', code);
    return reply.redirect(target.toString(), 302);
  });

  app.post('/2/oauth2/token', async (req, reply) => {
    if (!clientAuthenticated(ctx, req)) return oauthError(reply, 401, 'unauthorized_client', 'Missing valid authorization header');
    const grantType = field(req.body, 'grant_type');
    if (grantType === 'authorization_code') {
      const code = field(req.body, 'code');
      const redirectUri = field(req.body, 'redirect_uri');
      const verifier = field(req.body, 'code_verifier');
      const missing = [['code', code], ['redirect_uri', redirectUri], ['code_verifier', verifier]].find(([, v]) => !v);
      if (missing) return oauthError(reply, 400, 'invalid_request', `Missing required parameter [${missing[0]}].`);
      const redeemed = ctx.oauth.redeemCode(code!, { clientId: ctx.clientId, redirectUri, codeVerifier: verifier });
      if (!redeemed.ok) return oauthError(reply, 400, 'invalid_request', 'Value passed for the authorization code was invalid.');
      const tokens = ctx.oauth.issueTokens(redeemed.userId, redeemed.scopes, { withRefresh: redeemed.scopes.includes('offline.access') });
      return tokenAnswer(tokens);
    }
    if (grantType === 'refresh_token') {
      const token = field(req.body, 'refresh_token');
      if (!token) return oauthError(reply, 400, 'invalid_request', 'Missing required parameter [refresh_token].');
      const refreshed = ctx.oauth.refresh(token);
      if (!refreshed.ok) return oauthError(reply, 400, 'invalid_request', 'Value passed for the token was invalid.');
      return tokenAnswer(refreshed.tokens);
    }
    return oauthError(reply, 400, 'unsupported_grant_type', 'grant_type must be authorization_code or refresh_token.');
  });

  app.post('/2/oauth2/revoke', async (req, reply) => {
    if (!clientAuthenticated(ctx, req)) return oauthError(reply, 401, 'unauthorized_client', 'Missing valid authorization header');
    const token = field(req.body, 'token');
    if (!token) return oauthError(reply, 400, 'invalid_request', 'Missing required parameter [token].');
    // RFC 7009: unknown or already revoked tokens are not an error.
    ctx.oauth.revoke(token);
    return { revoked: true };
  });
}

function tokenAnswer(tokens: { accessToken: string; refreshToken?: string; expiresIn?: number; scopes: string[] }): Record<string, unknown> {
  const out: Record<string, unknown> = {
    token_type: 'bearer',
    expires_in: tokens.expiresIn,
    access_token: tokens.accessToken,
    scope: tokens.scopes.join(' '),
  };
  if (tokens.refreshToken) out.refresh_token = tokens.refreshToken;
  return out;
}
