// Data access for connected accounts. Tokens arrive here already sealed (accounts-service seals and
// opens them); this file never sees a plaintext token.
import type { Kysely } from 'kysely';
import type { AccountRow, Database } from '../db/schema.ts';
import type { Platform } from '../platforms/types.ts';

export function createAccountsDal(deps: { db: Kysely<Database> }) {
  const { db } = deps;
  return {
    async find(apiKeyId: string, platform: Platform, accountId: string, executor: Kysely<Database> = db): Promise<AccountRow | undefined> {
      return executor
        .selectFrom('accounts')
        .selectAll()
        .where('api_key_id', '=', apiKeyId)
        .where('platform', '=', platform)
        .where('account_id', '=', accountId)
        .executeTakeFirst();
    },

    /** The accounts a set of targets names, keyed "platform:accountId". */
    async findForTargets(apiKeyId: string, targets: readonly { platform: Platform; accountId: string }[]): Promise<Map<string, AccountRow>> {
      const out = new Map<string, AccountRow>();
      if (targets.length === 0) return out;
      const rows = await db
        .selectFrom('accounts')
        .selectAll()
        .where('api_key_id', '=', apiKeyId)
        .where('account_id', 'in', [...new Set(targets.map((t) => t.accountId))])
        .execute();
      for (const row of rows) out.set(`${row.platform}:${row.account_id}`, row);
      return out;
    },

    async list(apiKeyId: string, platform?: Platform): Promise<AccountRow[]> {
      let q = db.selectFrom('accounts').selectAll().where('api_key_id', '=', apiKeyId);
      if (platform) q = q.where('platform', '=', platform);
      return q.orderBy('connected_at').orderBy('id').execute();
    },
  };
}

export type AccountsDal = ReturnType<typeof createAccountsDal>;
