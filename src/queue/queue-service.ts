// The posting queue (API.md section 12): a key's weekly slots in its time zone. A post created or changed
// with `queue: true` is scheduled at the next slot no other queued post of the key holds. The slot is
// taken inside the post's own transaction under a lock on the key's queue, and a unique index on (key,
// slot) makes sure two queued creates never end on one slot.
import { errors } from '../contract/errors.ts';
import { exclusive, type DialectName } from '../db/dialect.ts';
import type { DbTx } from '../db/schema.ts';
import type { Writer } from '../db/writer.ts';
import type { Clock } from '../lib/clock.ts';
import { canonicalTimeZone } from '../lib/time-zone.ts';
import type { QueueDal } from './queue-dal.ts';
import { firstFreeSlot, isSlotTime, type Slot } from './queue-slots.ts';

export const MAX_SLOTS = 200;
const UPCOMING = 10;

export interface QueueOut {
  timezone: string;
  slots: Slot[];
  /** The next free slot times, UTC. */
  upcoming: string[];
}

export function createQueueService(deps: { dal: QueueDal; write: Writer['write']; clock: Clock; dialect: DialectName }) {
  const { dal, write, clock, dialect } = deps;

  async function present(apiKeyId: string, timezone: string, slots: Slot[]): Promise<QueueOut> {
    const now = clock.now();
    const taken = await dal.takenSince(apiKeyId, now);
    const upcoming: string[] = [];
    let after = now;
    while (upcoming.length < UPCOMING) {
      const at = firstFreeSlot(slots, timezone, after, taken);
      if (at === null) break;
      upcoming.push(new Date(at).toISOString());
      after = at;
    }
    return { timezone, slots, upcoming };
  }

  return {
    async get(apiKeyId: string): Promise<QueueOut> {
      const q = await dal.get(apiKeyId);
      if (!q) throw errors.notFound('this API key has no queue; create one with PUT /v1/queue');
      return present(apiKeyId, q.timezone, q.slots);
    },

    async put(apiKeyId: string, body: { timezone: string; slots: Slot[] }): Promise<QueueOut> {
      const timezone = canonicalTimeZone(body.timezone);
      if (!timezone) throw errors.invalid('timezone', `timezone "${body.timezone}" is not a known IANA time zone name (e.g. Europe/Paris)`);
      const seen = new Set<string>();
      body.slots.forEach((s, i) => {
        if (!isSlotTime(s.time)) throw errors.invalid(`slots[${i}].time`, `slots[${i}].time must be HH:MM (24-hour), got "${s.time}"`);
        const key = `${s.day} ${s.time}`;
        if (seen.has(key)) throw errors.invalid(`slots[${i}]`, `slots[${i}] repeats ${key}`);
        seen.add(key);
      });
      await write((trx) => dal.put(trx, apiKeyId, timezone, body.slots, clock.now()));
      return present(apiKeyId, timezone, body.slots);
    },

    async remove(apiKeyId: string): Promise<{ deleted: true }> {
      if (!(await write((trx) => dal.delete(trx, apiKeyId)))) throw errors.notFound('this API key has no queue');
      return { deleted: true };
    },

    /**
     * Inside the creating transaction: the next slot after `now` that no queued post of the key holds.
     * 400 (param `queue`) when the key has no slots.
     */
    async takeSlot(trx: DbTx, apiKeyId: string, now: number): Promise<number> {
      // Queued creates of one key take their slots one after the other (on PostgreSQL, an advisory lock
      // until the transaction ends; SQLite has one writer). The unique index stays the last word.
      await exclusive(dialect, trx, `herald:queue:${apiKeyId}`);
      const q = await dal.get(apiKeyId, trx);
      if (!q || q.slots.length === 0) throw errors.invalid('queue', 'this API key has no queue slots; set them with PUT /v1/queue first');
      const at = firstFreeSlot(q.slots, q.timezone, now, await dal.takenSince(apiKeyId, now, trx));
      if (at === null) throw errors.conflict('every queue slot for the next while is taken; add slots or schedule the post', 'QUEUE_FULL');
      return at;
    },

    /** The queue's time zone, for a queued post's `timezone`. */
    async timezoneOf(apiKeyId: string): Promise<string | null> {
      return (await dal.get(apiKeyId))?.timezone ?? null;
    },

  };
}

export type QueueService = ReturnType<typeof createQueueService>;
