import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { sniff } from '../../../src/media/sniff.ts';
import { createMediaFixtures, HEIC_FIXTURE, type MediaFixtures } from '../../helpers/media-fixtures.ts';

let fx: MediaFixtures;
before(async () => {
  fx = await createMediaFixtures();
});
after(() => fx.cleanup());

const ftyp = (major: string, ...compatible: string[]) => {
  const size = 16 + 4 * compatible.length;
  const b = Buffer.alloc(size + 8);
  b.writeUInt32BE(size, 0);
  b.write('ftyp', 4, 'latin1');
  b.write(major, 8, 'latin1');
  compatible.forEach((brand, i) => b.write(brand, 16 + 4 * i, 'latin1'));
  b.writeUInt32BE(8, size);
  b.write('mdat', size + 4, 'latin1');
  return b;
};
const atom = (type: string, size = 8) => {
  const b = Buffer.alloc(size);
  b.writeUInt32BE(size, 0);
  b.write(type, 4, 'latin1');
  return b;
};

test('real files made by sharp, ffmpeg and pdf-lib are recognised from their bytes', async () => {
  const cases: [string, Promise<string>, object][] = [
    ['jpeg', fx.image('a.jpeg', { width: 8, height: 8, format: 'jpeg' }), { kind: 'image', format: 'jpeg', contentType: 'image/jpeg' }],
    ['png', fx.image('a.png', { width: 8, height: 8, format: 'png' }), { kind: 'image', format: 'png', contentType: 'image/png' }],
    ['webp', fx.image('a.webp', { width: 8, height: 8, format: 'webp' }), { kind: 'image', format: 'webp', contentType: 'image/webp' }],
    ['gif', fx.animatedGif('a.gif', 2, 8, 8), { kind: 'image', format: 'gif', contentType: 'image/gif' }],
    ['heic', Promise.resolve(HEIC_FIXTURE), { kind: 'image', format: 'heic', contentType: 'image/heic' }],
    ['mp4', fx.video('a.mp4', { width: 64, height: 48, seconds: 0.2, audio: false }), { kind: 'video', container: 'mp4', contentType: 'video/mp4' }],
    ['mov', fx.video('a.mov', { width: 64, height: 48, seconds: 0.2, audio: false, container: 'mov' }), { kind: 'video', container: 'quicktime', contentType: 'video/quicktime' }],
    ['pdf', fx.pdf('a.pdf', 1), { kind: 'document', format: 'pdf', contentType: 'application/pdf' }],
  ];
  for (const [label, file, expected] of cases) {
    assert.deepEqual(sniff((await readFile(await file)).subarray(0, 512)), expected, label);
  }
});

test('the name and declared type do not matter: a PNG named .jpg is a PNG', async () => {
  const path = await fx.image('photo.jpg', { width: 8, height: 8, format: 'png' });
  assert.equal(sniff(await readFile(path))?.contentType, 'image/png');
});

test('ftyp brands decide between HEIC, HEIF, MP4 and QuickTime', () => {
  const cases: [Buffer, string | null][] = [
    [ftyp('heic', 'mif1', 'heic'), 'image/heic'],
    [ftyp('heix', 'mif1'), 'image/heic'],
    [ftyp('mif1', 'heic'), 'image/heif'], // major brand decides
    [ftyp('msf1', 'hevc'), 'image/heif'],
    [ftyp('hevc', 'msf1'), 'image/heic'],
    [ftyp('isom', 'iso2', 'avc1', 'mp41'), 'video/mp4'],
    [ftyp('mp42', 'isom'), 'video/mp4'],
    [ftyp('avc1'), 'video/mp4'],
    [ftyp('M4V ', 'M4A ', 'mp42'), 'video/mp4'],
    [ftyp('qt  ', 'qt  '), 'video/quicktime'],
    [ftyp('XXXX', 'qt  '), 'video/quicktime'], // unknown major: compatible brands
    [ftyp('avif', 'mif1', 'miaf'), null], // AVIF is not accepted
    [ftyp('mif1', 'avif'), null],
    [ftyp('M4A ', 'M4A ', 'mp42', 'isom'), null], // audio only, though it names MP4 brands
    [ftyp('3gp5', '3gp5'), null],
    [ftyp('crx ', 'crx '), null], // Canon raw
  ];
  for (const [bytes, contentType] of cases) assert.equal(sniff(bytes)?.contentType ?? null, contentType, bytes.toString('latin1', 8, 12));
});

test('QuickTime files without ftyp are recognised by their first atoms', () => {
  assert.equal(sniff(Buffer.concat([atom('moov', 16), atom('mdat')]))?.contentType, 'video/quicktime');
  assert.equal(sniff(Buffer.concat([atom('mdat', 16)]))?.contentType, 'video/quicktime');
  assert.equal(sniff(Buffer.concat([atom('wide'), atom('mdat')]))?.contentType, 'video/quicktime');
  assert.equal(sniff(Buffer.concat([atom('free', 8), atom('moov')]))?.contentType, 'video/quicktime');
  assert.equal(sniff(Buffer.concat([atom('free', 8), atom('free', 8)])), null);
  assert.equal(sniff(atom('MOOV', 16)), null);
});

test('empty, short and foreign bytes are nothing we accept', () => {
  const foreign = [
    Buffer.alloc(0),
    Buffer.from([0xff, 0xd8]), // two bytes of a JPEG
    Buffer.from('<!DOCTYPE html><html><body>not an image</body></html>'),
    Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'),
    Buffer.from('RIFF\x10\x00\x00\x00WAVEfmt ', 'latin1'),
    Buffer.from('BM\x36\x00\x00\x00', 'latin1'), // BMP
    Buffer.from('II*\x00', 'latin1'), // TIFF
    Buffer.from('PK\x03\x04', 'latin1'), // zip (docx, pptx)
    Buffer.from('\x1aE\xdf\xa3', 'latin1'), // WebM/Matroska
    Buffer.from(' %PDF-1.7', 'latin1'),
    Buffer.alloc(600),
  ];
  for (const bytes of foreign) assert.equal(sniff(bytes), null, JSON.stringify(bytes.toString('latin1').slice(0, 12)));
});
