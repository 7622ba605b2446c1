// Google OAuth 2.0 as the emulator serves it (§8.3 of platforms.md): the consent page (error pages for a
// bad client, redirect URI or scope; granular consent; denial), /token (code with PKCE, refresh without
// rotation, refresh tokens only with offline access on a consent screen), /revoke (the whole grant) and
// /tokeninfo.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SCOPE } from '../../platforms/youtube/info.ts';
import { field } from '../kit/body.ts';
import type { IssuedTokens } from '../kit/oauth.ts';
import { SAMPLE_MEDIA } from '../media.ts';
import { sandboxAccount } from './accounts.ts';
import type { Query, YouTubeContext } from './context.ts';
import { sendErrorPage, sendOAuthError } from './google-errors.ts';

const KNOWN_SCOPES = new Set<string>([...Object.values(SCOPE), 'openid', 'email', 'profile', 'https://www.googleapis.com/auth/youtube.channel-memberships.creator', 'https://www.googleapis.com/auth/youtubepartner-channel-audit']);
const PROMPTS = new Set(['none', 'consent', 'select_account']);

/** Google takes https redirect URIs, and http only for loopback hosts. */
function redirectAllowed(ctx: YouTubeContext, uri: string): boolean {
  if (ctx.settings.redirectUris) return ctx.settings.redirectUris.includes(uri);
  try {
    const u = new URL(uri);
    if (u.hash) return false;
    if (u.protocol === 'https:') return true;
    return u.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(u.hostname);
  } catch {
    return false;
  }
}

