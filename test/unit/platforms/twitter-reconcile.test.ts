import { test } from 'node:test';
import assert from 'node:assert/strict';
import { matchableText, parseTimelinePost } from '../../../src/platforms/twitter/reconcile.ts';
import { postedIdsOf } from '../../../src/platforms/twitter/publish.ts';
import { pollDelayMs, sniffMediaType } from '../../../src/platforms/twitter/media.ts';
import { buildAuthorizeUrl } from '../../../src/platforms/twitter/oauth.ts';
import type { AdapterDeps } from '../../../src/platforms/deps.ts';

test('text matches what X returns: t.co links, an appended media link, HTML escapes, NFC', () => {
  const sent = 'Launch day & <3 https://example.com/blog/launch caf\u0065\u0301';
  const returned = 'Launch day &amp; &lt;3 https://t.co/AbC123 café https://t.co/media999';
  assert.equal(matchableText(returned), matchableText(sent));
  assert.notEqual(matchableText('Launch day'), matchableText(sent));
  assert.equal(matchableText('https://t.co/onlymedia'), '', 'a media-only post has no text to match');
});

test('timeline posts: the full text of long posts comes from note_tweet; replies know their parent', () => {
  const p = parseTimelinePost({
    id: '1880000000000000001',
    text: 'cut short…',
    note_tweet: { text: 'the whole long text' },
    created_at: '2026-11-22T10:00:00.000Z',
    referenced_tweets: [{ type: 'quoted', id: '5' }, { type: 'replied_to', id: '1880000000000000000' }],
  });
  assert.deepEqual(p, { id: '1880000000000000001', text: 'the whole long text', repliedTo: '1880000000000000000', createdAt: Date.UTC(2026, 10, 22, 10) });
  assert.equal(parseTimelinePost({ text: 'no id' }), undefined);
});

test('checkpoints: ids stay strings, anything malformed counts as nothing posted', () => {
  assert.deepEqual(postedIdsOf({ postedIds: ['1880000000000000001', '1880000000000000002'] }), ['1880000000000000001', '1880000000000000002']);
  assert.deepEqual(postedIdsOf(null), []);
  assert.deepEqual(postedIdsOf({ postedIds: [1880000000000000001] }), []);
  assert.deepEqual(postedIdsOf({ other: true }), []);
});

test('polls wait as X asks, but never past the poll interval or the deadline', () => {
  assert.equal(pollDelayMs(1, 5000, 60_000), 1000);
  assert.equal(pollDelayMs(10, 5000, 60_000), 5000);
  assert.equal(pollDelayMs(undefined, 5000, 60_000), 5000);
  assert.equal(pollDelayMs(10, 5000, 1200), 1200);
  assert.equal(pollDelayMs(0, 5000, 1200), 0);
});

test('media type comes from the bytes', () => {
  assert.equal(sniffMediaType(new Uint8Array([0xff, 0xd8, 0xff, 0xe0])), 'image/jpeg');
  assert.equal(sniffMediaType(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d])), 'image/png');
  assert.equal(sniffMediaType(new Uint8Array([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x71, 0x74, 0x20, 0x20])), 'video/quicktime');
  assert.equal(sniffMediaType(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8])), undefined);
});

test('the authorize URL asks for PKCE S256 and refuses to go without a challenge', () => {
  const deps = { app: { clientId: 'cid', clientSecret: 's', apiUrl: 'https://api.x.com', authUrl: 'https://x.com/i/oauth2/authorize', tokenUrl: 'https://api.x.com', apiVersion: '' } } as AdapterDeps;
  const url = new URL(buildAuthorizeUrl(deps, { state: 'a b', redirectUri: 'https://h.example/cb?x=1', codeChallenge: 'chal' }));
  assert.equal(url.origin + url.pathname, 'https://x.com/i/oauth2/authorize');
  assert.equal(url.searchParams.get('client_id'), 'cid');
  assert.equal(url.searchParams.get('redirect_uri'), 'https://h.example/cb?x=1');
  assert.equal(url.searchParams.get('state'), 'a b');
  assert.equal(url.searchParams.get('code_challenge'), 'chal');
  assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
  assert.throws(() => buildAuthorizeUrl(deps, { state: 's', redirectUri: 'https://h.example/cb' }));
});
