import { test } from 'node:test';
import assert from 'node:assert/strict';
import { limitHeapGrowth } from '../../src/cli/start.ts';

test('herald start limits how far V8 grows the old generation, unless the command line says otherwise', () => {
  assert.equal(limitHeapGrowth(['--heap-growing-percent=50']), false);
  assert.equal(limitHeapGrowth(['--max-old-space-size=512', '--heap_growing_percent=80']), false);
  assert.equal(limitHeapGrowth(['--max-old-space-size=512']), true);
  assert.equal(limitHeapGrowth([]), true);
});
