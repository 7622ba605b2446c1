// Whether an account's token renews by itself, and when one that does not should be announced. Pure.
import type { AccountRow } from '../db/schema.ts';
import type { PlatformInfo } from '../platforms/types.ts';

/** True when Herald can renew this account's token without the user (see PlatformInfo.renewal). */
export function renewsItself(info: PlatformInfo, row: Pick<AccountRow, 'refresh_token'>): boolean {
  if (info.refreshAheadMs === null) return false;
  const renewal = info.renewal ?? 'refresh_token';
  if (renewal === 'none') return false;
  return renewal === 'access_token' || row.refresh_token !== null;
}

/** A token that ends within the warning window and will not be renewed: the user must connect again. */
export function expiresUnrenewed(info: PlatformInfo, row: Pick<AccountRow, 'refresh_token' | 'token_expires_at'>, now: number, windowMs: number): boolean {
  return row.token_expires_at !== null && row.token_expires_at - now < windowMs && !renewsItself(info, row);
}
