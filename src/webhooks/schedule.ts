// When a failed delivery is tried again (API.md section 7). Pure, so the schedule has table tests.

/**
 * The delay before the next attempt after `attemptsMade` attempts (the first send included), or null when
 * the schedule is used up and the delivery is failed. `scheduleSeconds[0]` follows the first attempt.
 */
export function nextAttemptDelayMs(scheduleSeconds: readonly number[], attemptsMade: number): number | null {
  const seconds = scheduleSeconds[attemptsMade - 1];
  return seconds === undefined || attemptsMade < 1 ? null : Math.round(seconds * 1000);
}

/** Attempts a delivery gets before it is marked failed: the first send and one per scheduled retry. */
export function maxAttempts(scheduleSeconds: readonly number[]): number {
  return scheduleSeconds.length + 1;
}
