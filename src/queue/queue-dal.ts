// Data access for queues: a key's weekly slots, and the slots queued posts hold.
import type { Kysely } from 'kysely';
import type { Database, DbTx } from '../db/schema.ts';
import { fromJson } from '../lib/json.ts';
import type { Slot } from './queue-slots.ts';

export interface QueueRow {
  timezone: string;
  slots: Slot[];
  updatedAt: number;
}

export function createQueueDal(deps: { db: Kysely<Database> }) {
  const { db } = deps;
  return {
    async get(apiKeyId: string, executor: DbTx = db): Promise<QueueRow | null> {
      const row = await executor.selectFrom('queues').selectAll().where('api_key_id', '=', apiKeyId).executeTakeFirst();
      return row ? { timezone: row.timezone, slots: fromJson<Slot[]>(row.slots, []), updatedAt: row.updated_at } : null;
    },

    async put(trx: DbTx, apiKeyId: string, timezone: string, slots: Slot[], now: number): Promise<void> {
      const values = { timezone, slots: JSON.stringify(slots), updated_at: now };
      await trx
        .insertInto('queues')
        .values({ api_key_id: apiKeyId, ...values })
        .onConflict((oc) => oc.column('api_key_id').doUpdateSet(values))
        .execute();
    },

    async delete(trx: DbTx, apiKeyId: string): Promise<boolean> {
      const res = await trx.deleteFrom('queues').where('api_key_id', '=', apiKeyId).executeTakeFirst();
      return Number(res.numDeletedRows) > 0;
    },

    /** The slots held by this key's queued posts at or after `from`. */
    async takenSince(apiKeyId: string, from: number, executor: DbTx = db): Promise<Set<number>> {
      const rows = await executor
        .selectFrom('posts')
        .select('queued_slot')
        .where('api_key_id', '=', apiKeyId)
        .where('queued_slot', '>=', from)
        .execute();
      return new Set(rows.map((r) => r.queued_slot!));
    },
  };
}

export type QueueDal = ReturnType<typeof createQueueDal>;
