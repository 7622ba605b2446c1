// The outbox: events are written in the same transaction as the change they announce, with a delivery
// and its job when the key subscribes to them. A crash after commit loses nothing; a rollback sends nothing.
import type { DbTx } from '../db/schema.ts';
import { prepare } from '../db/prepared.ts';
import type { Clock } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import { fromJson } from '../lib/json.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { CatalogEvent, EventName } from '../events/catalog.ts';

export interface Outbox {
  /** Only catalog events (events/catalog.ts): each payload has one schema and one builder. */
  record(trx: DbTx, apiKeyId: string, events: readonly CatalogEvent[]): Promise<void>;
}

/** Serialises an event once; these exact bytes are signed and sent on every attempt. */
export function eventBody(id: string, event: EventName, timestamp: number, data: CatalogEvent['data']): string {
  return JSON.stringify({ id, event, timestamp: new Date(timestamp).toISOString(), data });
}

// Read in every transaction that announces something: built and compiled once (see db/prepared.ts).
const settingsOf = prepare<[string], { url: string; events: string; disabled_at: number | null }>(1, (db, apiKeyId) =>
  db.selectFrom('webhook_settings').select(['url', 'events', 'disabled_at']).where('api_key_id', '=', apiKeyId),
);

export function createOutbox(deps: { clock: Clock; queue: JobQueue }): Outbox {
  const { clock, queue } = deps;
  return {
    async record(trx, apiKeyId, events) {
      if (events.length === 0) return;
      const settings = (await settingsOf.execute(trx, apiKeyId)).rows[0];
      if (!settings || settings.disabled_at !== null) return;
      const wanted = new Set(fromJson<string[]>(settings.events, []));
      const now = clock.now();
      const jobs = [];
      for (const e of events) {
        if (!wanted.has(e.event)) continue;
        const eventId = newId('evt');
        const deliveryId = newId('whd');
        await trx
          .insertInto('webhook_events')
          .values({ id: eventId, api_key_id: apiKeyId, event: e.event, body: eventBody(eventId, e.event, now, e.data), created_at: now })
          .execute();
        await trx
          .insertInto('webhook_deliveries')
          .values({
            id: deliveryId,
            event_id: eventId,
            api_key_id: apiKeyId,
            event: e.event,
            url: settings.url,
            status: 'pending',
            next_attempt_at: now,
            last_status_code: null,
            last_error: null,
            last_duration_ms: null,
            created_at: now,
            updated_at: now,
            delivered_at: null,
          })
          .execute();
        // No runAt: due now, so a worker is woken when the transaction commits.
        jobs.push({ queue: 'deliver-webhook' as const, payload: { deliveryId } });
      }
      await queue.enqueue(trx, jobs);
    },
  };
}
