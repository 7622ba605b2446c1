// Who the token belongs to (/2/users/me), used by connect and health. subscription_type decides
// long posts and editing, so it is kept on the account and refreshed by every health check.
import type { AdapterDeps } from '../deps.ts';
import { failure, type AccountMeta, type ConnectedAccount, type Outcome, type TokenGrant } from '../types.ts';
import { callX, dataOf } from './api.ts';
import { isSuccess, xFailure } from './errors.ts';

export interface XUser {
  id: string;
  username: string;
  name?: string;
  profileImageUrl?: string;
  subscriptionType?: string;
  verifiedType?: string;
}

const USER_FIELDS = 'id,name,username,profile_image_url,verified,verified_type,subscription_type';

export async function fetchMe(deps: AdapterDeps, token: string, signal?: AbortSignal): Promise<Outcome<{ user: XUser }>> {
  const res = await callX(deps, { method: 'GET', path: '/2/users/me', token, query: { 'user.fields': USER_FIELDS }, signal });
  if (!isSuccess(res)) return xFailure(res, deps.clock.now(), 'X refused the identity check');
  const d = dataOf(res.body);
  if (!d || typeof d.id !== 'string' || typeof d.username !== 'string') {
    return failure('platform_unavailable', 'X answered /2/users/me without a user', { httpStatus: res.status });
  }
  const s = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v : undefined);
  return {
    ok: true,
    user: {
      id: d.id,
      username: d.username,
      name: s(d.name),
      profileImageUrl: s(d.profile_image_url),
      subscriptionType: s(d.subscription_type),
      verifiedType: s(d.verified_type),
    },
  };
}

export function userMeta(user: XUser): AccountMeta {
  const meta: AccountMeta = { subscriptionType: user.subscriptionType ?? 'None' };
  if (user.verifiedType) meta.verifiedType = user.verifiedType;
  return meta;
}

export function toConnectedAccount(user: XUser, grant: TokenGrant): ConnectedAccount {
  const account: ConnectedAccount = { accountId: user.id, username: user.username, grant, meta: userMeta(user) };
  if (user.name) account.displayName = user.name;
  if (user.profileImageUrl) account.avatarUrl = user.profileImageUrl;
  return account;
}
