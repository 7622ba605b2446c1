import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newId, timePrefix } from '../../src/lib/ids.ts';

test('ids are prefixed, url-safe, long enough and unique', () => {
  const ids = new Set(Array.from({ length: 10_000 }, () => newId('post')));
  assert.equal(ids.size, 10_000);
  for (const id of [...ids].slice(0, 100)) assert.match(id, /^post_[A-Za-z0-9_-]{24}$/);
});

test('ids of later times sort after earlier ones', () => {
  const times = [0, 1, 61, 62, 3_843, 1_700_000_000_000, 1_800_000_000_000, 1_800_000_000_001];
  const prefixes = times.map(timePrefix);
  assert.deepEqual([...prefixes].sort(), prefixes);
  assert.ok(newId('tgt', 1_800_000_000_000) < newId('tgt', 1_800_000_000_001));
});
