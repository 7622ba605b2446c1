// Data access for token care: reading an account, writing refreshed tokens, the refresh lease, and the
// needs_reconnect mark. Tokens arrive sealed.
import type { Kysely } from 'kysely';
import type { AccountRow, Database, DbTx } from '../db/schema.ts';

export interface SealedGrant {
  access_token: string;
  refresh_token: string | null;
  token_expires_at: number | null;
  refresh_expires_at?: number | null;
  scopes: string;
}

export function createCredentialsDal(deps: { db: Kysely<Database> }) {
  const { db } = deps;
  return {
    async load(rowId: string): Promise<AccountRow | undefined> {
      return db.selectFrom('accounts').selectAll().where('id', '=', rowId).executeTakeFirst();
    },

    /**
     * Takes the refresh lease of an account whose access token is still `accessToken`; false when another
     * process holds an unexpired lease, or the tokens already changed.
     */
    async takeLease(trx: DbTx, rowId: string, accessToken: string, leaseId: string, now: number, until: number): Promise<boolean> {
      const res = await trx
        .updateTable('accounts')
        .set({ refresh_lease_id: leaseId, refresh_lease_until: until })
        .where('id', '=', rowId)
        .where('access_token', '=', accessToken)
        .where('status', '=', 'active')
        .where((eb) => eb.or([eb('refresh_lease_until', 'is', null), eb('refresh_lease_until', '<', now)]))
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },

    /** Stores refreshed tokens and gives the lease back; false when the lease was lost meanwhile. */
    async saveRefreshed(trx: DbTx, rowId: string, leaseId: string, grant: SealedGrant, now: number): Promise<boolean> {
      const res = await trx
        .updateTable('accounts')
        .set({ ...grant, status: 'active', updated_at: now, refresh_lease_id: null, refresh_lease_until: null })
        .where('id', '=', rowId)
        .where('refresh_lease_id', '=', leaseId)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },

    async releaseLease(trx: DbTx, rowId: string, leaseId: string): Promise<void> {
      await trx.updateTable('accounts').set({ refresh_lease_id: null, refresh_lease_until: null }).where('id', '=', rowId).where('refresh_lease_id', '=', leaseId).execute();
    },

    /** Marks the account needs_reconnect if its token is still the one refused; true when it did. */
    async markNeedsReconnect(trx: DbTx, rowId: string, accessToken: string, now: number): Promise<boolean> {
      const res = await trx
        .updateTable('accounts')
        .set({ status: 'needs_reconnect', updated_at: now, refresh_lease_id: null, refresh_lease_until: null })
        .where('id', '=', rowId)
        .where('access_token', '=', accessToken)
        .where('status', '=', 'active')
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },

    async setMeta(trx: DbTx, rowId: string, meta: string, now: number): Promise<void> {
      await trx.updateTable('accounts').set({ meta, updated_at: now }).where('id', '=', rowId).execute();
    },

    /** Active accounts whose tokens end before `before` and whose expiry was not announced yet. */
    async expiringUnannounced(before: number, limit: number): Promise<AccountRow[]> {
      return db
        .selectFrom('accounts')
        .selectAll()
        .where('status', '=', 'active')
        .where('token_expires_at', '<', before)
        .where((eb) => eb.or([eb('expiry_announced_for', 'is', null), eb('expiry_announced_for', '<>', eb.ref('token_expires_at'))]))
        .orderBy('token_expires_at')
        .limit(limit)
        .execute();
    },

    /** Marks an expiry announced; false when another process announced it first. */
    async markExpiryAnnounced(trx: DbTx, rowId: string, expiresAt: number): Promise<boolean> {
      const res = await trx
        .updateTable('accounts')
        .set({ expiry_announced_for: expiresAt })
        .where('id', '=', rowId)
        .where('token_expires_at', '=', expiresAt)
        .where((eb) => eb.or([eb('expiry_announced_for', 'is', null), eb('expiry_announced_for', '<>', expiresAt)]))
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },

    /** Active accounts of a platform whose tokens expire before `before`, soonest first. */
    async expiringBefore(platform: string, before: number, limit: number): Promise<AccountRow[]> {
      return db
        .selectFrom('accounts')
        .selectAll()
        .where('platform', '=', platform)
        .where('status', '=', 'active')
        .where('token_expires_at', '<', before)
        .orderBy('token_expires_at')
        .limit(limit)
        .execute();
    },
  };
}

export type CredentialsDal = ReturnType<typeof createCredentialsDal>;
