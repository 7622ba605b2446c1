// Queue slots as instants, across daylight-saving changes (Europe/Paris: 2026-03-29 02:00 → 03:00,
// 2026-10-25 03:00 → 02:00).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { firstFreeSlot, upcomingSlots, type Slot } from '../../../src/queue/queue-slots.ts';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

test('weekly slots in the queue time zone, soonest first', () => {
  const slots: Slot[] = [
    { day: 'mon', time: '09:00' },
    { day: 'wed', time: '17:30' },
    { day: 'mon', time: '08:00' },
  ];
  // Monday 2026-11-23, 08:30 in Paris (07:30 UTC, winter time UTC+1).
  const got = upcomingSlots(slots, 'Europe/Paris', at('2026-11-23T07:30:00Z'), 4).map(iso);
  assert.deepEqual(got, ['2026-11-23T08:00:00.000Z', '2026-11-25T16:30:00.000Z', '2026-11-30T07:00:00.000Z', '2026-11-30T08:00:00.000Z']);
});

test('a slot keeps its wall-clock time across a daylight-saving change', () => {
  const slots: Slot[] = [{ day: 'mon', time: '09:00' }];
  const got = upcomingSlots(slots, 'Europe/Paris', at('2026-03-20T00:00:00Z'), 2).map(iso);
  // 09:00 is 08:00Z in winter (UTC+1) and 07:00Z in summer (UTC+2).
  assert.deepEqual(got, ['2026-03-23T08:00:00.000Z', '2026-03-30T07:00:00.000Z']);
});

test('a slot in the skipped spring hour falls after the jump, by the length of the gap', () => {
  const slots: Slot[] = [
    { day: 'sun', time: '02:30' },
    { day: 'sun', time: '03:15' },
  ];
  const got = upcomingSlots(slots, 'Europe/Paris', at('2026-03-28T12:00:00Z'), 2).map(iso);
  // 02:30 does not exist on 2026-03-29: it becomes 03:30 local (01:30Z), after 03:15 local (01:15Z).
  assert.deepEqual(got, ['2026-03-29T01:15:00.000Z', '2026-03-29T01:30:00.000Z']);
});

test('two slots that fall on one instant in the skipped hour are one slot', () => {
  const slots: Slot[] = [
    { day: 'sun', time: '02:30' },
    { day: 'sun', time: '03:30' },
  ];
  const got = upcomingSlots(slots, 'Europe/Paris', at('2026-03-28T12:00:00Z'), 3).map(iso);
  assert.deepEqual(got.slice(0, 2), ['2026-03-29T01:30:00.000Z', '2026-04-05T00:30:00.000Z']);
});

test('a slot in the repeated autumn hour happens once, at its first occurrence', () => {
  const slots: Slot[] = [{ day: 'sun', time: '02:30' }];
  const got = upcomingSlots(slots, 'Europe/Paris', at('2026-10-24T12:00:00Z'), 2).map(iso);
  // 02:30 happens twice on 2026-10-25 (00:30Z in summer time, then 01:30Z): the first one.
  assert.deepEqual(got, ['2026-10-25T00:30:00.000Z', '2026-11-01T01:30:00.000Z']);
});

test('firstFreeSlot skips taken slots; nothing free within the horizon is null', () => {
  const slots: Slot[] = [{ day: 'mon', time: '09:00' }];
  const after = at('2026-11-23T00:00:00Z');
  const [first, second] = upcomingSlots(slots, 'UTC', after, 2);
  assert.equal(firstFreeSlot(slots, 'UTC', after, new Set([first!])), second);
  assert.equal(firstFreeSlot([], 'UTC', after, new Set()), null);
  const many = new Set(upcomingSlots(slots, 'UTC', after, 20));
  assert.equal(firstFreeSlot(slots, 'UTC', after, many, 20), null);
});
