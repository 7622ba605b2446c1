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

/** How far behind a Herald's clock is held while a test schedules posts a moment ahead (see `behind`). */
export const SCHEDULING_SLACK_MS = 60_000;

/**
 * A post scheduled a moment ahead must still be in the future when its create arrives, however late a
 * loaded machine delivers it. `scheduling` runs with `clock` (the Herald's) held `SCHEDULING_SLACK_MS`
 * behind, so the create's "not in the past" check sees that much room; before and after, the Herald
 * runs on real time and the post comes due at the real time it names. Nothing else may be in flight in
 * that Herald meanwhile (leases taken while the clock is behind would end early).
 */
export async function behind<T>(clock: TestClock, scheduling: () => Promise<T>): Promise<T> {
  clock.advance(-SCHEDULING_SLACK_MS);
  try {
    return await scheduling();
  } finally {
    clock.advance(SCHEDULING_SLACK_MS);
  }
}

/** For a Herald that only serves the API (role `api`): a clock that lags for good, same purpose. */
export function laggingClock(): TestClock {
  const clock = testClock();
  clock.advance(-SCHEDULING_SLACK_MS);
  return clock;
}
