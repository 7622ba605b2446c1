import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_RETRY_POLICY as P, decide } from '../../../src/publishing/policy.ts';
import { failure } from '../../../src/platforms/types.ts';

const NOW = 1_000_000;

test('permanent failures end the target at once', () => {
  for (const c of ['permission_missing', 'content_rejected', 'media_rejected', 'auth_expired'] as const) {
    assert.deepEqual(decide(P, failure(c, 'x'), 1, 0, NOW), { kind: 'fail' }, c);
  }
});

test('transient failures back off, and give up after the budget', () => {
  assert.deepEqual(decide(P, failure('platform_unavailable', '500'), 1, 0, NOW), { kind: 'retry', at: NOW + 2_000 });
  assert.deepEqual(decide(P, failure('platform_unavailable', '500'), 2, 0, NOW), { kind: 'retry', at: NOW + 10_000 });
  assert.deepEqual(decide(P, failure('platform_unavailable', '500'), 5, 0, NOW), { kind: 'retry', at: NOW + 15 * 60_000 });
  assert.deepEqual(decide(P, failure('platform_unavailable', '500'), 6, 0, NOW), { kind: 'fail' });
});

test('a rate limit waits for the platform reset, not just the back-off', () => {
  const reset = NOW + 15 * 60_000;
  assert.deepEqual(decide(P, failure('rate_limited', '429', { retryAt: reset }), 1, 0, NOW), { kind: 'retry', at: reset });
  assert.deepEqual(decide(P, failure('rate_limited', '429', { retryAt: NOW + 500 }), 1, 0, NOW), { kind: 'retry', at: NOW + 2_000 });
  assert.deepEqual(decide(P, failure('quota_exceeded', 'q', { retryAt: NOW + 30 * 60 * 60_000 }), 1, 0, NOW), { kind: 'fail' });
});

test('unknown outcomes are reconciled a bounded number of times, never retried blindly', () => {
  const unknown = failure('outcome_unknown', 'timed out');
  assert.deepEqual(decide(P, unknown, 1, 0, NOW), { kind: 'reconcile', at: NOW + 2_000 });
  assert.deepEqual(decide(P, unknown, 1, 2, NOW), { kind: 'reconcile', at: NOW + 60_000 });
  assert.deepEqual(decide(P, unknown, 6, 3, NOW), { kind: 'fail' });
});
