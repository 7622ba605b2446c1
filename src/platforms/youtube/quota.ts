// YouTube's quota day: it starts and ends at midnight Pacific time (§8.7), whatever the daylight saving.
// Pure functions of an instant, shared by the adapter (retryAt of quotaExceeded, uploads counted today)
// and the emulator (when its buckets refill).
import { Temporal } from 'temporal-polyfill';
import { QUOTA } from './info.ts';

function pacificDate(now: number): Temporal.PlainDate {
  return Temporal.Instant.fromEpochMilliseconds(now).toZonedDateTimeISO(QUOTA.resetTimeZone).toPlainDate();
}

function midnight(date: Temporal.PlainDate): number {
  return date.toZonedDateTime({ timeZone: QUOTA.resetTimeZone }).epochMilliseconds;
}

/** The instant the current quota day began (the last midnight Pacific at or before `now`). */
export function quotaDayStart(now: number): number {
  return midnight(pacificDate(now));
}

/** The next reset: the first midnight Pacific after `now`. */
export function nextQuotaReset(now: number): number {
  return midnight(pacificDate(now).add({ days: 1 }));
}

/** A stable name for the quota day of an instant, e.g. "2026-11-24" (Pacific date). */
export function quotaDay(now: number): string {
  return pacificDate(now).toString();
}
