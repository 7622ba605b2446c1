// Weekly queue slots (API.md section 12) as instants. Pure: the clock and the slots are passed in.
//
// A slot is a weekday and a wall-clock time in the queue's time zone, so it follows daylight saving:
// 09:00 on Mondays is 09:00 local in winter and in summer. Two days a year the wall clock is not one
// instant, and a slot then behaves like this (Temporal's "compatible" rule, as calendars do):
// - a slot inside the hour skipped in spring (02:30 when clocks jump from 02:00 to 03:00) falls at the
//   same distance past the jump: 03:30, the first instant that exists at that wall-clock time plus the
//   length of the gap;
// - a slot inside the hour repeated in autumn (02:30 when clocks go back from 03:00 to 02:00) is the
//   first 02:30, before the clocks go back; it does not happen twice.
// Two slots that fall on one instant (02:30 and 03:30 on the spring day) are one slot.
import { Temporal } from 'temporal-polyfill';

export const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Day = (typeof DAYS)[number];

export interface Slot {
  day: Day;
  /** HH:MM, 24-hour. */
  time: string;
}

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

export function isSlotTime(time: string): boolean {
  return TIME.test(time);
}

/** The slot instants strictly after `after` (epoch ms), soonest first, at most `count` of them. */
export function upcomingSlots(slots: readonly Slot[], timeZone: string, after: number, count: number): number[] {
  if (slots.length === 0 || count <= 0) return [];
  // By weekday (Temporal's dayOfWeek: Monday is 1), each day's times in order.
  const byDay = new Map<number, { hour: number; minute: number }[]>();
  for (const s of slots) {
    const [, h, m] = TIME.exec(s.time)!;
    const day = DAYS.indexOf(s.day) + 1;
    byDay.set(day, [...(byDay.get(day) ?? []), { hour: Number(h), minute: Number(m) }]);
  }

  const out: number[] = [];
  let date = Temporal.Instant.fromEpochMilliseconds(after).toZonedDateTimeISO(timeZone).toPlainDate();
  // Every weekday with a slot comes round within a week; a little more covers the day `after` falls on.
  for (let days = 0; out.length < count && days < 8 * Math.ceil(count / slots.length + 1); days++) {
    // A slot in a skipped hour moves past later ones (02:30 becomes 03:30, after 03:15): sort each day.
    const instants = (byDay.get(date.dayOfWeek) ?? [])
      .map((t) => date.toPlainDateTime({ hour: t.hour, minute: t.minute }).toZonedDateTime(timeZone, { disambiguation: 'compatible' }).epochMilliseconds)
      .sort((a, b) => a - b);
    for (const at of instants) {
      if (at > after && (out.length === 0 || out.at(-1)! < at)) out.push(at);
      if (out.length === count) break;
    }
    date = date.add({ days: 1 });
  }
  return out;
}

/**
 * The first slot after `after` that `taken` does not hold, looking at most `horizon` slots ahead; null
 * when every one of them is taken.
 */
export function firstFreeSlot(slots: readonly Slot[], timeZone: string, after: number, taken: ReadonlySet<number>, horizon = 5_000): number | null {
  let from = after;
  let seen = 0;
  for (;;) {
    const batch = upcomingSlots(slots, timeZone, from, 50);
    if (batch.length === 0) return null;
    for (const at of batch) {
      if (seen++ >= horizon) return null;
      if (!taken.has(at)) return at;
    }
    from = batch.at(-1)!;
  }
}
