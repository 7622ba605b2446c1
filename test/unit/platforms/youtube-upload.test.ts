// The pure parts of the resumable upload: reading Range, cutting chunks in 256 KiB multiples, recognising
// what a file is, and the checkpoint.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readCheckpoint } from '../../../src/platforms/youtube/checkpoint.ts';
import { sniffImage, sniffVideo } from '../../../src/platforms/youtube/media-file.ts';
import { readSettings, videoMetadata } from '../../../src/platforms/youtube/publish.ts';
import { chunkEnd, nextOffset } from '../../../src/platforms/youtube/upload.ts';

const K = 256 * 1024;

test('Range: the next offset after the bytes the server kept; none kept without the header', () => {
  assert.equal(nextOffset(null), 0);
  assert.equal(nextOffset('bytes=0-262143'), K);
  assert.equal(nextOffset('bytes=0-0'), 1);
  assert.equal(nextOffset('bytes=5-10'), null);
  assert.equal(nextOffset('garbage'), null);
});

test('chunks are whole 256 KiB multiples except the last', () => {
  assert.equal(chunkEnd(0, 10 * K, 8 * K), 8 * K - 1);
  assert.equal(chunkEnd(8 * K, 10 * K, 8 * K), 10 * K - 1);
  assert.equal(chunkEnd(0, 10 * K, 300 * 1024), K - 1, 'rounded down to a multiple');
  assert.equal(chunkEnd(0, 100, 1), 99, 'at least one granule; a small file goes whole');
});

test('what a file is, from its first bytes', () => {
  const ftyp = (brand: string) => new Uint8Array([0, 0, 0, 0x18, ...Buffer.from(`ftyp${brand}`, 'latin1')]);
  assert.deepEqual(sniffVideo(ftyp('mp42')), { kind: 'video', mimeType: 'video/mp4' });
  assert.deepEqual(sniffVideo(ftyp('qt  ')), { kind: 'video', mimeType: 'video/quicktime' });
  assert.deepEqual(sniffVideo(ftyp('heic')), { kind: 'not_video', what: 'a HEIF/AVIF image' });
  assert.deepEqual(sniffVideo(new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 0])), { kind: 'video', mimeType: 'video/webm' });
  assert.equal(sniffVideo(new Uint8Array([0xff, 0xd8, 0xff, 0xe0])).kind, 'not_video');
  assert.equal(sniffVideo(Buffer.from('%PDF-1.7')).kind, 'not_video');
  assert.equal(sniffVideo(Buffer.from('<!DOCTYPE html><html>')).kind, 'not_video');
  assert.deepEqual(sniffVideo(new Uint8Array(20)), { kind: 'unknown' });
  assert.equal(sniffImage(new Uint8Array([0xff, 0xd8, 0xff, 0xdb])), 'image/jpeg');
  assert.equal(sniffImage(Buffer.from('\x89PNG\r\n\x1a\n', 'latin1')), 'image/png');
  assert.equal(sniffImage(Buffer.from('GIF89a')), undefined);
});

test('the metadata sent: title, description, category (22 by default), tags, privacy (public by default), made for kids', () => {
  const s = readSettings({ title: 'T', madeForKids: true });
  assert.ok(!('ok' in s));
  assert.deepEqual(videoMetadata(s as Exclude<typeof s, { ok: false }>, 'd'), {
    snippet: { title: 'T', description: 'd', categoryId: '22' },
    status: { privacyStatus: 'public', selfDeclaredMadeForKids: true },
  });
  const full = readSettings({ title: 'T', madeForKids: false, privacyStatus: 'unlisted', tags: ['a'], categoryId: '10', notifySubscribers: false });
  assert.ok(!('ok' in full) && full.notifySubscribers === false);
  assert.equal((readSettings({ madeForKids: false }) as { category: string }).category, 'content_rejected');
});

test('checkpoints are read defensively', () => {
  assert.deepEqual(readCheckpoint(null), {});
  assert.deepEqual(readCheckpoint({ sessionUri: 'https://u', size: 10, openedAt: 5, videoId: 'abc', privacyLocked: true, thumbnail: 'set' }), {
    sessionUri: 'https://u',
    size: 10,
    openedAt: 5,
    videoId: 'abc',
    privacyLocked: true,
    thumbnail: 'set',
  });
  assert.deepEqual(readCheckpoint({ sessionUri: 3, size: -1, videoId: '' }), {});
});
