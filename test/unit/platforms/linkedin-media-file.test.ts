// Reading LinkedIn's media rules from the bytes: formats, pixels, durations, pages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkFile } from '../../../src/platforms/linkedin/media.ts';
import { imageDimensions, mp4DurationSec, pdfPageCount, sniffFileType } from '../../../src/platforms/linkedin/media-file.ts';
import { SAMPLE_MEDIA } from '../../../src/sandbox/media.ts';
import { mp4, pdf, png } from '../../platforms/linkedin-files.ts';

test('formats are recognised from the bytes', () => {
  assert.equal(sniffFileType(SAMPLE_MEDIA['sample.jpg']!.bytes), 'image/jpeg');
  assert.equal(sniffFileType(SAMPLE_MEDIA['sample.png']!.bytes), 'image/png');
  assert.equal(sniffFileType(Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1')), 'image/gif');
  assert.equal(sniffFileType(mp4(5, 1000)), 'video/mp4');
  assert.equal(sniffFileType(pdf(1)), 'application/pdf');
  assert.equal(sniffFileType(Buffer.from('\0\0\0\x14ftypqt  \0\0\0\0', 'latin1')), undefined, 'QuickTime is not MP4');
  assert.equal(sniffFileType(Buffer.from('hello')), undefined);
});

test('pixel sizes of JPEG, PNG and GIF', () => {
  assert.deepEqual(imageDimensions(SAMPLE_MEDIA['sample.jpg']!.bytes, 'image/jpeg'), { width: 1, height: 1 });
  assert.deepEqual(imageDimensions(png(6000, 7000), 'image/png'), { width: 6000, height: 7000 });
  assert.deepEqual(imageDimensions(Buffer.from('GIF89a\x20\x03\x58\x02', 'latin1'), 'image/gif'), { width: 800, height: 600 });
});

test('MP4 duration from the movie header; PDF pages from page objects', () => {
  assert.equal(mp4DurationSec(mp4(12.5, 2000)), 12.5);
  assert.equal(mp4DurationSec(SAMPLE_MEDIA['sample.mp4']!.bytes), null);
  assert.equal(pdfPageCount(pdf(7)), 7);
  assert.equal(pdfPageCount(Buffer.from('%PDF-1.7 compressed')), null);
});

test('checkFile states the rule and the value', () => {
  assert.equal(checkFile('image', SAMPLE_MEDIA['sample.jpg']!.bytes, 'image/jpeg', 'a.jpg'), null);
  assert.match(checkFile('image', png(6100, 6000), 'image/png', 'big.png')!, /6100×6000 pixels; LinkedIn images must have fewer than 36,152,320/);
  assert.match(checkFile('image', pdf(1), 'application/pdf', 'x')!, /not a JPEG, PNG or GIF/);
  assert.match(checkFile('video', mp4(2, 100_000), 'video/mp4', 'short.mp4')!, /lasts 2 s; LinkedIn videos last 3 s to 30 minutes/);
  assert.match(checkFile('video', mp4(10, 1000), 'video/mp4', 'tiny.mp4')!, /1000 bytes; LinkedIn videos are at least 75 KB/);
  assert.equal(checkFile('video', mp4(10, 100_000), 'video/mp4', 'ok.mp4'), null);
  assert.match(checkFile('document', mp4(10, 100_000), 'video/mp4', 'x')!, /not a PDF/);
});
