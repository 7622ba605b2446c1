// Pure pieces of the Bluesky adapter: rich-text facets at UTF-8 byte offsets, record keys (TIDs), the
// create-time rules, and the link card read from a page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bluesky } from '../../../src/platforms/bluesky/index.ts';
import type { PlatformDescriptor } from '../../../src/platforms/descriptor.ts';
import { buildFacets, detectCandidates, isHandle } from '../../../src/platforms/bluesky/facets.ts';
import { decodeEntities, summarizePage } from '../../../src/platforms/bluesky/link-card.ts';
import { createTidSource, encodeTid, isTid, tidMicros } from '../../../src/platforms/bluesky/tid.ts';
import { graphemeLength, truncateGraphemes } from '../../../src/platforms/bluesky/text.ts';
import { validateBluesky } from '../../../src/platforms/bluesky/validate.ts';
import type { MediaItem } from '../../../src/platforms/types.ts';

const slice = (text: string, r: { byteStart: number; byteEnd: number }) => Buffer.from(text).subarray(r.byteStart, r.byteEnd).toString();

test('facets: links, mentions and tags at UTF-8 byte offsets, after multi-byte text', () => {
  const text = 'héllo 👍🏽 @alice.bsky.social: see https://example.com/path?q=1. and (https://x.org/a_(b)) #Herald #2026 #ok!';
  const found = detectCandidates(text).map((c) => [c.kind, slice(text, c.index)]);
  assert.deepEqual(found, [
    ['mention', '@alice.bsky.social'],
    ['link', 'https://example.com/path?q=1'],
    ['link', 'https://x.org/a_(b)'],
    ['tag', '#Herald'],
    ['tag', '#ok'],
  ]);
});

test('facets: no mention inside an e-mail address or without a domain; no tag inside a link; full-width ＃', () => {
  const kinds = (text: string) => detectCandidates(text).map((c) => `${c.kind}:${slice(text, c.index)}`);
  assert.deepEqual(kinds('mail me at bob@example.com or @bob'), []);
  assert.deepEqual(kinds('https://example.com/#anchor'), ['link:https://example.com/#anchor']);
  assert.deepEqual(kinds('＃日本語 tag'), ['tag:＃日本語']);
  assert.deepEqual(kinds(`#${'a'.repeat(65)} #${'b'.repeat(64)}`), [`tag:#${'b'.repeat(64)}`]);
  assert.equal(isHandle('alice.bsky.social'), true);
  assert.equal(isHandle('alice'), false);
  assert.equal(isHandle('alice.123'), false);
});

test('facets: a mention becomes a facet only with a DID; features carry the link, the DID and the tag without #', () => {
  const text = '@a.test @b.test https://h.example #t';
  const facets = buildFacets(detectCandidates(text), new Map([['a.test', 'did:plc:aaa']]));
  assert.deepEqual(facets.map((f) => f.features[0]), [
    { $type: 'app.bsky.richtext.facet#mention', did: 'did:plc:aaa' },
    { $type: 'app.bsky.richtext.facet#link', uri: 'https://h.example' },
    { $type: 'app.bsky.richtext.facet#tag', tag: 't' },
  ]);
});

test('record keys: 13 base32-sortable characters of microseconds and clock id, strictly increasing', () => {
  assert.equal(encodeTid(0n, 0), '2222222222222');
  const tid = encodeTid(1_700_000_000_000_000n, 5);
  assert.ok(isTid(tid));
  assert.equal(tidMicros(tid), 1_700_000_000_000_000n);
  assert.equal(isTid('self'), false);
  let now = 1_800_000_000_000;
  const source = createTidSource({ now: () => now, sleep: async () => {} }, 9);
  const keys = [source.next(), source.next(), source.next()];
  now -= 1000; // the clock stepping back does not reorder keys
  keys.push(source.next());
  assert.deepEqual([...keys].sort(), keys);
  assert.equal(new Set(keys).size, 4);
});

