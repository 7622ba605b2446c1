import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { canonicalTimeZone } from '../../../src/lib/time-zone.ts';
import { parseScheduledFor, resolveSchedule } from '../../../src/posts/schedule.ts';

const NOW = Date.parse('2026-11-22T10:00:00.000Z');

test('times with an offset are instants, whatever the timezone', () => {
  const cases: [string, string][] = [
    ['2026-12-01T09:30:00Z', '2026-12-01T09:30:00.000Z'],
    ['2026-12-01T09:30:00+02:00', '2026-12-01T07:30:00.000Z'],
    ['2026-12-01T09:30:00.250-05:00', '2026-12-01T14:30:00.250Z'],
  ];
  for (const [input, expected] of cases) {
    const r = parseScheduledFor(input, 'Asia/Tokyo');
    assert.ok(r.ok, input);
    assert.equal(new Date(r.at).toISOString(), expected, input);
  }
});

test('local times are read in the timezone, across DST changes', () => {
  const cases: [string, string, string][] = [
    ['2026-12-01T09:30:00', 'UTC', '2026-12-01T09:30:00.000Z'],
    ['2026-12-01T09:30', 'Europe/Paris', '2026-12-01T08:30:00.000Z'], // winter, UTC+1
    ['2027-07-01T09:30:00', 'Europe/Paris', '2027-07-01T07:30:00.000Z'], // summer, UTC+2
    ['2027-03-14T03:30:00', 'America/New_York', '2027-03-14T07:30:00.000Z'], // just after the spring gap
    ['2027-11-07T01:30:00', 'America/New_York', '2027-11-07T05:30:00.000Z'], // repeated hour: first occurrence (EDT)
    ['2027-01-15T12:00:00', 'Australia/Lord_Howe', '2027-01-15T01:00:00.000Z'], // 30-minute DST offset (UTC+11)
  ];
  for (const [input, zone, expected] of cases) {
    const r = parseScheduledFor(input, zone);
    assert.ok(r.ok, `${input} ${zone}`);
    assert.equal(new Date(r.at).toISOString(), expected, `${input} ${zone}`);
  }
});

test('a local time skipped by a DST change is refused', () => {
  for (const [input, zone] of [
    ['2027-03-14T02:30:00', 'America/New_York'],
    ['2027-03-28T02:15:00', 'Europe/Berlin'],
  ]) {
    const r = parseScheduledFor(input!, zone!);
    assert.equal(r.ok, false);
    assert.match((r as { message: string }).message, /does not exist/);
  }
});

test('malformed and impossible date-times are refused', () => {
  for (const input of ['tomorrow', '2026-13-01T10:00:00', '2026-02-30T10:00:00', '2026-12-01', '2026-12-01T25:00:00Z', '']) {
    assert.equal(parseScheduledFor(input, 'UTC').ok, false, input);
  }
});

test('scheduled times must be in the future and at most two years ahead', () => {
  assert.equal(resolveSchedule('2026-11-22T09:59:59Z', 'UTC', NOW).ok, false);
  assert.equal(resolveSchedule('2026-11-22T10:00:00Z', 'UTC', NOW).ok, false);
  assert.equal(resolveSchedule('2026-11-22T10:00:01Z', 'UTC', NOW).ok, true);
  assert.equal(resolveSchedule('2028-11-22T09:00:00Z', 'UTC', NOW).ok, true);
  assert.equal(resolveSchedule('2029-01-01T00:00:00Z', 'UTC', NOW).ok, false);
  const past = resolveSchedule('2020-01-01T00:00:00Z', 'UTC', NOW);
  assert.match((past as { message: string }).message, /publishNow/);
});

test('time zone names are checked and canonicalised', () => {
  assert.equal(canonicalTimeZone('Europe/Paris'), 'Europe/Paris');
  assert.equal(canonicalTimeZone('utc'), 'UTC');
  assert.equal(canonicalTimeZone('Mars/Olympus'), null);
  assert.equal(canonicalTimeZone(''), null);
});

test('UTC instants read without Temporal give exactly what Temporal gives, valid or not', () => {
  const two = (n: number) => String(n).padStart(2, '0');
  /** Herald's reading and Temporal's agree: the same instant, or both refuse. */
  const agrees = (text: string) => {
    let expected: number | null;
    try {
      expected = Temporal.Instant.from(text).epochMilliseconds;
    } catch {
      expected = null;
    }
    const r = parseScheduledFor(text, 'UTC');
    assert.equal(r.ok ? r.at : null, expected, text);
  };
  fc.assert(
    fc.property(
      fc.integer({ min: 900, max: 2100 }),
      fc.integer({ min: 0, max: 13 }),
      fc.integer({ min: 0, max: 32 }),
      fc.integer({ min: 0, max: 25 }),
      fc.integer({ min: 0, max: 61 }),
      fc.option(fc.integer({ min: 0, max: 61 })),
      fc.option(fc.stringMatching(/^\d{1,9}$/)),
      (year, month, day, hour, minute, second, fraction) => {
        const seconds = second === null ? '' : `:${two(second)}${fraction === null ? '' : `.${fraction}`}`;
        agrees(`${String(year).padStart(4, '0')}-${two(month)}-${two(day)}T${two(hour)}:${two(minute)}${seconds}Z`);
      },
    ),
    { numRuns: 5000 },
  );
  for (const text of ['2028-02-29T12:00:00Z', '2027-02-29T12:00:00Z', '2026-04-31T00:00:00Z', '2026-12-31T23:59:60Z', '2026-12-01T09:30:00.123456789Z']) agrees(text);
});
