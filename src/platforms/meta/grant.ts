// Facebook Pages and Instagram accounts connected through one Facebook user share that user's grant.
import type { AccountMeta } from '../types.ts';

export function metaGrantKey(meta: AccountMeta): string | undefined {
  return typeof meta.userId === 'string' ? `meta-user:${meta.userId}` : undefined;
}
