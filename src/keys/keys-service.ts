// API keys: issued by the operator's command line, stored only as a SHA-256 hash plus a display prefix.
import type { DbTx } from '../db/schema.ts';
import type { Kysely } from 'kysely';
import type { ApiKeyRow, Database } from '../db/schema.ts';
import type { Writer } from '../db/writer.ts';
import type { Clock } from '../lib/clock.ts';
import { prepare } from '../db/prepared.ts';
import { sha256Hex } from '../lib/crypto.ts';
import { newId, randomToken } from '../lib/ids.ts';

export interface ApiKeyInfo {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  revokedAt: string | null;
  defaultRedirectUrl: string | null;
}

export interface CreatedKey extends ApiKeyInfo {
  /** The key itself: shown once, never stored. */
  key: string;
}

/** The authenticated caller, as handlers see it. */
export interface Caller {
  id: string;
  name: string;
  defaultRedirectUrl: string | null;
}

const KEY_SHAPE = /^hk_[A-Za-z0-9_-]{40,}$/;
const PREFIX_LENGTH = 11; // "hk_" + 8 characters: enough to tell keys apart in a list

function info(row: ApiKeyRow): ApiKeyInfo {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    createdAt: new Date(row.created_at).toISOString(),
    revokedAt: row.revoked_at === null ? null : new Date(row.revoked_at).toISOString(),
    defaultRedirectUrl: row.default_redirect_url,
  };
}

// Run on every request: built and compiled once (see db/prepared.ts).
const keyByHash = prepare<[string], Pick<ApiKeyRow, 'id' | 'name' | 'default_redirect_url' | 'revoked_at'>>(1, (db, hash) =>
  db.selectFrom('api_keys').select(['id', 'name', 'default_redirect_url', 'revoked_at']).where('key_hash', '=', hash),
);

export function createKeysService(deps: { db: Kysely<Database>; write: Writer['write']; clock: Clock }) {
  const { db, write, clock } = deps;
  return {
    /** Issues a key; inside `trx` when given (the first key's transaction), else in a write of its own. */
    async create(name: string, trx?: DbTx): Promise<CreatedKey> {
      const key = `hk_${randomToken(32)}`; // 43 url-safe characters after the prefix
      const row: ApiKeyRow = {
        id: newId('key'),
        name,
        prefix: key.slice(0, PREFIX_LENGTH),
        key_hash: sha256Hex(key),
        default_redirect_url: null,
        created_at: clock.now(),
        revoked_at: null,
      };
      if (trx) await trx.insertInto('api_keys').values(row).execute();
      else await write((w) => w.insertInto('api_keys').values(row).execute());
      return { ...info(row), key };
    },

    async list(): Promise<ApiKeyInfo[]> {
      const rows = await db.selectFrom('api_keys').selectAll().orderBy('created_at').orderBy('id').execute();
      return rows.map(info);
    },

    async count(executor: DbTx = db): Promise<number> {
      const row = await executor.selectFrom('api_keys').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** Returns false when no such key exists. Revoking twice keeps the first time. */
    async revoke(id: string): Promise<boolean> {
      const found = await db.selectFrom('api_keys').select('id').where('id', '=', id).executeTakeFirst();
      if (!found) return false;
      await write((trx) => trx.updateTable('api_keys').set({ revoked_at: clock.now() }).where('id', '=', id).where('revoked_at', 'is', null).execute());
      return true;
    },

    async setDefaultRedirectUrl(id: string, url: string | null): Promise<ApiKeyInfo | null> {
      await write((trx) => trx.updateTable('api_keys').set({ default_redirect_url: url }).where('id', '=', id).execute());
      const row = await db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? info(row) : null;
    },

    /** The caller a raw key belongs to, or null for malformed, unknown or revoked keys. */
    async authenticate(rawKey: string): Promise<Caller | null> {
      if (!KEY_SHAPE.test(rawKey)) return null;
      const row = (await keyByHash.execute(db, sha256Hex(rawKey))).rows[0];
      if (!row || row.revoked_at !== null) return null;
      return { id: row.id, name: row.name, defaultRedirectUrl: row.default_redirect_url };
    },
  };
}

export type KeysService = ReturnType<typeof createKeysService>;
