import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FaultInjector } from '../../../src/sandbox/kit/faults.ts';

test('a fault hits matching requests the given number of times', () => {
  const f = new FaultInjector();
  f.add({ kind: 'server_error', method: 'post', path: '/2/tweets', count: 2 });
  assert.equal(f.take('GET', '/2/tweets'), undefined);
  assert.equal(f.take('POST', '/2/tweets')?.kind, 'server_error');
  assert.equal(f.take('POST', '/2/tweets')?.kind, 'server_error');
  assert.equal(f.take('POST', '/2/tweets'), undefined);
});

test('forever faults stay until cleared; unknown kinds are refused', () => {
  const f = new FaultInjector();
  f.add({ kind: 'slow', forever: true, delayMs: 1 });
  for (let i = 0; i < 5; i++) assert.equal(f.take('GET', '/x')?.kind, 'slow');
  f.clear();
  assert.equal(f.take('GET', '/x'), undefined);
  assert.throws(() => f.add({ kind: 'nope' as never }));
});
