// A clock tests can move forward (idempotency expiry, edit windows, token expiry).
import { systemClock, type Clock } from '../../src/lib/clock.ts';

export interface TestClock extends Clock {
  advance(ms: number): void;
}

export function testClock(): TestClock {
  let offset = 0;
  return {
    now: () => Date.now() + offset,
    sleep: systemClock.sleep,
    advance(ms) {
      offset += ms;
    },
  };
}
