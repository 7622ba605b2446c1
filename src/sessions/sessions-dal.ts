// Data access for dashboard sessions. Rows hold the SHA-256 hash of the session id, never the id.
import type { Kysely } from 'kysely';
import { prepare } from '../db/prepared.ts';
import type { Database, DashboardSessionsTable, DbTx } from '../db/schema.ts';

export interface SessionWithKey {
  api_key_id: string;
  last_seen_at: number;
  name: string;
  prefix: string;
  default_redirect_url: string | null;
}

// Run on every request made with a session: built and compiled once. The key row is read with it, so a
// revoked key ends its sessions at once, in every process.
const sessionByHash = prepare<[string], SessionWithKey & { revoked_at: number | null }>(1, (db, hash) =>
  db
    .selectFrom('dashboard_sessions as s')
    .innerJoin('api_keys as k', 'k.id', 's.api_key_id')
    .select(['s.api_key_id', 's.last_seen_at', 'k.name', 'k.prefix', 'k.default_redirect_url', 'k.revoked_at'])
    .where('s.id_hash', '=', hash),
);

export function createSessionsDal(deps: { db: Kysely<Database> }) {
  const { db } = deps;
  return {
    async insert(trx: DbTx, row: DashboardSessionsTable): Promise<void> {
      await trx.insertInto('dashboard_sessions').values(row).execute();
    },
    async byHash(hash: string): Promise<(SessionWithKey & { revoked_at: number | null }) | undefined> {
      return (await sessionByHash.execute(db, hash)).rows[0];
    },
    /** Moves last use forward; only forward, so two processes touching at once keep the later time. */
    async touch(trx: DbTx, hash: string, now: number): Promise<void> {
      await trx.updateTable('dashboard_sessions').set({ last_seen_at: now }).where('id_hash', '=', hash).where('last_seen_at', '<', now).execute();
    },
    async delete(trx: DbTx, hash: string): Promise<void> {
      await trx.deleteFrom('dashboard_sessions').where('id_hash', '=', hash).execute();
    },
    /** Sessions idle since before `before`, or of revoked keys. */
    async purge(trx: DbTx, before: number): Promise<number> {
      const idle = await trx.deleteFrom('dashboard_sessions').where('last_seen_at', '<', before).executeTakeFirst();
      const revoked = await trx
        .deleteFrom('dashboard_sessions')
        .where('api_key_id', 'in', (eb) => eb.selectFrom('api_keys').select('id').where('revoked_at', 'is not', null))
        .executeTakeFirst();
      return Number(idle.numDeletedRows) + Number(revoked.numDeletedRows);
    },
  };
}

export type SessionsDal = ReturnType<typeof createSessionsDal>;
