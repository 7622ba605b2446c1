// When a scheduled post goes out: scheduledFor with an offset is an instant; without one it is a wall
// clock time in `timezone`. Pure functions of their inputs (the clock is passed in).
import { Temporal } from 'temporal-polyfill';

export const MAX_SCHEDULE_AHEAD_MS = 2 * 366 * 24 * 60 * 60_000; // "at most 2 years ahead"

export type ScheduleResult = { ok: true; at: number } | { ok: false; param: 'scheduledFor' | 'timezone'; message: string };

const HAS_OFFSET = /(Z|[+-]\d{2}(:?\d{2})?)$/i;
const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?$/;

const UTC_INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?Z$/;

/**
 * The common form, a UTC instant such as 2026-12-01T09:30:00Z, read without Temporal (whose parser is
 * the slowest step of a create). Anything else, or anything out of range, returns null and is left to
 * Temporal, so both accept and refuse exactly the same texts.
 */
function fastUtcInstant(text: string): number | null {
  const m = UTC_INSTANT.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '0'].map(Number) as [number, number, number, number, number, number];
  if (hour > 23 || minute > 59 || second > 59) return null;
  const at = Date.UTC(year, month - 1, day, hour, minute, second, Number((m[7] ?? '').slice(0, 3).padEnd(3, '0')));
  const d = new Date(at);
  // Date.UTC rolls 31 April over into May; the calendar fields must come back unchanged.
  if (year < 1000 || d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return null;
  return at;
}

/** Reads scheduledFor (in timezone when it has no offset) into epoch ms. */
export function parseScheduledFor(value: string, timeZone: string): ScheduleResult {
  const text = value.trim();
  const fast = fastUtcInstant(text);
  if (fast !== null) return { ok: true, at: fast };
  if (HAS_OFFSET.test(text)) {
    try {
      return { ok: true, at: Temporal.Instant.from(text).epochMilliseconds };
    } catch {
      return { ok: false, param: 'scheduledFor', message: 'scheduledFor must be an ISO 8601 date-time such as 2026-12-01T09:30:00Z' };
    }
  }
  if (!LOCAL_DATE_TIME.test(text)) {
    return { ok: false, param: 'scheduledFor', message: 'scheduledFor must be an ISO 8601 date-time such as 2026-12-01T09:30:00 or 2026-12-01T09:30:00Z' };
  }
  let local: Temporal.PlainDateTime;
  try {
    local = Temporal.PlainDateTime.from(text, { overflow: 'reject' });
  } catch {
    return { ok: false, param: 'scheduledFor', message: `scheduledFor is not a real date-time: ${text}` };
  }
  // In a repeated hour (autumn) the first occurrence is meant; a skipped hour (spring) does not exist.
  const earlier = local.toZonedDateTime(timeZone, { disambiguation: 'earlier' });
  if (!earlier.toPlainDateTime().equals(local)) {
    return {
      ok: false,
      param: 'scheduledFor',
      message: `${text} does not exist in ${timeZone}: the clocks skip that hour for daylight saving time`,
    };
  }
  return { ok: true, at: earlier.epochMilliseconds };
}

/** Full check for a scheduled post: readable, in the future, at most two years ahead. */
export function resolveSchedule(value: string, timeZone: string, now: number): ScheduleResult {
  const parsed = parseScheduledFor(value, timeZone);
  if (!parsed.ok) return parsed;
  if (parsed.at <= now) {
    return { ok: false, param: 'scheduledFor', message: 'scheduledFor is in the past; use publishNow: true to publish at once' };
  }
  if (parsed.at - now > MAX_SCHEDULE_AHEAD_MS) {
    return { ok: false, param: 'scheduledFor', message: 'scheduledFor is more than two years ahead' };
  }
  return parsed;
}
