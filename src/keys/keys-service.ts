// API keys: issued by the operator's command line, stored only as a SHA-256 hash plus a display prefix.
import type { ApiKeyRow, DbTx } from '../db/schema.ts';
import type { Writer } from '../db/writer.ts';
import type { Clock } from '../lib/clock.ts';
import { sha256Hex } from '../lib/crypto.ts';
import { newId, randomToken } from '../lib/ids.ts';
import { CALLER_BY_HASH_SQL, type KeysDal } from './keys-dal.ts';

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

/** The caller a key's row stands for (authenticate, and the key read with its rate limit on PostgreSQL). */
function callerOf(row: Pick<ApiKeyRow, 'id' | 'name' | 'default_redirect_url'>): Caller {
  return { id: row.id, name: row.name, defaultRedirectUrl: row.default_redirect_url };
}

export function createKeysService(deps: { dal: KeysDal; write: Writer['write']; clock: Clock }) {
  const { dal, write, clock } = deps;
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
      if (trx) await dal.insert(trx, row);
      else await write((w) => dal.insert(w, row));
      return { ...info(row), key };
    },

    async list(): Promise<ApiKeyInfo[]> {
      return (await dal.list()).map(info);
    },

    count: (executor?: DbTx) => dal.count(executor),

    /** Returns false when no such key exists. Revoking twice keeps the first time. */
    async revoke(id: string): Promise<boolean> {
      if (!(await dal.byId(id))) return false;
      await write((trx) => dal.revoke(trx, id, clock.now()));
      return true;
    },

    async setDefaultRedirectUrl(id: string, url: string | null): Promise<ApiKeyInfo | null> {
      await write((trx) => dal.setDefaultRedirectUrl(trx, id, url));
      const row = await dal.byId(id);
      return row ? info(row) : null;
    },

    /**
     * The read that authenticate makes, as SQL to run within another statement (the rate limit's on
     * PostgreSQL); its row is turned into the caller by callerOf. Null for a malformed key.
     */
    lookup(rawKey: string): { text: string; values: unknown[] } | null {
      return KEY_SHAPE.test(rawKey) ? { text: CALLER_BY_HASH_SQL, values: [sha256Hex(rawKey)] } : null;
    },

    callerOf,

    /** The caller a raw key belongs to, or null for malformed, unknown or revoked keys. */
    async authenticate(rawKey: string): Promise<Caller | null> {
      if (!KEY_SHAPE.test(rawKey)) return null;
      const row = await dal.byHash(sha256Hex(rawKey));
      if (!row || row.revoked_at !== null) return null;
      return callerOf(row);
    },
  };
}

export type KeysService = ReturnType<typeof createKeysService>;
