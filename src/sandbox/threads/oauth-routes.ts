// Threads OAuth as graph.threads.net and threads.net serve it: the authorization window, the code
// exchange, the long-lived exchange, refresh, and token introspection.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authenticate, accessError, isError, type ThreadsContext } from './context.ts';
import { graphError, invalidParam, param, send } from './graph.ts';
import { DAY_MS } from './store.ts';

const KNOWN_SCOPES = new Set([
  'threads_basic',
  'threads_content_publish',
  'threads_manage_replies',
  'threads_read_replies',
  'threads_manage_insights',
  'threads_delete',
  'threads_keyword_search',
  'threads_manage_mentions',
  'threads_location_tagging',
  'threads_profile_discovery',
]);
const SHORT_LIVED_MS = 60 * 60_000;
const LONG_LIVED_MS = 60 * DAY_MS;

function badApp(message: string) {
  return graphError({ status: 400, type: 'OAuthException', code: 101, message });
}

export function registerOAuthRoutes(app: FastifyInstance, ctx: ThreadsContext): void {
  const { oauth, store, settings } = ctx;

  app.get('/oauth/authorize', async (req: FastifyRequest, reply: FastifyReply) => {
    const q = req.query as Record<string, string | undefined>;
    if (q.client_id !== settings.clientId) return send(reply, badApp('Error validating application. Invalid application ID.'));
    let redirect: URL;
    try {
      redirect = new URL(q.redirect_uri ?? '');
      if (redirect.protocol !== 'https:' && redirect.protocol !== 'http:') throw new Error('scheme');
    } catch {
      return send(reply, invalidParam('Invalid redirect_uri: it must be an absolute http(s) URL.'));
    }
    if (q.response_type !== 'code') return send(reply, invalidParam('Invalid response_type: only "code" is supported.'));
    const back = (params: Record<string, string>) => {
      for (const [k, v] of Object.entries(params)) redirect.searchParams.set(k, v);
      if (q.state !== undefined) redirect.searchParams.set('state', q.state);
      // Threads appends "#_" to the redirect; it is not part of the code.
      return reply.redirect(`${redirect.toString()}#_`, 302);
    };
    const requested = (q.scope ?? '').split(/[,\s]+/u).filter(Boolean);
    const unknown = requested.filter((s) => !KNOWN_SCOPES.has(s));
    if (!requested.includes('threads_basic') || unknown.length > 0) {
      return back({ error: 'invalid_scope', error_description: unknown.length ? `Unknown scope: ${unknown.join(',')}` : 'threads_basic is required' });
    }
    if (q.sandbox_deny === '1') {
      return back({ error: 'access_denied', error_reason: 'user_denied', error_description: 'Permissions error' });
    }
    const declined = new Set((q.sandbox_decline ?? '').split(',').filter((s) => s !== 'threads_basic'));
    const user = store.userFor(q.sandbox_user && q.sandbox_user.length > 0 ? q.sandbox_user : 'sandbox');
    const code = oauth.issueCode({
      userId: user.id,
      clientId: settings.clientId,
      redirectUri: q.redirect_uri!,
      scopes: requested.filter((s) => !declined.has(s)),
    });
    return back({ code });
  });

  app.post('/oauth/access_token', async (req, reply) => {
    if (param(req, 'client_id') !== settings.clientId) return send(reply, badApp('Error validating application. Invalid application ID.'));
    if (param(req, 'client_secret') !== settings.clientSecret) return send(reply, badApp('Error validating client secret.'));
    if (param(req, 'grant_type') !== 'authorization_code') return send(reply, invalidParam('Unsupported grant_type.', { type: 'OAuthException' }));
    const code = param(req, 'code');
    if (!code) return send(reply, invalidParam('Missing code parameter.', { type: 'OAuthException' }));
    const redeemed = oauth.redeemCode(code, { clientId: param(req, 'client_id'), redirectUri: param(req, 'redirect_uri') ?? '' });
    if (!redeemed.ok) return send(reply, invalidParam(redeemed.description, { type: 'OAuthException' }));
    const tokens = oauth.issueTokens(redeemed.userId, redeemed.scopes, { withRefresh: false, accessTtlMs: SHORT_LIVED_MS });
    store.tokens.set(tokens.accessToken, { issuedAt: ctx.now(), longLived: false });
    // user_id is a bare JSON number, as Threads sends it, even though it exceeds 2^53.
    return reply.type('application/json').send(`{"access_token":${JSON.stringify(tokens.accessToken)},"user_id":${redeemed.userId}}`);
  });

  app.get('/access_token', async (req, reply) => {
    if (param(req, 'grant_type') !== 'th_exchange_token') return send(reply, invalidParam('Unsupported grant_type; use th_exchange_token.'));
    if (param(req, 'client_secret') !== settings.clientSecret) return send(reply, badApp('Error validating client secret.'));
    const exchanged = oauth.exchange(param(req, 'access_token') ?? '', LONG_LIVED_MS);
    if (!exchanged.ok) return send(reply, accessError(exchanged.reason as 'missing' | 'invalid' | 'expired' | 'revoked'));
    store.tokens.set(exchanged.tokens.accessToken, { issuedAt: ctx.now(), longLived: true });
    return { access_token: exchanged.tokens.accessToken, token_type: 'bearer', expires_in: exchanged.tokens.expiresIn };
  });

  app.get('/refresh_access_token', async (req, reply) => {
    if (param(req, 'grant_type') !== 'th_refresh_token') return send(reply, invalidParam('Unsupported grant_type; use th_refresh_token.'));
    const caller = authenticate(ctx, req);
    if (isError(caller)) return send(reply, caller);
    const info = store.tokens.get(caller.token);
    if (!info?.longLived) return send(reply, invalidParam('Only long-lived access tokens can be refreshed.'));
    if (ctx.now() - info.issuedAt < settings.refreshMinAgeMs) {
      return send(reply, invalidParam('The access token can only be refreshed once it is at least 24 hours old.'));
    }
    const refreshed = oauth.exchange(caller.token, LONG_LIVED_MS);
    if (!refreshed.ok) return send(reply, accessError('invalid'));
    store.tokens.set(refreshed.tokens.accessToken, { issuedAt: ctx.now(), longLived: true });
    return { access_token: refreshed.tokens.accessToken, token_type: 'bearer', expires_in: refreshed.tokens.expiresIn };
  });

  app.get('/v1.0/debug_token', async (req, reply) => {
    const caller = authenticate(ctx, req, []);
    if (isError(caller)) return send(reply, caller);
    const input = param(req, 'input_token');
    if (!input) return send(reply, invalidParam('(#100) The parameter input_token is required'));
    const record = oauth.inspect(input);
    if (!record) return { data: { error: { code: 190, message: 'Invalid OAuth access token.' }, is_valid: false, scopes: [] } };
    // A user token inspects its own user's tokens only.
    if (record.userId !== caller.user.id) return send(reply, invalidParam('(#100) The input_token was not issued to this user'));
    const issuedAt = store.tokens.get(input)?.issuedAt ?? ctx.now();
    return {
      data: {
        type: 'USER',
        application: 'Herald Sandbox',
        data_access_expires_at: Math.floor((issuedAt + 90 * DAY_MS) / 1000),
        expires_at: record.expiresAt === null ? 0 : Math.floor(record.expiresAt / 1000),
        is_valid: record.valid,
        issued_at: Math.floor(issuedAt / 1000),
        scopes: record.scopes,
        user_id: record.userId,
      },
    };
  });
}
