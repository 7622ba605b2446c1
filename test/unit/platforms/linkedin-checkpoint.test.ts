// The checkpoint and the one inference it supports: a duplicate refusal naming a post is this target's
// post only when an earlier attempt sent it, and the post is not older than that send.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isOwnDuplicate, readCheckpoint, toCheckpoint, urnTime } from '../../../src/platforms/linkedin/checkpoint.ts';

const urnAt = (ms: number, seq = 1n) => `urn:li:share:${((BigInt(ms) << 22n) | seq).toString()}`;

test('a post URN tells when it was made (top 41 bits of its id)', () => {
  const at = Date.UTC(2026, 10, 24, 12);
  assert.equal(urnTime(urnAt(at)), at);
  assert.equal(urnTime('urn:li:ugcPost:7140000000000000000'), Number(7140000000000000000n >> 22n));
  assert.equal(urnTime('urn:li:share:12'), undefined);
  assert.equal(urnTime('urn:li:image:C4D22AQabc'), undefined);
});

test('a duplicate is ours only after an earlier send, and not older than it', () => {
  const sent = Date.UTC(2026, 10, 24, 12);
  assert.equal(isOwnDuplicate({ media: [] }, urnAt(sent)), false, 'no earlier send');
  assert.equal(isOwnDuplicate({ media: [], createSentAt: sent }, urnAt(sent + 500)), true);
  assert.equal(isOwnDuplicate({ media: [], createSentAt: sent }, urnAt(sent - 30_000)), true, 'within clock skew');
  assert.equal(isOwnDuplicate({ media: [], createSentAt: sent }, urnAt(sent - 3600_000)), false, 'an older post with the same text');
});

test('the checkpoint survives a round trip and ignores junk', () => {
  const cp = { media: [{ url: 'https://x/a.jpg', kind: 'image' as const, urn: 'urn:li:image:1' }, null], createSentAt: 5, postUrn: 'urn:li:share:1' };
  assert.deepEqual(readCheckpoint(toCheckpoint(cp)), cp);
  assert.deepEqual(readCheckpoint({ media: [{ url: 1 }, 'x'], createSentAt: 'no' }), { media: [null, null] });
  assert.deepEqual(readCheckpoint(null), { media: [] });
});
