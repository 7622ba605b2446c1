// Idempotency-Key (API.md section 5). The first request with a key claims it with a lease; its completed
// response is stored for 24 h and replayed. The claim is one conditional insert, so concurrent duplicates
// (even in other processes) cannot both proceed. A claimer that crashed loses its lease: the next request
// takes over, and if the first one had already created its post, that post is answered instead of a new one.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
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

export function createIdempotencyStore(deps: { db: Kysely<Database>; clock: Clock; leaseMs: number }): IdempotencyStore {
  const { db, clock, leaseMs } = deps;
  const where = (apiKeyId: string, key: string) =>
    db.selectFrom('idempotency_keys').selectAll().where('api_key_id', '=', apiKeyId).where('key', '=', key);

  async function insertClaim(apiKeyId: string, key: string, requestHash: string, now: number): Promise<boolean> {
    const result = await db
      .insertInto('idempotency_keys')
      .values({
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
      })
      .onConflict((oc) => oc.columns(['api_key_id', 'key']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
  }

  return {
    async claim(apiKeyId, key, requestHash) {
      for (let round = 0; round < 3; round++) {
        const now = clock.now();
        if (await insertClaim(apiKeyId, key, requestHash, now)) return { kind: 'claimed' };
        const row = await where(apiKeyId, key).executeTakeFirst();
        if (!row) continue; // purged between the two statements
        if (row.expires_at <= now) {
          await db
            .deleteFrom('idempotency_keys')
            .where('api_key_id', '=', apiKeyId)
            .where('key', '=', key)
            .where('expires_at', '<=', now)
            .execute();
          continue;
        }
        if (row.request_hash !== requestHash) return { kind: 'mismatch' };
        if (row.state === 'done') return { kind: 'replay', status: row.response_status ?? 200, body: row.response_body ?? '' };
        if (row.locked_until > now) return { kind: 'in_flight' };
        // The claimer's lease ran out: take over, unless another request just did.
        const took = await db
          .updateTable('idempotency_keys')
          .set({ locked_until: now + leaseMs })
          .where('api_key_id', '=', apiKeyId)
          .where('key', '=', key)
          .where('state', '=', 'in_flight')
          .where('locked_until', '=', row.locked_until)
          .executeTakeFirst();
        if (Number(took.numUpdatedRows) !== 1) return { kind: 'in_flight' };
        return row.resource_id ? { kind: 'recovered', resourceId: row.resource_id } : { kind: 'claimed' };
      }
      return { kind: 'in_flight' };
    },

    async attachResource(trx, apiKeyId, key, resourceId) {
      await trx
        .updateTable('idempotency_keys')
        .set({ resource_id: resourceId })
        .where('api_key_id', '=', apiKeyId)
        .where('key', '=', key)
        .execute();
    },

    async complete(apiKeyId, key, status, body) {
      await db
        .updateTable('idempotency_keys')
        .set({ state: 'done', response_status: status, response_body: body })
        .where('api_key_id', '=', apiKeyId)
        .where('key', '=', key)
        .execute();
    },

    async release(apiKeyId, key) {
      await db
        .deleteFrom('idempotency_keys')
        .where('api_key_id', '=', apiKeyId)
        .where('key', '=', key)
        .where('state', '=', 'in_flight')
        .execute();
    },

    async purgeExpired() {
      const r = await db.deleteFrom('idempotency_keys').where('expires_at', '<=', clock.now()).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
  };
}
