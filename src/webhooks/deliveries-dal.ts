// Data access for webhook deliveries and their attempt log. Every read for the API is scoped by key;
// claims and results are conditional updates, so they hold across processes on PostgreSQL.
import type { DbTx } from '../db/schema.ts';
import type { ExpressionBuilder, Kysely, Selectable } from 'kysely';
import type { Writer } from '../db/writer.ts';
import type { Database, WebhookAttemptsTable, WebhookDeliveriesTable } from '../db/schema.ts';
import type { Cursor } from '../contract/cursor.ts';

export type DeliveryRow = Selectable<WebhookDeliveriesTable>;
export type AttemptRow = Selectable<WebhookAttemptsTable>;
export type DeliveryStatus = DeliveryRow['status'];

export interface DeliveryResult {
  status: DeliveryStatus;
  /** Attempts made so far; unchanged when nothing could be sent (settings removed or disabled). */
  attempts: number;
  url: string;
  lastStatusCode: number | null;
  lastError: string | null;
  lastDurationMs: number | null;
  nextAttemptAt: number | null;
  deliveredAt: number | null;
  now: number;
}

export interface DeliveryFilter {
  status?: DeliveryStatus;
  event?: string;
  /** Deliveries created before this are past retention and never listed. */
  createdFrom: number;
}

export function createDeliveriesDal(deps: { db: Kysely<Database>; write: Writer['write'] }) {
  const { db, write } = deps;
  /** Not held by a live attempt. */
  const unclaimed = (now: number) => (eb: ExpressionBuilder<Database, 'webhook_deliveries'>) =>
    eb.or([eb('attempt_id', 'is', null), eb('lease_expires_at', '<', now)]);

  return {
    /**
     * Takes the delivery for one attempt: a single conditional update, so of two workers racing for the
     * same row exactly one gets it. `anyStatus` (redelivery) also takes delivered, failed and not-yet-due ones.
     */
    async claim(id: string, claimId: string, now: number, leaseMs: number, anyStatus = false): Promise<DeliveryRow | undefined> {
      return write((trx) => {
        let q = trx
          .updateTable('webhook_deliveries')
          .set({ attempt_id: claimId, lease_expires_at: now + leaseMs })
          .where('id', '=', id)
          .where(unclaimed(now));
        if (!anyStatus) q = q.where('status', '=', 'pending').where('next_attempt_at', '<=', now);
        return q.returningAll().executeTakeFirst();
      });
    },

    async find(id: string): Promise<DeliveryRow | undefined> {
      return db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async findOwned(apiKeyId: string, id: string): Promise<DeliveryRow | undefined> {
      return db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).where('api_key_id', '=', apiKeyId).executeTakeFirst();
    },

    async body(eventId: string): Promise<string | undefined> {
      const row = await db.selectFrom('webhook_events').select('body').where('id', '=', eventId).executeTakeFirst();
      return row?.body;
    },

    /** Writes an attempt's result if `claimId` still holds the delivery; false (nothing written) otherwise. */
    async finish(trx: DbTx, id: string, claimId: string, r: DeliveryResult): Promise<boolean> {
      const u = await trx
        .updateTable('webhook_deliveries')
        .set({
          status: r.status,
          attempts: r.attempts,
          url: r.url,
          last_status_code: r.lastStatusCode,
          last_error: r.lastError,
          last_duration_ms: r.lastDurationMs,
          next_attempt_at: r.nextAttemptAt,
          delivered_at: r.deliveredAt,
          updated_at: r.now,
          attempt_id: null,
          lease_expires_at: null,
        })
        .where('id', '=', id)
        .where('attempt_id', '=', claimId)
        .executeTakeFirst();
      return Number(u.numUpdatedRows) === 1;
    },

    async logAttempt(trx: DbTx, row: WebhookAttemptsTable): Promise<void> {
      await trx.insertInto('webhook_attempts').values(row).execute();
    },

    /** Fails the key's pending deliveries no attempt holds (those held are stopped by the send-time check). */
    async failPending(trx: DbTx, apiKeyId: string, reason: string, now: number): Promise<number> {
      const r = await trx
        .updateTable('webhook_deliveries')
        .set({ status: 'failed', last_error: reason, next_attempt_at: null, updated_at: now })
        .where('api_key_id', '=', apiKeyId)
        .where('status', '=', 'pending')
        .where(unclaimed(now))
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    },

    /** Newest first, ties by id; `limit + 1` rows are read to know whether more follow. */
    async list(apiKeyId: string, filter: DeliveryFilter, after: Cursor | null, limit: number): Promise<{ rows: DeliveryRow[]; hasMore: boolean }> {
      let q = db.selectFrom('webhook_deliveries').selectAll().where('api_key_id', '=', apiKeyId).where('created_at', '>=', filter.createdFrom);
      if (filter.status) q = q.where('status', '=', filter.status);
      if (filter.event) q = q.where('event', '=', filter.event);
      if (after) q = q.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(after.createdAt, after.id)));
      const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit + 1).execute();
      return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
    },

    async attemptsOf(deliveryId: string): Promise<AttemptRow[]> {
      return db.selectFrom('webhook_attempts').selectAll().where('delivery_id', '=', deliveryId).orderBy('attempt').execute();
    },

    /** Pending deliveries whose job went missing (overdue by `graceMs`) or whose attempt died (lease over). */
    async orphans(now: number, graceMs: number, limit: number): Promise<string[]> {
      const rows = await db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('status', '=', 'pending')
        .where((eb) =>
          eb.or([eb.and([eb('attempt_id', 'is', null), eb('next_attempt_at', '<', now - graceMs)]), eb('lease_expires_at', '<', now)]),
        )
        .limit(limit)
        .execute();
      return rows.map((r) => r.id);
    },

    /** Deletes events (and, by cascade, their deliveries and attempts) created before `before`. */
    async purge(before: number, batch: number): Promise<number> {
      const r = await write((trx) =>
        trx.deleteFrom('webhook_events').where('id', 'in', trx.selectFrom('webhook_events').select('id').where('created_at', '<', before).limit(batch)).executeTakeFirst(),
      );
      return Number(r.numDeletedRows);
    },
  };
}

export type DeliveriesDal = ReturnType<typeof createDeliveriesDal>;
