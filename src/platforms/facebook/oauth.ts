// Facebook Login for Pages: one grant yields a Page token per granted Page. The long-lived user token
// is kept as the refresh token because it mints fresh Page tokens and is needed to revoke the grant.
import type { AdapterDeps } from '../deps.ts';
import { failure, type AccountCredentials, type ConnectedAccount, type HealthReport, type Outcome, type TokenGrant } from '../types.ts';
import { obj, readAllPages, str, type Graph, type GraphBody } from '../meta/graph.ts';
import { fetchUserId, grantedPermissions, inspectToken, redeemCode, revokeGrant } from '../meta/login.ts';

const PAGE_FIELDS = 'id,name,username,access_token,tasks,picture';

export interface FacebookAuthContext {
  deps: AdapterDeps;
  graph: Graph;
}

function listPages(ctx: FacebookAuthContext, userToken: string, label: string) {
  return readAllPages(ctx.graph, '/me/accounts', userToken, { fields: PAGE_FIELDS, limit: 100 }, { label });
}

function pageAccount(page: GraphBody, userToken: string, userId: string, scopes: string[]): ConnectedAccount | undefined {
  const id = str(page, 'id');
  const token = str(page, 'access_token');
  if (!id || !token) return undefined;
  const name = str(page, 'name');
  const avatar = str(obj(obj(page, 'picture'), 'data'), 'url');
  const tasks = Array.isArray(page.tasks) ? page.tasks.filter((t): t is string => typeof t === 'string') : undefined;
  return {
    accountId: id,
    username: str(page, 'username') ?? name ?? id,
    ...(name ? { displayName: name } : {}),
    ...(avatar ? { avatarUrl: avatar } : {}),
    grant: { accessToken: token, refreshToken: userToken, expiresAt: null, scopes },
    meta: { userId, ...(tasks ? { tasks } : {}) },
  };
}

export async function connectFacebook(ctx: FacebookAuthContext, input: { code: string; redirectUri: string }): Promise<Outcome<{ accounts: ConnectedAccount[] }>> {
  const redeemed = await redeemCode(ctx.deps, ctx.graph, input, 'Facebook');
  if (!redeemed.ok) return redeemed;
  const userToken = redeemed.token.accessToken;
  const me = await fetchUserId(ctx.graph, userToken, 'Facebook /me');
  if (!me.ok) return me;
  const perms = await grantedPermissions(ctx.graph, userToken, 'Facebook permissions');
  if (!perms.ok) return perms;
  const pages = await listPages(ctx, userToken, 'Facebook Page list');
  if (!pages.ok) return pages.failure;
  const accounts = pages.items
    .map((p) => pageAccount(p, userToken, me.userId, perms.scopes))
    .filter((a): a is ConnectedAccount => a !== undefined);
  if (accounts.length === 0) {
    return failure('permission_missing', 'Facebook: no Page was granted to Herald; reconnect and select at least one Page');
  }
  return { ok: true, accounts };
}

/** A fresh Page token from the stored long-lived user token. */
export async function refreshFacebook(ctx: FacebookAuthContext, account: AccountCredentials): Promise<Outcome<{ grant: TokenGrant }>> {
  const userToken = account.refreshToken;
  if (!userToken) return failure('auth_expired', 'Facebook: no user token is stored for this Page; reconnect it');
  const pages = await listPages(ctx, userToken, 'Facebook Page token refresh');
  if (!pages.ok) return pages.failure;
  const page = pages.items.find((p) => str(p, 'id') === account.accountId);
  const token = page ? str(page, 'access_token') : undefined;
  if (!token) {
    return failure('permission_missing', 'Facebook: this Page is no longer among the Pages the user granted; reconnect it');
  }
  return { ok: true, grant: { accessToken: token, refreshToken: userToken, expiresAt: null, scopes: account.scopes } };
}

export async function revokeFacebook(ctx: FacebookAuthContext, account: AccountCredentials): Promise<Outcome<{ revoked: boolean }>> {
  const userId = typeof account.meta.userId === 'string' ? account.meta.userId : undefined;
  if (!userId) return { ok: true, revoked: false };
  return revokeGrant(ctx.deps, ctx.graph, userId, account.refreshToken, 'Facebook revoke');
}

export async function facebookHealth(ctx: FacebookAuthContext, account: AccountCredentials): Promise<Outcome<HealthReport>> {
  const res = await inspectToken(ctx.deps, ctx.graph, account.accessToken, 'Facebook debug_token');
  if (!res.ok) return res;
  const i = res.inspection;
  if (!i.valid) {
    return failure('auth_expired', `Facebook: the Page token is no longer valid${i.reason ? ` (${i.reason})` : ''}`, {
      ...(i.reasonCode ? { platformCode: i.reasonCode } : {}),
    });
  }
  return {
    ok: true,
    permissions: i.scopes,
    expiresAt: i.expiresAt,
    ...(i.dataAccessExpiresAt ? { meta: { dataAccessExpiresAt: i.dataAccessExpiresAt } } : {}),
  };
}
