// Idempotency-Key (API.md section 5). The first request with a key claims it with a lease; its completed
// response is stored for 24 h and replayed. The claim is one conditional insert, so concurrent duplicates
// (even in other processes) cannot both proceed. A claimer that crashed loses its lease: the next request
// takes over, and if the first one had already created its post, that post is answered instead of a new one.
import type { Insertable, Kysely } from 'kysely';
import { prepare, prepareRow } from '../db/prepared.ts';
import type { Database, IdempotencyKeysTable } from '../db/schema.ts';
import type { Writer } from '../db/writer.ts';
import type { Clock } from '../lib/clock.ts';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60_000;

export type Claim =
  | { kind: 'claimed' }
  /** The earlier claimer vanished after creating this resource: answer with it. */
  | { kind: 'recovered'; resourceId: string }
  | { kind: 'replay'; status: number; body: string }
  | { kind: 'in_flight' }
  | { kind: 'mismatch' };

export interface IdempotencyStore {
  claim(apiKeyId: string, key: string, requestHash: string): Promise<Claim>;
  /** Records, inside the creating transaction, what the request created. */
  attachResource(trx: Kysely<Database>, apiKeyId: string, key: string, resourceId: string): Promise<void>;
  complete(apiKeyId: string, key: string, status: number, body: string): Promise<void>;
  /** Frees the key (the response is not one to replay: 5xx). */
  release(apiKeyId: string, key: string): Promise<void>;
  /** Deletes expired records; returns how many. */
  purgeExpired(): Promise<number>;
}

// Run with every idempotent request: built and compiled once (see db/prepared.ts).
const insertClaimQuery = prepareRow<Insertable<IdempotencyKeysTable>>(
  ['api_key_id', 'key', 'request_hash', 'state', 'response_status', 'response_body', 'resource_id', 'locked_until', 'created_at', 'expires_at'],
  (db, row) => db.insertInto('idempotency_keys').values(row).onConflict((oc) => oc.columns(['api_key_id', 'key']).doNothing()),
);
const attachQuery = prepare<[string, string, string]>(3, (db, resourceId, apiKeyId, key) =>
  db.updateTable('idempotency_keys').set({ resource_id: resourceId }).where('api_key_id', '=', apiKeyId).where('key', '=', key),
);
const completeQuery = prepare<[number, string, string, string]>(4, (db, status, body, apiKeyId, key) =>
  db
    .updateTable('idempotency_keys')
    .set({ state: 'done', response_status: status, response_body: body })
    .where('api_key_id', '=', apiKeyId)
    .where('key', '=', key),
);

export function createIdempotencyStore(deps: { write: Writer['write']; clock: Clock; leaseMs: number }): IdempotencyStore {
  const { write, clock, leaseMs } = deps;
  const byKey = (trx: Kysely<Database>, apiKeyId: string, key: string) =>
    trx.selectFrom('idempotency_keys').selectAll().where('api_key_id', '=', apiKeyId).where('key', '=', key);

  async function insertClaim(trx: Kysely<Database>, apiKeyId: string, key: string, requestHash: string, now: number): Promise<boolean> {
    const result = await insertClaimQuery.execute(trx, {
      api_key_id: apiKeyId,
      key,
      request_hash: requestHash,
      state: 'in_flight',
      response_status: null,
      response_body: null,
      resource_id: null,
      locked_until: now + leaseMs,
      created_at: now,
      expires_at: now + IDEMPOTENCY_TTL_MS,
    });
    return Number(result.numAffectedRows ?? 0n) === 1;
  }

  /** The whole claim in one transaction: insert, or read what is there and decide. */
  const claimIn = (apiKeyId: string, key: string, requestHash: string) =>
    write(async (trx): Promise<Claim> => {
      const now = clock.now();
      if (await insertClaim(trx, apiKeyId, key, requestHash, now)) return { kind: 'claimed' };
      const row = await byKey(trx, apiKeyId, key).executeTakeFirst();
      if (!row) return (await insertClaim(trx, apiKeyId, key, requestHash, now)) ? { kind: 'claimed' } : { kind: 'in_flight' };
      if (row.expires_at <= now) {
        await trx.deleteFrom('idempotency_keys').where('api_key_id', '=', apiKeyId).where('key', '=', key).execute();
        return (await insertClaim(trx, apiKeyId, key, requestHash, now)) ? { kind: 'claimed' } : { kind: 'in_flight' };
      }
      if (row.request_hash !== requestHash) return { kind: 'mismatch' };
      if (row.state === 'done') return { kind: 'replay', status: row.response_status ?? 200, body: row.response_body ?? '' };
      if (row.locked_until > now) return { kind: 'in_flight' };
      // The claimer's lease ran out: take over, unless another request just did.
      const took = await trx
        .updateTable('idempotency_keys')
        .set({ locked_until: now + leaseMs })
        .where('api_key_id', '=', apiKeyId)
        .where('key', '=', key)
        .where('state', '=', 'in_flight')
        .where('locked_until', '=', row.locked_until)
        .executeTakeFirst();
      if (Number(took.numUpdatedRows) !== 1) return { kind: 'in_flight' };
      return row.resource_id ? { kind: 'recovered', resourceId: row.resource_id } : { kind: 'claimed' };
    });

  return {
    claim: claimIn,

    async attachResource(trx, apiKeyId, key, resourceId) {
      await attachQuery.execute(trx, resourceId, apiKeyId, key);
    },

    async complete(apiKeyId, key, status, body) {
      await write((trx) => completeQuery.execute(trx, status, body, apiKeyId, key));
    },

    async release(apiKeyId, key) {
      await write((trx) =>
        trx.deleteFrom('idempotency_keys').where('api_key_id', '=', apiKeyId).where('key', '=', key).where('state', '=', 'in_flight').execute(),
      );
    },

    async purgeExpired() {
      const r = await write((trx) => trx.deleteFrom('idempotency_keys').where('expires_at', '<=', clock.now()).executeTakeFirst());
      return Number(r.numDeletedRows);
    },
  };
}
