// Epoch milliseconds → "2026-11-22T10:00:00.000Z", as Date.prototype.toISOString writes it, about three
// times faster: list answers format a hundred timestamps each, and toISOString was the largest cost in
// presenting them.

const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);
const pad3 = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);

/** The last millisecond of year 9999: beyond it (and before year 0) toISOString uses 6-digit years. */
const MAX_FOUR_DIGIT_YEAR = 253_402_300_799_999;
const FIRST_YEAR_1000 = -30_610_224_000_000;

export function isoTime(ms: number): string {
  if (!Number.isInteger(ms) || ms < FIRST_YEAR_1000 || ms > MAX_FOUR_DIGIT_YEAR) return new Date(ms).toISOString();
  const days = Math.floor(ms / 86_400_000);
  let rest = ms - days * 86_400_000;
  // The civil date of a day count (Howard Hinnant's days_from_civil, inverted).
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1;
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const hour = Math.floor(rest / 3_600_000);
  rest -= hour * 3_600_000;
  const minute = Math.floor(rest / 60_000);
  rest -= minute * 60_000;
  const second = Math.floor(rest / 1000);
  return `${year}-${pad2(month)}-${pad2(day)}T${pad2(hour)}:${pad2(minute)}:${pad2(second)}.${pad3(rest - second * 1000)}Z`;
}
