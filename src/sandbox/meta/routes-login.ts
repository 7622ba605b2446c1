// Facebook Login as the emulator plays it: the consent dialog (approves at once), the token endpoint
// (code, fb_exchange_token, client_credentials), identity, Pages with their tokens, debug_token, revoke.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authenticate, badParam, graphError, fieldsOf, hasScope, LONG_LIVED_MS, paginate, param, select, type MetaContext } from './graph-http.ts';
import type { Page } from './state.ts';

const PAGE_TASKS = ['ADVERTISE', 'ANALYZE', 'CREATE_CONTENT', 'MESSAGING', 'MODERATE', 'MANAGE'];
const DATA_ACCESS_MS = 90 * 24 * 60 * 60_000;
/** Facebook Login permissions (developers.facebook.com/docs/permissions); anything else is an invalid scope. */
const KNOWN_PERMISSIONS = new Set([
  'public_profile', 'email', 'ads_management', 'ads_read', 'attribution_read', 'business_management', 'catalog_management',
  'groups_access_member_info', 'instagram_basic', 'instagram_content_publish', 'instagram_manage_comments',
  'instagram_manage_events', 'instagram_manage_insights', 'instagram_manage_messages', 'instagram_shopping_tag_products',
  'instagram_branded_content_brand', 'instagram_branded_content_creator', 'instagram_branded_content_ads_brand',
  'leads_retrieval', 'page_events', 'pages_manage_ads', 'pages_manage_cta', 'pages_manage_engagement',
  'pages_manage_instant_articles', 'pages_manage_metadata', 'pages_manage_posts', 'pages_messaging', 'pages_read_engagement',
  'pages_read_user_content', 'pages_show_list', 'pages_utility_messaging', 'publish_to_groups', 'publish_video', 'read_insights',
  'user_age_range', 'user_birthday', 'user_friends', 'user_gender', 'user_hometown', 'user_likes', 'user_link', 'user_location',
  'user_photos', 'user_posts', 'user_videos', 'whatsapp_business_management', 'whatsapp_business_messaging',
]);

