// Data access for connected accounts. Tokens arrive here already sealed (accounts-service seals and
// opens them); this file never sees a plaintext token.
import type { Kysely } from 'kysely';
import { prepareByShape } from '../db/prepared.ts';
import type { AccountRow, Database, DbTx } from '../db/schema.ts';
import type { Platform } from '../platforms/registry.ts';

/** What a post's create-time checks need of an account it names (not its tokens). */
export type NamedAccount = Pick<AccountRow, 'platform' | 'account_id' | 'status' | 'meta'>;

// Read with every post created: compiled once per number of accounts named (see db/prepared.ts).
const accountsNamed = prepareByShape<NamedAccount>(
  (n) => n + 1,
  (db, _n, [apiKeyId, ...accountIds]) =>
    db.selectFrom('accounts').select(['platform', 'account_id', 'status', 'meta']).where('api_key_id', '=', apiKeyId).where('account_id', 'in', accountIds),
);

export function createAccountsDal(deps: { db: Kysely<Database> }) {
  const { db } = deps;
  return {
    async find(apiKeyId: string, platform: Platform, accountId: string, executor: DbTx = db): Promise<AccountRow | undefined> {
      return executor
        .selectFrom('accounts')
        .selectAll()
        .where('api_key_id', '=', apiKeyId)
        .where('platform', '=', platform)
        .where('account_id', '=', accountId)
        .executeTakeFirst();
    },

    /** The accounts a set of targets names, keyed "platform:accountId". */
    async findForTargets(apiKeyId: string, targets: readonly { platform: Platform; accountId: string }[], executor: DbTx = db): Promise<Map<string, NamedAccount>> {
      const out = new Map<string, NamedAccount>();
      if (targets.length === 0) return out;
      const ids = [...new Set(targets.map((t) => t.accountId))];
      const { rows } = await accountsNamed.execute(executor, ids.length, [apiKeyId, ...ids]);
      for (const row of rows) out.set(`${row.platform}:${row.account_id}`, row);
      return out;
    },

    async markActive(trx: DbTx, rowId: string, now: number): Promise<void> {
      await trx.updateTable('accounts').set({ status: 'active', updated_at: now }).where('id', '=', rowId).execute();
    },

    async remove(trx: DbTx, rowId: string): Promise<void> {
      await trx.deleteFrom('accounts').where('id', '=', rowId).execute();
    },

    async list(apiKeyId: string, platform?: Platform): Promise<AccountRow[]> {
      let q = db.selectFrom('accounts').selectAll().where('api_key_id', '=', apiKeyId);
      if (platform) q = q.where('platform', '=', platform);
      return q.orderBy('connected_at').orderBy('id').execute();
    },
  };
}

export type AccountsDal = ReturnType<typeof createAccountsDal>;
