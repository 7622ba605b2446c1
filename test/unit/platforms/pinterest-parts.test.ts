// Pure parts of the Pinterest adapter: token answers, media recognition, the media source it sends,
// the checkpoint, and how reconcile picks the Pin an earlier attempt made from a board's Pins.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readCheckpoint } from '../../../src/platforms/pinterest/checkpoint.ts';
import { decide, matchable, matchableLink, parseListedPin, type ListedPin, type WantedPin } from '../../../src/platforms/pinterest/locate.ts';
import { displayUrl, sniffImage, sniffVideo, type LoadedImage } from '../../../src/platforms/pinterest/media.ts';
import { parseScopes, toGrant } from '../../../src/platforms/pinterest/oauth.ts';
import { imageSource } from '../../../src/platforms/pinterest/publish.ts';
import { s3Error } from '../../../src/platforms/pinterest/video.ts';

const NOW = 1_800_000_000_000;

test('token answers: 30-day access, continuous refresh token with its exact end, space-separated scopes', () => {
  const r = toGrant(
    { access_token: 'pina_x', refresh_token: 'pinr.y', response_type: 'refresh_token', token_type: 'bearer', expires_in: 2592000, refresh_token_expires_in: 5184000, refresh_token_expires_at: 1_800_005_184, scope: 'boards:read pins:read' },
    NOW,
  );
  assert.ok('grant' in r);
  assert.equal(r.grant.expiresAt, NOW + 2592000_000);
  assert.equal(r.grant.refreshToken, 'pinr.y');
  assert.equal(r.grant.refreshExpiresAt, 1_800_005_184_000);
  assert.deepEqual(r.grant.scopes, ['boards:read', 'pins:read']);
  const relative = toGrant({ access_token: 'a', refresh_token: 'r', expires_in: 10, refresh_token_expires_in: 20, scope: 'a,b' }, NOW);
  assert.ok('grant' in relative && relative.grant.refreshExpiresAt === NOW + 20_000);
  assert.deepEqual(parseScopes('a, b  c'), ['a', 'b', 'c']);
  const none = toGrant({ token_type: 'bearer' }, NOW);
  assert.ok('ok' in none && none.category === 'platform_unavailable');
});

test('media is recognised from its bytes', () => {
  assert.equal(sniffImage(Buffer.from([0xff, 0xd8, 0xff, 0xe0])), 'image/jpeg');
  assert.equal(sniffImage(Buffer.from('\x89PNG\r\n\x1a\n....', 'latin1')), 'image/png');
  assert.equal(sniffImage(Buffer.from('GIF89a....', 'latin1')), 'image/gif');
  assert.equal(sniffImage(Buffer.from('RIFF\0\0\0\0WEBPVP8 ', 'latin1')), 'image/webp');
  assert.equal(sniffImage(Buffer.from('hello', 'latin1')), undefined);
  assert.equal(sniffVideo(Buffer.from('\0\0\0\x18ftypmp42\0\0\0\0', 'latin1')), 'video/mp4');
  assert.equal(sniffVideo(Buffer.from('\0\0\0\x14ftypqt  \0\0\0\0', 'latin1')), 'video/quicktime');
  assert.equal(sniffVideo(Buffer.from([0xff, 0xd8, 0xff, 0xe0])), undefined);
  assert.equal(displayUrl('https://bucket.example/a.jpg?X-Amz-Signature=secret'), 'https://bucket.example/a.jpg');
});

const loaded = (contentType: LoadedImage['contentType'], size = 4, n = 0): LoadedImage => ({ item: { type: 'image', url: `https://cdn.example/${n}` }, bytes: new Uint8Array(size).fill(65), contentType });

