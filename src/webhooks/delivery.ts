// Delivers webhook events: claim the delivery, send one signed attempt, write the result fenced on the
// claim together with the next attempt's job. See README.md beside this file for the invariants.
import type { DbTx } from '../db/schema.ts';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Writer } from '../db/writer.ts';
import type { Database } from '../db/schema.ts';
import { errors } from '../contract/errors.ts';
import type { Clock } from '../lib/clock.ts';
import { newAttemptId, newId } from '../lib/ids.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { DeliveriesDal, DeliveryRow, DeliveryResult } from './deliveries-dal.ts';
import type { EventName } from '../events/catalog.ts';
import { eventBody } from './outbox.ts';
import { sampleEvent, type SampleTarget } from './samples.ts';
import { nextAttemptDelayMs } from './schedule.ts';
import type { AttemptResult, WebhookSender } from './sender.ts';
import type { SettingsDal } from './settings-dal.ts';
import { REMOVED_REASON, type WebhookSettings } from './webhooks-settings.ts';

export interface DeliveryDeps {
  db: Kysely<Database>;
  write: Writer['write'];
  clock: Clock;
  log: Logger;
  queue: JobQueue;
  deliveries: DeliveriesDal;
  settingsDal: Pick<SettingsDal, 'disable'>;
  settings: Pick<WebhookSettings, 'destination'>;
  sender: WebhookSender;
  /** Seconds between attempts (config.webhookRetrySchedule). */
  retrySchedule: readonly number[];
  /** How long a claim holds a delivery; longer than any send can take. */
  leaseMs: number;
  /** Told the outcome of every attempt (for metrics): delivered, retrying, failed (final) or gone (410). */
  onAttempt?(outcome: 'delivered' | 'retrying' | 'failed' | 'gone'): void;
  /** The platform target test sends name. */
  sample: SampleTarget;
}

export const RETENTION_MS = 30 * 24 * 60 * 60_000;
const GONE_REASON = 'the receiver answered 410 Gone';

