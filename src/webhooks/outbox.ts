// The outbox: events are written in the same transaction as the change they announce, with a delivery
// and its job when the key subscribes to them. A crash after commit loses nothing; a rollback sends nothing.
import type { DbTx } from '../db/schema.ts';
import { prepare } from '../db/prepared.ts';
import type { Clock } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import { fromJson } from '../lib/json.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { CatalogEvent, EventName } from '../events/catalog.ts';

/** A key's webhook settings, as the outbox reads them. */
export interface WebhookSettingsRow {
  url: string;
  events: string;
  disabled_at: number | null;
}

export interface Outbox {
  /**
   * Only catalog events (events/catalog.ts): each payload has one schema and one builder. `known`: the
   * key's settings (null: none), when the caller read them in this transaction already.
   */
  record(trx: DbTx, apiKeyId: string, events: readonly CatalogEvent[], known?: { settings: WebhookSettingsRow | null }): Promise<void>;
}

/** Whether `settings` have any of `events` recorded (and delivered): record() writes nothing otherwise. */
export function subscribed(settings: WebhookSettingsRow | null, events: readonly CatalogEvent[]): boolean {
  if (events.length === 0 || !settings || settings.disabled_at !== null) return false;
  const wanted = fromJson<string[]>(settings.events, []);
  return events.some((e) => wanted.includes(e.event));
}

/** Serialises an event once; these exact bytes are signed and sent on every attempt. */
export function eventBody(id: string, event: EventName, timestamp: number, data: CatalogEvent['data']): string {
  return JSON.stringify({ id, event, timestamp: new Date(timestamp).toISOString(), data });
}

// Read in every transaction that announces something: built and compiled once (see db/prepared.ts).
const settingsOf = prepare<[string], WebhookSettingsRow>(1, (db, apiKeyId) =>
  db.selectFrom('webhook_settings').select(['url', 'events', 'disabled_at']).where('api_key_id', '=', apiKeyId),
);

export function createOutbox(deps: { clock: Clock; queue: JobQueue }): Outbox {
  const { clock, queue } = deps;
  return {
    async record(trx, apiKeyId, events, known) {
      if (events.length === 0) return;
      const settings = known ? known.settings : (await settingsOf.execute(trx, apiKeyId)).rows[0];
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