test('create-time rules: 300 graphemes (and 3,000 bytes), ≤ 4 images or 1 video, no mixing, per thread item and for the first comment', () => {
  const img: MediaItem = { type: 'image', url: 'https://m.example/a.png' };
  const vid: MediaItem = { type: 'video', url: 'https://m.example/a.mp4' };
  const check = (content: string, media: MediaItem[] = [], settings: Record<string, unknown> = {}) => validateBluesky({ content, media, settings }, { meta: {} });
  assert.deepEqual(check('👍🏽'.repeat(300)), []);
  assert.deepEqual(check('👍🏽'.repeat(301)), [{ field: 'content', message: 'A Bluesky post is at most 300 characters (graphemes); this one has 301.' }]);
  assert.deepEqual(check('é'.repeat(300)), []);
  assert.deepEqual(check('', [img, img, img, img]), []);
  assert.deepEqual(check('x', [img, img, img, img, img]), [{ field: 'media', message: 'Bluesky allows up to 4 images per post; this one has 5.' }]);
  assert.deepEqual(check('x', [img, vid]), [{ field: 'media', message: 'Bluesky cannot mix images and a video in one post.' }]);
  assert.deepEqual(check('x', [vid, vid]), [{ field: 'media', message: 'Bluesky allows 1 video per post; this one has 2.' }]);
  assert.deepEqual(check('x', [{ type: 'document', url: 'https://m.example/a.pdf' }]), [{ field: 'media', message: 'Bluesky posts cannot carry documents (PDF); use images or a video.' }]);
  assert.deepEqual(check('', []), [{ field: 'content', message: 'A Bluesky post needs text or media.' }]);
  assert.deepEqual(check('x', [], { threadItems: [{ content: 'y'.repeat(301) }, { content: 'z', mediaItems: [img, vid] }] }), [
    { field: 'settings.threadItems[0].content', message: 'A Bluesky post is at most 300 characters (graphemes); this one has 301.' },
    { field: 'settings.threadItems[1].mediaItems', message: 'Bluesky cannot mix images and a video in one post.' },
  ]);
  assert.deepEqual(check('x', [], { firstComment: 'c'.repeat(301) }), [{ field: 'settings.firstComment', message: 'A Bluesky reply is at most 300 characters (graphemes); this one has 301.' }]);
  assert.deepEqual(check('x', [], { firstComment: '  ' }), []);
});

test('characters: graphemes, limit 300', () => {
  assert.deepEqual((bluesky as PlatformDescriptor).characters('👍🏽 héllo', { meta: {} }), { used: 7, limit: 300 });
  assert.equal(graphemeLength('👨‍👩‍👧‍👦'), 1);
  assert.equal(truncateGraphemes('abcdef', 3), 'abc…');
  assert.equal(truncateGraphemes('abc', 3), 'abc');
});

test('link cards: Open Graph first, then <title> and the description meta; entities decoded; the image made absolute', () => {
  const html = `<html><head><title> Fallback
    title </title><meta name="description" content="Plain &quot;description&quot;"><meta content='/img/card.png' property='og:image'></head></html>`;
  assert.deepEqual(summarizePage(html, 'https://news.example/a/b'), { title: 'Fallback title', description: 'Plain "description"', image: 'https://news.example/img/card.png' });
  assert.deepEqual(summarizePage('<meta property="og:title" content="OG &#x263A;"><title>t</title>', 'https://x.example'), { title: 'OG ☺', description: '' });
  assert.equal(summarizePage('<p>nothing</p>', 'https://x.example'), null);
  assert.equal(decodeEntities('&amp;&lt;&gt;&#39;&nbsp;&bogus;'), `&<>' &bogus;`);
  const long = summarizePage(`<meta property="og:title" content="${'t'.repeat(400)}">`, 'https://x.example')!;
  assert.equal(graphemeLength(long.title), 301);
});
