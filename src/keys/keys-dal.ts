// Data access for API keys: rows hold the key's SHA-256 hash and a display prefix, never the key.
import type { Kysely } from 'kysely';
import { prepare } from '../db/prepared.ts';
import type { ApiKeyRow, Database, DbTx } from '../db/schema.ts';

// Run on every request: built and compiled once (see db/prepared.ts).
const keyByHash = prepare<[string], Pick<ApiKeyRow, 'id' | 'name' | 'default_redirect_url' | 'revoked_at'>>(1, (db, hash) =>
  db.selectFrom('api_keys').select(['id', 'name', 'default_redirect_url', 'revoked_at']).where('key_hash', '=', hash),
);

/**
 * The caller row of a key hash, unrevoked, as SQL text: run together with the key's rate limit in one
 * statement on PostgreSQL (see RateLimiter.consumeAfter).
 */
export const CALLER_BY_HASH_SQL = 'select id, name, default_redirect_url from api_keys where key_hash = $1 and revoked_at is null';

export function createKeysDal(deps: { db: Kysely<Database> }) {
  const { db } = deps;
  return {
    async insert(trx: DbTx, row: ApiKeyRow): Promise<void> {
      await trx.insertInto('api_keys').values(row).execute();
    },
    async byHash(hash: string) {
      return (await keyByHash.execute(db, hash)).rows[0];
    },
    async byId(id: string): Promise<ApiKeyRow | undefined> {
      return db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
    },
    async list(): Promise<ApiKeyRow[]> {
      return db.selectFrom('api_keys').selectAll().orderBy('created_at').orderBy('id').execute();
    },
    async count(executor: DbTx = db): Promise<number> {
      const row = await executor.selectFrom('api_keys').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      return Number(row.n);
    },
    /** Revoking twice keeps the first time. */
    async revoke(trx: DbTx, id: string, now: number): Promise<void> {
      await trx.updateTable('api_keys').set({ revoked_at: now }).where('id', '=', id).where('revoked_at', 'is', null).execute();
    },
    async setDefaultRedirectUrl(trx: DbTx, id: string, url: string | null): Promise<void> {
      await trx.updateTable('api_keys').set({ default_redirect_url: url }).where('id', '=', id).execute();
    },
  };
}

export type KeysDal = ReturnType<typeof createKeysDal>;
