// The pixel size an aspectRatio is built from, read from real files' first bytes (made by sharp), with
// the EXIF orientation that turns a JPEG, and an MP4's track header.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { isMp4, readImageInfo, readMp4Size } from '../../../src/platforms/bluesky/media-size.ts';
import { SAMPLE_MEDIA } from '../../../src/sandbox/media.ts';
import { mp4, png } from '../../platforms/bluesky-helpers.ts';

const raw = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 200, g: 10, b: 10 } } });

test('PNG, JPEG, WebP (lossy, lossless, extended) and GIF sizes', async () => {
  assert.deepEqual(readImageInfo(png(undefined, 16, 9)), { format: 'image/png', width: 16, height: 9 });
  assert.deepEqual(readImageInfo(await raw(40, 30).jpeg().toBuffer()), { format: 'image/jpeg', width: 40, height: 30 });
  assert.deepEqual(readImageInfo(await raw(41, 31).webp().toBuffer()), { format: 'image/webp', width: 41, height: 31 });
  assert.deepEqual(readImageInfo(await raw(42, 32).webp({ lossless: true }).toBuffer()), { format: 'image/webp', width: 42, height: 32 });
  const extended = await sharp({ create: { width: 43, height: 33, channels: 4, background: { r: 1, g: 2, b: 3, alpha: 0.5 } } }).webp().toBuffer();
  assert.deepEqual(readImageInfo(extended), { format: 'image/webp', width: 43, height: 33 });
  assert.deepEqual(readImageInfo(await raw(44, 34).gif().toBuffer()), { format: 'image/gif', width: 44, height: 34 });
  // The sandbox's own 1×1 JPEG (SOF9) and PNG.
  assert.deepEqual(readImageInfo(SAMPLE_MEDIA['sample.jpg']!.bytes), { format: 'image/jpeg', width: 1, height: 1 });
  assert.deepEqual(readImageInfo(SAMPLE_MEDIA['sample.png']!.bytes), { format: 'image/png', width: 1, height: 1 });
});

test('a JPEG whose EXIF orientation turns it a quarter is as wide as it is stored high', async () => {
  const turned = await raw(60, 20).jpeg().withMetadata({ orientation: 6 }).toBuffer();
  assert.deepEqual(readImageInfo(turned), { format: 'image/jpeg', width: 20, height: 60 });
  const upsideDown = await raw(60, 20).jpeg().withMetadata({ orientation: 3 }).toBuffer();
  assert.deepEqual(readImageInfo(upsideDown), { format: 'image/jpeg', width: 60, height: 20 });
});

test('not an image, or cut short: null', () => {
  assert.equal(readImageInfo(Buffer.from('%PDF-1.7')), null);
  assert.equal(readImageInfo(png().subarray(0, 20)), null);
  assert.equal(readImageInfo(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00])), null);
});

test('MP4: the ftyp signature and the first track header with a size', () => {
  assert.equal(isMp4(mp4(100)), true);
  assert.equal(isMp4(png()), false);
  assert.deepEqual(readMp4Size(mp4(5000, 1920, 1080)), { width: 1920, height: 1080 });
  assert.equal(readMp4Size(SAMPLE_MEDIA['sample.mp4']!.bytes), null);
});
