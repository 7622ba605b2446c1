import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { isoTime } from '../../src/lib/iso-time.ts';

test('isoTime writes what toISOString writes, for every millisecond it may be given', () => {
  const same = (ms: number) => assert.equal(isoTime(ms), new Date(ms).toISOString(), String(ms));
  fc.assert(fc.property(fc.integer({ min: -62_198_755_200_000, max: 8_640_000_000_000_000 }), same), { numRuns: 20_000 });
  fc.assert(fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), same), { numRuns: 20_000 });
  for (const ms of [0, -1, 1, 951_782_400_000, 951_868_799_999, 4_107_542_399_999, 253_402_300_799_999, 253_402_300_800_000, -30_610_224_000_000, -30_610_224_000_001, 1.5]) same(ms);
});
