// Instagram through Facebook Login: the grant's long-lived user token acts for every Instagram
// professional account linked to a granted Page. Refreshing re-exchanges that token while it is valid.
import type { AdapterDeps } from '../deps.ts';
import { failure, type AccountCredentials, type ConnectedAccount, type HealthReport, type Outcome, type TokenGrant } from '../types.ts';
import { obj, readAllPages, str, type Graph } from '../meta/graph.ts';
import { exchangeForLongLived, fetchUserId, grantedPermissions, inspectToken, redeemCode, revokeGrant } from '../meta/login.ts';
import { readQuota } from './containers.ts';

export interface InstagramAuthContext {
  deps: AdapterDeps;
  graph: Graph;
}

const ACCOUNT_FIELDS = 'id,name,instagram_business_account{id,username,name,profile_picture_url}';

export async function connectInstagram(ctx: InstagramAuthContext, input: { code: string; redirectUri: string }): Promise<Outcome<{ accounts: ConnectedAccount[] }>> {
  const redeemed = await redeemCode(ctx.deps, ctx.graph, input, 'Instagram');
  if (!redeemed.ok) return redeemed;
  const { accessToken, expiresAt } = redeemed.token;
  const me = await fetchUserId(ctx.graph, accessToken, 'Instagram /me');
  if (!me.ok) return me;
  const perms = await grantedPermissions(ctx.graph, accessToken, 'Instagram permissions');
  if (!perms.ok) return perms;
  const pages = await readAllPages(ctx.graph, '/me/accounts', accessToken, { fields: ACCOUNT_FIELDS, limit: 100 }, { label: 'Instagram Page list' });
  if (!pages.ok) return pages.failure;

  const accounts = new Map<string, ConnectedAccount>();
  for (const page of pages.items) {
    const ig = obj(page, 'instagram_business_account');
    const id = str(ig, 'id');
    const pageId = str(page, 'id');
    if (!id || !pageId || accounts.has(id)) continue;
    const name = str(ig, 'name');
    const avatar = str(ig, 'profile_picture_url');
    accounts.set(id, {
      accountId: id,
      username: str(ig, 'username') ?? name ?? id,
      ...(name ? { displayName: name } : {}),
      ...(avatar ? { avatarUrl: avatar } : {}),
      grant: { accessToken, expiresAt, scopes: perms.scopes },
      meta: { pageId, userId: me.userId },
    });
  }
  if (accounts.size === 0) {
    return failure('permission_missing', 'Instagram: none of the granted Pages has a linked Instagram professional account');
  }
  return { ok: true, accounts: [...accounts.values()] };
}

export async function refreshInstagram(ctx: InstagramAuthContext, account: AccountCredentials): Promise<Outcome<{ grant: TokenGrant }>> {
  const res = await exchangeForLongLived(ctx.deps, ctx.graph, account.accessToken, 'Instagram token refresh');
  if (!res.ok) return res;
  return { ok: true, grant: { accessToken: res.token.accessToken, expiresAt: res.token.expiresAt, scopes: account.scopes } };
}

export async function revokeInstagram(ctx: InstagramAuthContext, account: AccountCredentials): Promise<Outcome<{ revoked: boolean }>> {
  const userId = typeof account.meta.userId === 'string' ? account.meta.userId : undefined;
  if (!userId) return { ok: true, revoked: false };
  return revokeGrant(ctx.deps, ctx.graph, userId, account.accessToken, 'Instagram revoke');
}

export async function instagramHealth(ctx: InstagramAuthContext, account: AccountCredentials): Promise<Outcome<HealthReport>> {
  const res = await inspectToken(ctx.deps, ctx.graph, account.accessToken, 'Instagram debug_token');
  if (!res.ok) return res;
  const i = res.inspection;
  if (!i.valid) {
    return failure('auth_expired', `Instagram: the access token is no longer valid${i.reason ? ` (${i.reason})` : ''}`, {
      ...(i.reasonCode ? { platformCode: i.reasonCode } : {}),
    });
  }
  const report: HealthReport = { permissions: i.scopes, expiresAt: i.expiresAt };
  if (i.dataAccessExpiresAt) report.meta = { dataAccessExpiresAt: i.dataAccessExpiresAt };
  // The quota is a nice-to-have in a health report; a failed read leaves it out rather than failing health.
  const quota = await readQuota(ctx.graph, account.accountId, account.accessToken);
  if (quota.ok) report.quota = { used: quota.used, total: quota.total };
  return { ok: true, ...report };
}