/** `sandbox_decline=youtube.force-ssl,…`: the scopes the user unticks on the granular consent screen. */
function declined(list: string | undefined): Set<string> {
  const out = new Set<string>();
  for (const item of (list ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    out.add(item.includes('/') ? item : `https://www.googleapis.com/auth/${item}`);
  }
  return out;
}

function tokenBody(t: IssuedTokens, withRefresh: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = { access_token: t.accessToken, expires_in: t.expiresIn, scope: t.scopes.join(' '), token_type: 'Bearer' };
  if (withRefresh && t.refreshToken) body.refresh_token = t.refreshToken;
  return body;
}

/** Client credentials from HTTP Basic or the form, as Google takes them. */
function clientOf(req: FastifyRequest): { id?: string; secret?: string } {
  const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
  if (basic) {
    const [id, secret] = Buffer.from(basic, 'base64').toString('utf8').split(':');
    return { id: id ? decodeURIComponent(id) : undefined, secret: secret ? decodeURIComponent(secret) : undefined };
  }
  return { id: field(req.body, 'client_id'), secret: field(req.body, 'client_secret') };
}

/** The kit's refusals in Google's words (texts partly unconfirmed, §8.12 point 3). */
function googleCodeError(description: string): { error: string; description: string } {
  if (description.includes('redirect_uri')) return { error: 'redirect_uri_mismatch', description: 'Bad Request' };
  if (description.includes('code_verifier is required')) return { error: 'invalid_grant', description: 'Missing code verifier.' };
  if (description.includes('code_verifier does not match')) return { error: 'invalid_grant', description: 'Invalid code verifier.' };
  if (description.includes('already used')) return { error: 'invalid_grant', description: 'Code was already redeemed.' };
  if (description.includes('is invalid')) return { error: 'invalid_grant', description: 'Malformed auth code.' };
  return { error: 'invalid_grant', description: 'Bad Request' };
}

/** Keeps the newest `cap` refresh tokens of an account; older ones stop working. */
function remember(ctx: YouTubeContext, sub: string, refreshToken: string): void {
  const list = ctx.refreshTokens.get(sub) ?? [];
  list.push(refreshToken);
  while (list.length > ctx.settings.refreshTokenCap) ctx.oauth.revoke(list.shift()!);
  ctx.refreshTokens.set(sub, list);
}

export function registerOAuthRoutes(app: FastifyInstance, ctx: YouTubeContext): void {
  app.get('/o/oauth2/v2/auth', async (req, reply) => {
    const q = req.query as Query;
    if (!q.client_id || q.client_id !== ctx.clientId) return sendErrorPage(reply, 401, 'invalid_client', 'The OAuth client was not found.');
    if (!q.redirect_uri || !redirectAllowed(ctx, q.redirect_uri)) {
      return sendErrorPage(reply, 400, 'redirect_uri_mismatch', `You can't sign in to this app because it doesn't comply with Google's OAuth 2.0 policy. redirect_uri=${q.redirect_uri ?? ''}`);
    }
    if (q.response_type !== 'code') return sendErrorPage(reply, 400, 'invalid_request', `Invalid response_type: ${q.response_type ?? '(missing)'}`);
    const scopes = (q.scope ?? '').split(' ').filter(Boolean);
    if (scopes.length === 0) return sendErrorPage(reply, 400, 'invalid_request', 'Missing required parameter: scope');
    const unknown = scopes.filter((s) => !KNOWN_SCOPES.has(s));
    if (unknown.length > 0) return sendErrorPage(reply, 400, 'invalid_scope', `Some requested scopes were invalid. {invalid=[${unknown.join(', ')}]}`);
    if (q.access_type !== undefined && q.access_type !== 'online' && q.access_type !== 'offline') return sendErrorPage(reply, 400, 'invalid_request', `Invalid access_type: ${q.access_type}`);
    const prompts = (q.prompt ?? '').split(' ').filter(Boolean);
    if (prompts.some((p) => !PROMPTS.has(p)) || (prompts.includes('none') && prompts.length > 1)) return sendErrorPage(reply, 400, 'invalid_request', `Invalid prompt: ${q.prompt}`);
    const method = q.code_challenge_method;
    if (method !== undefined && method !== 'S256' && method !== 'plain') return sendErrorPage(reply, 400, 'invalid_request', 'Invalid code_challenge_method value.');
    if (method !== undefined && !q.code_challenge) return sendErrorPage(reply, 400, 'invalid_request', 'code_challenge_method was given without code_challenge.');

    const target = new URL(q.redirect_uri);
    const back = (params: Record<string, string | undefined>) => {
      for (const [k, v] of Object.entries(params)) if (v !== undefined) target.searchParams.set(k, v);
      return reply.redirect(target.toString(), 302);
    };
    if (q.sandbox_deny === '1') return back({ error: 'access_denied', state: q.state });
    const refused = declined(q.sandbox_decline);
    let granted = scopes.filter((s) => !refused.has(s));
    if (granted.length === 0) return back({ error: 'access_denied', state: q.state });

    const account = sandboxAccount(q.sandbox_user || 'sandbox', { noChannel: q.sandbox_no_channel === '1', unverified: q.sandbox_unverified === '1' }, ctx.now());
    ctx.accounts.set(account.sub, account);
    if (q.include_granted_scopes === 'true') granted = [...new Set([...(ctx.grants.get(account.sub) ?? []), ...granted])];
    ctx.grants.set(account.sub, new Set(granted));
    const offline = q.access_type === 'offline';
    // A refresh token only with offline access, on the first consent or one forced by prompt=consent.
    const withRefresh = offline && (prompts.includes('consent') || !ctx.consented.has(account.sub));
    if (offline) ctx.consented.add(account.sub);
    const code = ctx.oauth.issueCode({
      userId: account.sub,
      clientId: ctx.clientId,
      redirectUri: q.redirect_uri,
      scopes: granted,
      challenge: q.code_challenge,
      challengeMethod: method ?? (q.code_challenge ? 'plain' : undefined),
    });
    ctx.codes.set(code, { offline: withRefresh, withChallenge: Boolean(q.code_challenge) });
    return back({ state: q.state, code: `4/0A${code}`, scope: granted.join(' '), authuser: '0', prompt: prompts.includes('consent') ? 'consent' : 'none' });
  });

  app.post('/token', async (req, reply) => {
    const client = clientOf(req);
    if (!client.id) return sendOAuthError(reply, 400, 'invalid_request', 'Could not determine client ID from request.');
    if (client.id !== ctx.clientId) return sendOAuthError(reply, 401, 'invalid_client', 'The OAuth client was not found.');
    if (!client.secret) return sendOAuthError(reply, 400, 'invalid_request', 'client_secret is missing.');
    if (client.secret !== ctx.clientSecret) return sendOAuthError(reply, 401, 'invalid_client', 'Unauthorized');
    const grantType = field(req.body, 'grant_type');
    if (grantType === 'authorization_code') {
      const raw = field(req.body, 'code');
      const redirectUri = field(req.body, 'redirect_uri');
      if (!raw) return sendOAuthError(reply, 400, 'invalid_request', 'Missing required parameter: code');
      if (!redirectUri) return sendOAuthError(reply, 400, 'invalid_request', 'Missing parameter: redirect_uri');
      const code = raw.startsWith('4/0A') ? raw.slice(4) : raw;
      const facts = ctx.codes.get(code);
      const verifier = field(req.body, 'code_verifier');
      if (facts && !facts.withChallenge && verifier !== undefined) return sendOAuthError(reply, 400, 'invalid_request', 'code_verifier or verifier is not needed.');
      const r = ctx.oauth.redeemCode(code, { clientId: client.id, redirectUri, codeVerifier: verifier });
      if (!r.ok) {
        const g = googleCodeError(r.description);
        return sendOAuthError(reply, 400, g.error, g.description);
      }
      const offline = facts?.offline ?? false;
      const tokens = ctx.oauth.issueTokens(r.userId, r.scopes, { withRefresh: offline, data: { accessType: offline ? 'offline' : 'online' } });
      if (offline && tokens.refreshToken) remember(ctx, r.userId, tokens.refreshToken);
      return tokenBody(tokens, offline);
    }
    if (grantType === 'refresh_token') {
      const token = field(req.body, 'refresh_token');
      if (!token) return sendOAuthError(reply, 400, 'invalid_request', 'Missing required parameter: refresh_token');
      const r = ctx.oauth.refresh(token);
      if (!r.ok) return sendOAuthError(reply, 400, 'invalid_grant', 'Token has been expired or revoked.');
      // No rotation: the answer carries no refresh token, and the one sent keeps working.
      return tokenBody(r.tokens, false);
    }
    return sendOAuthError(reply, 400, 'unsupported_grant_type', `Invalid grant_type: ${grantType ?? ''}`);
  });

  app.post('/revoke', async (req: FastifyRequest, reply: FastifyReply) => {
    const token = (req.query as Query).token ?? field(req.body, 'token');
    if (!token) return sendOAuthError(reply, 400, 'invalid_request', 'Bad Request');
    const record = ctx.oauth.inspect(token);
    if (!record || !record.valid) return sendOAuthError(reply, 400, 'invalid_token', 'Token expired or revoked');
    // Revoking either token ends the whole grant.
    ctx.oauth.revokeUser(record.userId);
    ctx.consented.delete(record.userId);
    ctx.grants.delete(record.userId);
    ctx.refreshTokens.delete(record.userId);
    return reply.code(200).type('application/json; charset=utf-8').send({});
  });

  const tokeninfo = async (req: FastifyRequest, reply: FastifyReply) => {
    const token = (req.query as Query).access_token ?? field(req.body, 'access_token');
    const record = token ? ctx.oauth.inspect(token) : undefined;
    if (!record || !record.valid || record.kind !== 'access') return sendOAuthError(reply, 400, 'invalid_token', 'Invalid Value');
    const exp = Math.floor((record.expiresAt ?? ctx.now()) / 1000);
    return {
      azp: ctx.clientId,
      aud: ctx.clientId,
      sub: record.userId,
      scope: record.scopes.join(' '),
      exp: String(exp),
      expires_in: String(Math.max(0, exp - Math.floor(ctx.now() / 1000))),
      access_type: String(record.data?.accessType ?? 'online'),
    };
  };
  app.get('/tokeninfo', tokeninfo);
  app.post('/tokeninfo', tokeninfo);

  app.get('/sandbox-avatar/:file', async (_req, reply) => {
    const jpeg = SAMPLE_MEDIA['sample.jpg']!;
    return reply.type(jpeg.contentType).send(jpeg.bytes);
  });
}