export function createWebhookDelivery(deps: DeliveryDeps) {
  const { write, clock, log, queue, deliveries, sender } = deps;

  /** Writes one attempt's result, unless the claim was lost (another attempt took over). */
  async function record(row: DeliveryRow, claimId: string, url: string, r: AttemptResult, redelivery: boolean): Promise<void> {
    const now = clock.now();
    const attempts = row.attempts + 1;
    const result: DeliveryResult = {
      status: 'pending',
      attempts,
      url,
      lastStatusCode: r.statusCode,
      lastError: r.error,
      lastDurationMs: r.durationMs,
      nextAttemptAt: null,
      deliveredAt: row.delivered_at,
      now,
    };
    let retryAt: number | null = null;
    if (r.delivered) {
      result.status = 'delivered';
      result.deliveredAt = now;
      deps.onAttempt?.('delivered');
    } else if (r.gone) {
      result.status = 'failed';
      deps.onAttempt?.('gone');
    } else if (redelivery) {
      // One extra attempt: a delivery still on its schedule keeps it (its job is queued already), and
      // one delivered before stays delivered (its attempt history shows the failed extra send).
      result.status = row.status === 'failed' ? 'failed' : row.status === 'delivered' ? 'delivered' : 'pending';
      result.nextAttemptAt = row.status === 'pending' ? row.next_attempt_at : null;
    } else {
      const delay = nextAttemptDelayMs(deps.retrySchedule, attempts);
      if (delay === null) result.status = 'failed';
      else result.nextAttemptAt = retryAt = now + delay;
    }
    if (!r.delivered && !r.gone) deps.onAttempt?.(result.status === 'pending' ? 'retrying' : 'failed');
    const owned = await write(async (trx) => {
      if (!(await deliveries.finish(trx, row.id, claimId, result))) return false;
      await deliveries.logAttempt(trx, {
        id: newAttemptId(),
        delivery_id: row.id,
        attempt: attempts,
        redelivery: redelivery ? 1 : 0,
        url,
        started_at: r.startedAt,
        status_code: r.statusCode,
        error: r.error,
        duration_ms: r.durationMs,
      });
      if (retryAt !== null) await queue.enqueue(trx, [{ queue: 'deliver-webhook', payload: { deliveryId: row.id }, runAt: retryAt }]);
      if (r.gone) await stopDeliveries(trx, row.api_key_id, url, now);
      return true;
    });
    if (!owned) log.warn({ deliveryId: row.id }, 'webhook attempt lost its claim before writing back; result dropped');
  }

  /** After a 410: the settings that point at that URL are disabled and waiting deliveries failed. */
  async function stopDeliveries(trx: DbTx, apiKeyId: string, url: string, now: number) {
    if (await deps.settingsDal.disable(trx, apiKeyId, url, GONE_REASON, now)) {
      await deliveries.failPending(trx, apiKeyId, `${GONE_REASON}; deliveries to ${url} were stopped`, now);
      log.warn({ apiKeyId, url }, 'webhook receiver answered 410 Gone; settings disabled');
    }
  }

  /** Ends a claimed delivery without sending: its settings are gone or disabled. */
  async function abandon(row: DeliveryRow, claimId: string, reason: string) {
    await write((trx) => deliveries.finish(trx, row.id, claimId, {
      status: row.status === 'delivered' ? 'delivered' : 'failed',
      attempts: row.attempts,
      url: row.url,
      lastStatusCode: row.last_status_code,
      lastError: reason,
      lastDurationMs: row.last_duration_ms,
      nextAttemptAt: null,
      deliveredAt: row.delivered_at,
      now: clock.now(),
    }));
  }

  async function attempt(row: DeliveryRow, claimId: string, redelivery: boolean): Promise<void> {
    const dest = await deps.settings.destination(row.api_key_id);
    if (dest.kind !== 'active') {
      return abandon(row, claimId, dest.kind === 'none' ? REMOVED_REASON : `the webhook settings are disabled (${dest.reason})`);
    }
    const body = await deliveries.body(row.event_id);
    if (body === undefined) return abandon(row, claimId, 'the event is past retention');
    const result = await sender.send({ url: dest.url, secret: dest.secret, eventId: row.event_id, event: row.event, body });
    await record(row, claimId, dest.url, result, redelivery);
  }

  return {
    /**
     * The deliver-webhook job: one attempt, if the delivery is still due and nobody else holds it. A job
     * that finds nothing to claim is a duplicate: every change of next_attempt_at enqueued its own job.
     */
    async process(deliveryId: string): Promise<void> {
      const claimId = newAttemptId();
      const row = await deliveries.claim(deliveryId, claimId, clock.now(), deps.leaseMs);
      if (row) await attempt(row, claimId, false);
    },

    /** POST /v1/webhooks/deliveries/{id}/redeliver: one more attempt, now, whatever the status. */
    async redeliver(apiKeyId: string, deliveryId: string): Promise<DeliveryRow> {
      const found = await deliveries.findOwned(apiKeyId, deliveryId);
      if (!found) throw errors.notFound(`no webhook delivery ${deliveryId}`);
      const dest = await deps.settings.destination(apiKeyId);
      if (dest.kind === 'none') throw errors.invalid(undefined, 'this API key has no webhook settings; save them with POST /v1/webhooks/settings first');
      if (dest.kind === 'disabled') {
        throw errors.conflict(`the webhook settings are disabled (${dest.reason}); save them again to re-enable deliveries`, 'WEBHOOKS_DISABLED');
      }
      const claimId = newAttemptId();
      const row = await deliveries.claim(deliveryId, claimId, clock.now(), deps.leaseMs, true);
      if (!row) throw errors.conflict(`delivery ${deliveryId} is being sent right now; try again in a moment`);
      await attempt(row, claimId, true);
      return (await deliveries.find(deliveryId))!;
    },

    /**
     * POST /v1/webhooks/test: a sample of `event`, signed and guarded like any delivery, not stored. Its
     * answer changes nothing: a 410 is reported, but only a real delivery's 410 disables the settings.
     */
    async test(apiKeyId: string, event: EventName) {
      const dest = await deps.settings.destination(apiKeyId);
      if (dest.kind === 'none') throw errors.invalid(undefined, 'this API key has no webhook settings; save them with POST /v1/webhooks/settings first');
      const now = clock.now();
      const eventId = newId('evt');
      const body = eventBody(eventId, event, now, sampleEvent(event, now, deps.sample).data);
      const r = await sender.send({ url: dest.url, secret: dest.secret, eventId, event, body });
      return { delivered: r.delivered, statusCode: r.statusCode, durationMs: r.durationMs, ...(r.error ? { error: r.error } : {}) };
    },

    /** Re-queues deliveries whose job was lost or whose attempt died mid-send. */
    async sweep(): Promise<number> {
      const now = clock.now();
      const ids = await deliveries.orphans(now, Math.max(60_000, deps.leaseMs), 500);
      if (ids.length === 0) return 0;
      await write((trx) =>
        queue.enqueue(trx, ids.map((deliveryId) => ({ queue: 'deliver-webhook' as const, payload: { deliveryId }, runAt: now }))),
      );
      log.info({ count: ids.length }, 'webhook sweep re-queued deliveries');
      return ids.length;
    },

    /** Deletes events, deliveries and attempts older than the 30-day retention. */
    async purge(): Promise<number> {
      const before = clock.now() - RETENTION_MS;
      let total = 0;
      for (;;) {
        const n = await deliveries.purge(before, 1000);
        total += n;
        if (n < 1000) return total;
      }
    },
  };
}

export type WebhookDelivery = ReturnType<typeof createWebhookDelivery>;
