// FILE_UPLOAD chunk planning against TikTok's media transfer rules, cross-checked with the emulator's
// independent check of the same rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planChunks, type ChunkPlan } from '../../../src/platforms/tiktok/chunks.ts';
import { PREFERRED_CHUNK_BYTES, TIKTOK_CHUNK_RULES } from '../../../src/platforms/tiktok/info.ts';
import { chunkPlanError } from '../../../src/sandbox/tiktok/publishes.ts';

const plan = (size: number, preferred = PREFERRED_CHUNK_BYTES): ChunkPlan => {
  const p = planChunks(size, TIKTOK_CHUNK_RULES, preferred);
  assert.ok(!('error' in p), `no plan for ${size}`);
  return p;
};

test('under 5 MB the video goes whole', () => {
  const p = plan(3_000_000);
  assert.deepEqual([p.chunkSize, p.totalChunkCount], [3_000_000, 1]);
  assert.deepEqual(p.ranges, [{ start: 0, end: 2_999_999 }]);
});

test('TikTok\'s own example: 50,000,123 bytes in 10,000,000-byte chunks is 5 chunks, the last 10,000,123', () => {
  const p = plan(50_000_123);
  assert.deepEqual([p.chunkSize, p.totalChunkCount], [10_000_000, 5]);
  assert.deepEqual(p.ranges.at(-1), { start: 40_000_000, end: 50_000_122 });
});

test('a file that fits one preferred chunk goes whole', () => {
  const p = plan(7_000_000);
  assert.deepEqual([p.chunkSize, p.totalChunkCount], [7_000_000, 1]);
});

test('a 4 GB file stays within 1000 chunks and 128 MB for the last one', () => {
  const p = plan(4 * 1024 ** 3);
  assert.ok(p.totalChunkCount <= 1000);
  const last = p.ranges.at(-1)!;
  assert.ok(last.end - last.start + 1 <= TIKTOK_CHUNK_RULES.maxFinalChunkBytes);
});

test('a preferred chunk below 5 MB is raised; above 64 MB it is lowered', () => {
  assert.equal(plan(100_000_000, 1_000_000).chunkSize, TIKTOK_CHUNK_RULES.minChunkBytes);
  assert.equal(plan(300_000_000, 100_000_000).chunkSize, TIKTOK_CHUNK_RULES.maxChunkBytes);
});

test('ranges are contiguous and cover the file exactly', () => {
  for (const size of [1, 5_242_879, 5_242_880, 64_000_001, 123_456_789]) {
    const p = plan(size);
    let next = 0;
    for (const r of p.ranges) {
      assert.equal(r.start, next);
      next = r.end + 1;
    }
    assert.equal(next, size);
  }
});

test('every plan passes the emulator\'s independent check of the rules', () => {
  const sizes = [1, 999, 5_000_000, 5_242_879, 5_242_880, 9_999_999, 10_000_000, 10_000_001, 64_000_000, 64_000_001, 200_000_000, 987_654_321, 4 * 1024 ** 3];
  for (const size of sizes) {
    for (const preferred of [5_000_000, PREFERRED_CHUNK_BYTES, 64_000_000]) {
      const p = plan(size, preferred);
      assert.equal(chunkPlanError(size, p.chunkSize, p.totalChunkCount, TIKTOK_CHUNK_RULES), null, `size ${size}, preferred ${preferred}`);
    }
  }
});

test('an empty file has no plan', () => {
  assert.ok('error' in planChunks(0, TIKTOK_CHUNK_RULES, PREFERRED_CHUNK_BYTES));
});
