// Container sniffing and MP4 duration, on hand-built files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mp4DurationSec, videoMimeType } from '../../../src/platforms/tiktok/video-file.ts';

function box(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
}

const ftyp = (brand = 'mp42') => box('ftyp', Buffer.concat([Buffer.from(brand, 'latin1'), Buffer.alloc(4), Buffer.from('isom', 'latin1')]));

function mvhdV0(timescale: number, duration: number): Buffer {
  const b = Buffer.alloc(100);
  // version 0, flags, creation, modification, then timescale and duration
  b.writeUInt32BE(timescale, 12);
  b.writeUInt32BE(duration, 16);
  return box('mvhd', b);
}

function mvhdV1(timescale: number, duration: bigint): Buffer {
  const b = Buffer.alloc(112);
  b.writeUInt8(1, 0);
  b.writeUInt32BE(timescale, 20);
  b.writeBigUInt64BE(duration, 24);
  return box('mvhd', b);
}

test('containers TikTok accepts are recognised from their first bytes', () => {
  assert.equal(videoMimeType(ftyp()), 'video/mp4');
  assert.equal(videoMimeType(ftyp('qt  ')), 'video/quicktime');
  assert.equal(videoMimeType(Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0, 0])), 'video/webm');
  assert.equal(videoMimeType(Buffer.from([0xff, 0xd8, 0xff, 0xe0])), undefined);
  assert.equal(videoMimeType(Buffer.alloc(0)), undefined);
});

test('duration is read from moov/mvhd, versions 0 and 1', () => {
  const v0 = Buffer.concat([ftyp(), box('free', Buffer.alloc(10)), box('moov', Buffer.concat([mvhdV0(1000, 754_500), box('trak', Buffer.alloc(4))]))]);
  assert.equal(mp4DurationSec(v0), 754.5);
  const v1 = Buffer.concat([ftyp(), box('moov', mvhdV1(90_000, 90_000n * 61n))]);
  assert.equal(mp4DurationSec(v1), 61);
});

test('no moov, a truncated box or a zero timescale give no duration', () => {
  assert.equal(mp4DurationSec(ftyp()), null);
  const whole = Buffer.concat([ftyp(), box('moov', mvhdV0(1000, 5000))]);
  assert.equal(mp4DurationSec(whole.subarray(0, whole.length - 20)), null);
  assert.equal(mp4DurationSec(Buffer.concat([ftyp(), box('moov', mvhdV0(0, 5000))])), null);
});
