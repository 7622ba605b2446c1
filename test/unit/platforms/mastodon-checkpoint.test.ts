// What a mastodon attempt saves and how it is read back; the request bodies and paging it relies on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { freshCheckpoint, keyFor, readCheckpoint, toCheckpoint } from '../../../src/platforms/mastodon/checkpoint.ts';
import { readCommentCheckpoint } from '../../../src/platforms/mastodon/comment.ts';
import { createBody, nextMaxId, parseStatus } from '../../../src/platforms/mastodon/statuses.ts';
import { chainOf, statusOptionsOf } from '../../../src/platforms/mastodon/thread.ts';

test('a checkpoint round-trips; anything malformed reads as none or is left out', () => {
  const cp = { ...freshCheckpoint(), posted: ['111'], firstUrl: 'https://s.example/@a/111', pending: { index: 1, key: 'k', sentAt: 5, mediaIds: ['9'] } };
  assert.deepEqual(readCheckpoint(toCheckpoint(cp)), cp);
  assert.equal(readCheckpoint(null), null);
  assert.equal(readCheckpoint({ postedIds: ['1'] }), null, 'another platform\'s checkpoint is not ours');
  assert.equal(readCheckpoint({ keyBase: 'b', posted: [1] }), null, 'ids are strings');
  assert.deepEqual(readCheckpoint({ keyBase: 'b', posted: [], pending: { index: 'x' } }), { keyBase: 'b', posted: [] });
});

test('keys differ per target, per status of the chain and per first send', () => {
  const a = freshCheckpoint();
  const b = freshCheckpoint();
  assert.notEqual(keyFor(a, 0, 1), keyFor(b, 0, 1));
  assert.notEqual(keyFor(a, 0, 1), keyFor(a, 1, 1));
  assert.notEqual(keyFor(a, 0, 1), keyFor(a, 0, 2));
  assert.match(keyFor(a, 0, 1), /^herald-[0-9a-f-]{36}-0-1$/);
});

test('comment checkpoints', () => {
  assert.deepEqual(readCommentCheckpoint({ key: 'k', sentAt: 1, statusId: '12' }), { key: 'k', sentAt: 1, statusId: '12' });
  assert.equal(readCommentCheckpoint({ sentAt: 1 }), null);
});

test('a create body sends media_ids as an array and leaves empty fields out', () => {
  assert.deepEqual(createBody({ text: 'hi', mediaIds: [], options: { spoilerText: '' }, idempotencyKey: 'k' }), { status: 'hi' });
  assert.deepEqual(
    createBody({ text: '', mediaIds: ['1', '2'], inReplyToId: '9', options: { visibility: 'unlisted', spoilerText: 'cw', sensitive: true, language: 'fr' }, idempotencyKey: 'k' }),
    { media_ids: ['1', '2'], in_reply_to_id: '9', visibility: 'unlisted', spoiler_text: 'cw', sensitive: true, language: 'fr' },
  );
});

test('the next page is the max_id of the Link header\'s rel="next"', () => {
  const link = '<https://s.example/api/v1/accounts/1/statuses?limit=40&max_id=1009>; rel="next", <https://s.example/api/v1/accounts/1/statuses?limit=40&min_id=1050>; rel="prev"';
  assert.equal(nextMaxId(link), '1009');
  assert.equal(nextMaxId('<https://s.example/x?min_id=3>; rel="prev"'), undefined);
  assert.equal(nextMaxId(null), undefined);
});

test('statuses are read with string ids; anything without a numeric id is skipped', () => {
  const s = parseStatus({ id: '117', url: 'https://s.example/@a/117', created_at: '2026-11-24T21:00:00.000Z', in_reply_to_id: null, media_attachments: [{ id: '5' }], spoiler_text: '', account: { id: '3' }, application: { name: 'Herald' } });
  assert.deepEqual(s, { id: '117', url: 'https://s.example/@a/117', inReplyToId: null, mediaIds: ['5'], spoilerText: '', createdAt: Date.parse('2026-11-24T21:00:00.000Z'), accountId: '3', applicationName: 'Herald' });
  assert.equal(parseStatus({ id: 117 }), undefined);
});

test('the chain is the content, then the thread items; options apply to all', () => {
  const chain = chainOf({ content: 'a', media: [], settings: { threadItems: [{ content: 'b' }, { content: 'c', mediaItems: [{ type: 'image', url: 'https://x/y.png' }] }] } });
  assert.deepEqual(chain.map((c) => [c.text, c.media.length, c.field]), [['a', 0, 'content'], ['b', 0, 'settings.threadItems[0]'], ['c', 1, 'settings.threadItems[1]']]);
  assert.deepEqual(statusOptionsOf({ visibility: 'private', spoilerText: 'cw', sensitive: false, language: 'de' }), { visibility: 'private', spoilerText: 'cw', sensitive: false, language: 'de' });
  assert.deepEqual(statusOptionsOf({ visibility: 'everyone' }), { spoilerText: '' });
});
