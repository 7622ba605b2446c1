// Data access for connected accounts. Tokens arrive here already sealed (accounts-service seals and
// opens them); this file never sees a plaintext token.
import type { Kysely } from 'kysely';
import { prepareByShape } from '../db/prepared.ts';
import type { AccountRow, Database, DbTx } from '../db/schema.ts';
import type { Platform } from '../platforms/registry.ts';

/** What a post's create-time checks need of an account it names (not its tokens). */
export type NamedAccount = Pick<AccountRow, 'platform' | 'account_id' | 'status' | 'meta'>;

// Read with every post created: compiled once per number of platforms and of accounts named (see
// db/prepared.ts). The platforms are named so that the read is a seek of the key's unique index
// (api_key_id, platform, account_id) per pair; with the accounts alone SQLite, which keeps no statistics,
// reads every account of the key, a cost that grows with the key's accounts. A pair no target names (an
// account id of one target under another's platform) may come back: it is keyed apart and never looked up.
const SHAPE_ACCOUNTS = 1024;
const accountsNamed = prepareByShape<NamedAccount>(
  (shape) => 1 + Math.floor(shape / SHAPE_ACCOUNTS) + (shape % SHAPE_ACCOUNTS),
  (db, shape, [apiKeyId, ...rest]) => {
    const platforms = Math.floor(shape / SHAPE_ACCOUNTS);
    return db
      .selectFrom('accounts')
      .select(['platform', 'account_id', 'status', 'meta'])
      .where('api_key_id', '=', apiKeyId)
      .where('platform', 'in', rest.slice(0, platforms) as Platform[])
      .where('account_id', 'in', rest.slice(platforms));
  },
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
      const platforms = [...new Set(targets.map((t) => t.platform))];
      const ids = [...new Set(targets.map((t) => t.accountId))];
      // A body names at most MAX_TARGETS accounts; the shape counts up to 1,023.
      if (ids.length >= SHAPE_ACCOUNTS) throw new Error(`${ids.length} accounts named in one read`);
      const { rows } = await accountsNamed.execute(executor, platforms.length * SHAPE_ACCOUNTS + ids.length, [apiKeyId, ...platforms, ...ids]);
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