export function loginRoutes(app: FastifyInstance, ctx: MetaContext): void {
  const dialog = async (req: FastifyRequest, reply: FastifyReply) => {
    const q = req.query as Record<string, string | undefined>;
    if (q.client_id !== ctx.clientId) return reply.code(400).type('text/plain').send('Invalid App ID: the client_id is not a sandbox app');
    let redirect: URL;
    try {
      redirect = new URL(q.redirect_uri ?? '');
      if (redirect.protocol !== 'https:' && redirect.protocol !== 'http:') throw new Error('scheme');
    } catch {
      return reply.code(400).type('text/plain').send('redirect_uri is missing or not an absolute http(s) URL');
    }
    if (q.response_type !== undefined && q.response_type !== 'code') {
      return reply.code(400).type('text/plain').send('response_type must be code: the sandbox serves the server-side code flow only');
    }
    const scopes = (q.scope ?? '').split(/[,\s]+/).filter(Boolean);
    // The dialog shows an error page, and does not redirect, when a permission does not exist.
    const unknown = scopes.filter((s) => !KNOWN_PERMISSIONS.has(s));
    if (unknown.length > 0) return reply.code(400).type('text/plain').send(`Invalid Scopes: ${unknown.join(', ')}. This message is only shown to developers.`);
    const pages = Math.max(0, Math.min(Number(q.sandbox_pages ?? 2) || 0, 50));
    const user = ctx.state.ensureUser((q.sandbox_user ?? 'sandbox').slice(0, 64), pages);
    const code = ctx.oauth.issueCode({ userId: user.id, clientId: ctx.clientId, redirectUri: q.redirect_uri as string, scopes });
    redirect.searchParams.set('code', code);
    if (q.state !== undefined) redirect.searchParams.set('state', q.state);
    // Facebook appends this fragment to every login redirect.
    redirect.hash = '_=_';
    return reply.redirect(redirect.toString(), 302);
  };
  app.get('/dialog/oauth', dialog);
  app.get('/:v/dialog/oauth', dialog);

  const token = async (req: FastifyRequest, reply: FastifyReply) => {
    const grant = param(req, 'grant_type');
    if (param(req, 'client_id') !== ctx.clientId) return graphError(reply, 400, 101, 'Error validating application. Invalid application ID.');
    // Every grant on this endpoint needs the app secret, whatever grant_type says (or does not say).
    if (param(req, 'client_secret') !== ctx.clientSecret) return graphError(reply, 400, 1, 'Error validating client secret.');
    if (grant !== undefined && !['client_credentials', 'fb_exchange_token', 'authorization_code'].includes(grant)) {
      return badParam(reply, `Unsupported grant_type: ${grant}`);
    }
    if (grant === 'client_credentials') return { access_token: `${ctx.clientId}|${ctx.clientSecret}`, token_type: 'bearer' };
    if (grant === 'fb_exchange_token') {
      const current = param(req, 'fb_exchange_token');
      const check = ctx.oauth.checkAccess(current);
      if (!check.ok) {
        if (check.reason === 'expired') return graphError(reply, 400, 190, 'Error validating access token: Session has expired.', { subcode: 463 });
        if (check.reason === 'revoked') return graphError(reply, 400, 190, 'Error validating access token: The user has not authorized application.', { subcode: 458 });
        return graphError(reply, 400, 190, 'Invalid OAuth access token - Cannot parse access token');
      }
      if (check.data?.kind !== 'user') return badParam(reply, 'fb_exchange_token must be a user access token');
      const issued = ctx.oauth.issueTokens(check.userId, check.scopes, { withRefresh: false, accessTtlMs: LONG_LIVED_MS, data: { kind: 'user', longLived: true } });
      return { access_token: issued.accessToken, token_type: 'bearer', expires_in: issued.expiresIn };
    }
    const code = param(req, 'code');
    if (!code) return badParam(reply, 'Missing code parameter');
    const redeemed = ctx.oauth.redeemCode(code, { clientId: ctx.clientId, redirectUri: param(req, 'redirect_uri') });
    if (!redeemed.ok) {
      if (/redirect_uri/.test(redeemed.description)) {
        // Missing and different redirect_uri get the same answer from Graph.
        return graphError(reply, 400, 100, 'Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request', { subcode: 36008 });
      }
      const subcode = /already been used|already used/.test(redeemed.description) ? 36009 : 36007;
      return graphError(reply, 400, 100, redeemed.description, { subcode });
    }
    const issued = ctx.oauth.issueTokens(redeemed.userId, redeemed.scopes, { withRefresh: false, data: { kind: 'user', longLived: false } });
    return { access_token: issued.accessToken, token_type: 'bearer', expires_in: issued.expiresIn };
  };
  app.get('/:v/oauth/access_token', token);
  app.post('/:v/oauth/access_token', token);

  app.get('/:v/me', async (req, reply) => {
    const caller = authenticate(ctx, req, reply);
    if (!caller) return reply;
    if (caller.kind === 'app') return badParam(reply, 'An active access token must be used to query information about the current user.');
    if (caller.kind === 'page') {
      const page = ctx.state.pages.get(caller.pageId);
      return select({ id: caller.pageId, name: page?.name }, fieldsOf(req), ['name']);
    }
    const user = ctx.state.users.get(caller.userId);
    return select({ id: caller.userId, name: user?.name }, fieldsOf(req), ['name']);
  });

  app.get('/:v/me/permissions', async (req, reply) => {
    const caller = authenticate(ctx, req, reply);
    if (!caller) return reply;
    if (caller.kind !== 'user') return badParam(reply, 'Permissions can only be read with a user access token');
    return { data: caller.scopes.map((permission) => ({ permission, status: 'granted' })) };
  });

  app.get('/:v/me/accounts', async (req, reply) => {
    const caller = authenticate(ctx, req, reply);
    if (!caller) return reply;
    if (caller.kind !== 'user') return badParam(reply, 'Pages can only be listed with a user access token');
    if (!hasScope(caller, 'pages_show_list')) return graphError(reply, 403, 200, '(#200) Requires pages_show_list permission');
    const fields = fieldsOf(req);
    const wanted = (name: string) => !fields || fields.has(name);
    const entries = ctx.state.grantedPages(caller.userId).map((page) => pageEntry(ctx, page, caller.scopes, caller.longLived, wanted));
    const listed = entries.map((e) => select(e, fields, ['name', 'access_token', 'category', 'tasks']));
    return paginate(req, `${req.protocol}://${req.host}`, listed, ctx.accountsPageSize);
  });

  app.get('/:v/debug_token', async (req, reply) => {
    const caller = authenticate(ctx, req, reply);
    if (!caller) return reply;
    // Sandbox users are not developers of the app: only the app token may inspect tokens.
    if (caller.kind !== 'app') return badParam(reply, 'You must provide an app access token, or a user access token that is an owner or developer of the app');
    const input = param(req, 'input_token');
    if (!input) return badParam(reply, 'The parameter input_token is required');
    const record = ctx.oauth.inspect(input);
    const now = ctx.now();
    if (!record) {
      return { data: { app_id: ctx.clientId, is_valid: false, scopes: [], error: { code: 190, message: 'Invalid OAuth access token.' } } };
    }
    const data = record.data ?? {};
    const isPage = data.kind === 'page';
    const userId = typeof data.userId === 'string' ? data.userId : record.userId;
    const base = {
      app_id: ctx.clientId,
      type: isPage ? 'PAGE' : 'USER',
      application: 'Herald Sandbox',
      data_access_expires_at: Math.floor((now + DATA_ACCESS_MS) / 1000),
      expires_at: record.expiresAt === null ? 0 : Math.floor(record.expiresAt / 1000),
      is_valid: record.valid,
      scopes: record.valid ? record.scopes : [],
      granular_scopes: record.valid ? record.scopes.map((scope) => ({ scope })) : [],
      user_id: userId,
      ...(isPage ? { profile_id: data.pageId } : {}),
    };
    if (record.valid) return { data: base };
    const error = record.revoked
      ? { code: 190, subcode: 458, message: 'Error validating access token: The user has not authorized application.' }
      : { code: 190, subcode: 463, message: 'Error validating access token: Session has expired.' };
    return { data: { ...base, error } };
  });

  app.delete('/:v/:id/permissions', async (req, reply) => {
    const caller = authenticate(ctx, req, reply);
    if (!caller) return reply;
    const { id: userId } = req.params as { id: string };
    const user = ctx.state.users.get(userId);
    if (!user) return badParam(reply, `Unknown user ${userId}`, 33);
    if (caller.kind === 'page' || (caller.kind === 'user' && caller.userId !== userId)) {
      return graphError(reply, 403, 200, '(#200) Permissions can only be removed by the user or the app');
    }
    ctx.oauth.revokeUser(userId);
    for (const page of user.pages) ctx.oauth.revokeUser(page.id);
    return { success: true };
  });
}

function pageEntry(ctx: MetaContext, page: Page, scopes: string[], longLived: boolean, wanted: (f: string) => boolean): Record<string, unknown> {
  const entry: Record<string, unknown> = {
    id: page.id,
    name: page.name,
    username: page.username,
    category: 'Software',
    tasks: PAGE_TASKS,
    picture: { data: { height: 50, width: 50, is_silhouette: false, url: `https://sandbox.invalid/pages/${page.id}/picture.jpg` } },
    instagram_business_account: {
      id: page.ig.id,
      username: page.ig.username,
      name: page.ig.name,
      profile_picture_url: `https://sandbox.invalid/instagram/${page.ig.id}/picture.jpg`,
    },
  };
  if (wanted('access_token')) {
    // Page tokens minted from a long-lived user token do not expire; from a short-lived one, they last an hour.
    // They are kept under the Page's id so tests can expire one Page's token on its own.
    const issued = ctx.oauth.issueTokens(page.id, scopes, {
      withRefresh: false,
      accessTtlMs: longLived ? null : 60 * 60_000,
      data: { kind: 'page', pageId: page.id, userId: page.userId },
    });
    entry.access_token = issued.accessToken;
  }
  return entry;
}
