// The retry schedule of API.md section 7 as a table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_WEBHOOK_RETRY_SCHEDULE, loadConfig } from '../../../src/config.ts';
import { maxAttempts, nextAttemptDelayMs } from '../../../src/webhooks/schedule.ts';

test('the default schedule: 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 3 h, 6 h, 12 h, 24 h, then failed', () => {
  const expected = [5, 30, 120, 600, 1800, 3600, 3 * 3600, 6 * 3600, 12 * 3600, 24 * 3600].map((s) => s * 1000);
  for (let made = 1; made <= 10; made++) assert.equal(nextAttemptDelayMs(DEFAULT_WEBHOOK_RETRY_SCHEDULE, made), expected[made - 1], `after attempt ${made}`);
  assert.equal(nextAttemptDelayMs(DEFAULT_WEBHOOK_RETRY_SCHEDULE, 11), null, 'the 11th attempt is the last');
  assert.equal(maxAttempts(DEFAULT_WEBHOOK_RETRY_SCHEDULE), 11);
  assert.equal(nextAttemptDelayMs(DEFAULT_WEBHOOK_RETRY_SCHEDULE, 0), null);
});

test('HERALD_WEBHOOK_RETRY_SCHEDULE overrides it, in seconds with fractions', () => {
  const schedule = loadConfig({ HERALD_WEBHOOK_RETRY_SCHEDULE: '0.2, 0.4' }).webhookRetrySchedule;
  assert.deepEqual(schedule, [0.2, 0.4]);
  assert.equal(nextAttemptDelayMs(schedule, 1), 200);
  assert.equal(nextAttemptDelayMs(schedule, 2), 400);
  assert.equal(nextAttemptDelayMs(schedule, 3), null);
  assert.throws(() => loadConfig({ HERALD_WEBHOOK_RETRY_SCHEDULE: '5,soon' }), /HERALD_WEBHOOK_RETRY_SCHEDULE/);
});