test('images go as bytes when JPEG/PNG and small enough together, else as URLs', () => {
  assert.deepEqual(imageSource([loaded('image/jpeg')], 100), { source_type: 'image_base64', content_type: 'image/jpeg', data: 'QUFBQQ==' });
  assert.deepEqual(imageSource([loaded('image/gif')], 100), { source_type: 'image_url', url: 'https://cdn.example/0' });
  assert.deepEqual(imageSource([loaded('image/jpeg', 60, 1), loaded('image/png', 60, 2)], 100), {
    source_type: 'multiple_image_urls',
    items: [{ url: 'https://cdn.example/1' }, { url: 'https://cdn.example/2' }],
  });
  const inline = imageSource([loaded('image/jpeg', 4, 1), loaded('image/png', 4, 2)], 100);
  assert.equal(inline.source_type, 'multiple_image_base64');
  assert.deepEqual((inline.items as unknown[]).length, 2);
});

test('S3 errors are read from their XML', () => {
  assert.deepEqual(s3Error('<Error><Code>AccessDenied</Code><Message>Invalid according to Policy: Policy expired.</Message></Error>'), {
    code: 'AccessDenied',
    message: 'Invalid according to Policy: Policy expired.',
  });
  assert.deepEqual(s3Error('gateway timeout'), { code: '', message: '' });
});

test('the checkpoint is read defensively', () => {
  assert.deepEqual(readCheckpoint({ kind: 'video', mediaId: '123', pinSentAt: 5 }), { kind: 'video', mediaId: '123', pinSentAt: 5 });
  assert.deepEqual(readCheckpoint({ kind: 'image', mediaId: 12, pinSentAt: 'x' }), { kind: 'image' });
  assert.equal(readCheckpoint({ publishId: 'p' }), null);
  assert.equal(readCheckpoint(null), null);
});

const want: WantedPin = { boardId: '10', title: 'Title', description: 'Hello  world', link: 'https://example.com/a/', kind: 'image' };
const pin = (over: Partial<ListedPin> = {}): ListedPin => ({
  id: '900',
  boardId: '10',
  title: 'Title',
  description: 'Hello world',
  link: matchableLink('https://example.com/a'),
  mediaType: 'image',
  createdAt: NOW,
  ...over,
});

test('a Pin is matched by board, text, link, kind and time, spacing and trailing slashes aside', () => {
  assert.equal(matchable(' Hello \n world '), 'Hello world');
  assert.deepEqual(decide([pin()], want, NOW - 60_000, true), { ok: true, found: true, platformPostId: '900', platformPostUrl: 'https://www.pinterest.com/pin/900/' });
  for (const other of [{ boardId: '11' }, { title: 'Other' }, { description: 'Hello' }, { link: 'https://example.com/b' }, { mediaType: 'video' }, { createdAt: NOW - 120_000 }]) {
    assert.deepEqual(decide([pin(other)], want, NOW - 60_000, true), { ok: true, found: false }, JSON.stringify(other));
  }
  // The earliest match after the attempt is the one it made.
  const two = decide([pin({ id: '902', createdAt: NOW + 5000 }), pin({ id: '901', createdAt: NOW + 1000 })], want, NOW - 60_000, true);
  assert.ok(two.ok && two.found === true && two.platformPostId === '901');
});

test('a partial read or a Pin with nothing to match on cannot tell', () => {
  const partial = decide([], want, NOW, false);
  assert.ok(partial.ok && partial.found === 'unknown');
  const bare: WantedPin = { boardId: '10', title: '', description: '', link: '', kind: 'image' };
  const anonymous = decide([pin({ title: '', description: '', link: '' })], bare, NOW - 60_000, true);
  assert.ok(anonymous.ok && anonymous.found === 'unknown');
  assert.deepEqual(decide([], bare, NOW, true), { ok: true, found: false });
});

test('listed Pins are read from the Pin model; ids stay strings', () => {
  const p = parseListedPin({ id: '1040000000001054460', board_id: '10', title: null, description: 'd', link: null, media: { media_type: 'multiple_images' }, created_at: '2026-11-24T10:00:00-00:00' });
  assert.deepEqual(p, { id: '1040000000001054460', boardId: '10', title: '', description: 'd', link: '', mediaType: 'multiple_images', createdAt: Date.parse('2026-11-24T10:00:00Z') });
  assert.equal(parseListedPin({ id: 123 }), undefined);
});
