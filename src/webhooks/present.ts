// Rows → the delivery objects of the operations API.
import { isoTime as iso } from '../lib/iso-time.ts';
import type { AttemptRow, DeliveryRow } from './deliveries-dal.ts';
import type { EventName } from '../events/catalog.ts';
import type { DeliveryDetailOut, DeliveryOut } from './schemas.ts';

const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

export function presentDelivery(row: DeliveryRow): DeliveryOut {
  return {
    id: row.id,
    eventId: row.event_id,
    event: row.event as EventName,
    url: row.url,
    status: row.status,
    attempts: row.attempts,
    lastStatusCode: row.last_status_code,
    lastError: row.last_error,
    lastDurationMs: row.last_duration_ms,
    nextAttemptAt: row.status === 'pending' ? isoOrNull(row.next_attempt_at) : null,
    createdAt: iso(row.created_at),
    deliveredAt: isoOrNull(row.delivered_at),
  };
}

export function presentDetail(row: DeliveryRow, attempts: AttemptRow[]): DeliveryDetailOut {
  return {
    ...presentDelivery(row),
    history: attempts.map((a) => ({
      attempt: a.attempt,
      redelivery: a.redelivery === 1,
      url: a.url,
      startedAt: iso(a.started_at),
      statusCode: a.status_code,
      error: a.error,
      durationMs: a.duration_ms,
    })),
  };
}
