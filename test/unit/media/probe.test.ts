import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { open, readFile, stat, writeFile } from 'node:fs/promises';
import type { ImageFacts, VideoFacts } from '../../../src/media/facts.ts';
import { createProber, type ProbeResult } from '../../../src/media/probe.ts';
import { countPdfPages } from '../../../src/media/pdf-pages.ts';
import { createMediaFixtures, ffmpegAvailable, HEIC_FIXTURE, type MediaFixtures } from '../../helpers/media-fixtures.ts';

let fx: MediaFixtures;
const prober = createProber({ ffprobePath: 'ffprobe', timeoutMs: 10_000, maxImagePixels: 100_000_000 });

before(async () => {
  assert.ok(await ffmpegAvailable(), "ffmpeg/ffprobe are not installed: apt-get install -y ffmpeg (Debian's package)");
  fx = await createMediaFixtures();
});
after(() => fx?.cleanup());

function facts(result: ProbeResult) {
  assert.ok(result.ok, `expected facts, got ${JSON.stringify(result)}`);
  return result.facts;
}

function image(result: ProbeResult): ImageFacts {
  const f = facts(result);
  assert.equal(f.kind, 'image');
  return f as ImageFacts;
}

function video(result: ProbeResult): VideoFacts {
  const f = facts(result);
  assert.equal(f.kind, 'video');
  return f as VideoFacts;
}

function unreadable(result: ProbeResult, pattern: RegExp) {
  assert.equal(result.ok, false, JSON.stringify(result));
  if (result.ok) return;
  assert.equal(result.reason, 'unreadable', result.message);
  assert.match(result.message, pattern);
}

test('a JPEG: format, size, bytes', async () => {
  const path = await fx.image('a.jpg', { width: 640, height: 480, format: 'jpeg' });
  assert.deepEqual(facts(await prober.probe(path)), {
    kind: 'image', format: 'jpeg', contentType: 'image/jpeg', bytes: (await stat(path)).size,
    width: 640, height: 480, frames: 1, orientation: 1, hasAlpha: false,
  });
});

test('EXIF orientation 6 and 8 report the displayed (swapped) sides; 3 does not swap', async () => {
  for (const [orientation, w, h] of [[6, 300, 400], [8, 300, 400], [3, 400, 300]] as const) {
    const path = await fx.image(`o${orientation}.jpg`, { width: 400, height: 300, format: 'jpeg', orientation });
    const f = image(await prober.probe(path));
    assert.deepEqual([f.width, f.height, f.orientation], [w, h, orientation], `orientation ${orientation}`);
  }
});

test('PNG with alpha, WebP, animated GIF with its frame count, HEIC from its header', async () => {
  const png = image(await prober.probe(await fx.image('a.png', { width: 50, height: 20, format: 'png', alpha: true })));
  assert.deepEqual([png.format, png.width, png.height, png.hasAlpha], ['png', 50, 20, true]);
  const webp = image(await prober.probe(await fx.image('a.webp', { width: 33, height: 44, format: 'webp' })));
  assert.deepEqual([webp.format, webp.width, webp.height], ['webp', 33, 44]);
  const gif = image(await prober.probe(await fx.animatedGif('a.gif', 5, 40, 30)));
  assert.deepEqual([gif.format, gif.width, gif.height, gif.frames], ['gif', 40, 30, 5]);
  const heic = image(await prober.probe(HEIC_FIXTURE));
  assert.deepEqual([heic.format, heic.contentType, heic.width, heic.height], ['heic', 'image/heic', 64, 48]);
});

test('truncated or corrupt images are unreadable with a reason, not a throw', async () => {
  const jpeg = await fx.image('noise.jpg', { width: 800, height: 600, format: 'jpeg', noise: true });
  const size = (await stat(jpeg)).size;
  unreadable(await prober.probe(await fx.truncate(jpeg, 'half.jpg', Math.floor(size / 2))), /truncated|premature/i);
  unreadable(await prober.probe(await fx.truncate(jpeg, 'head.jpg', 40)), /cannot be read|truncated/i);
  const png = await fx.image('noise.png', { width: 300, height: 300, format: 'png', noise: true });
  unreadable(await prober.probe(await fx.truncate(png, 'half.png', Math.floor((await stat(png)).size / 2))), /./);
  const heic = await readFile(HEIC_FIXTURE);
  await writeFile(fx.path('cut.heic'), heic.subarray(0, heic.length - 50));
  unreadable(await prober.probe(fx.path('cut.heic')), /truncated/);
});

test('images larger than the pixel limit are refused before decoding', async () => {
  const small = createProber({ ffprobePath: 'ffprobe', timeoutMs: 10_000, maxImagePixels: 10_000 });
  unreadable(await small.probe(await fx.image('big.png', { width: 200, height: 200, format: 'png' })), /too large to process: 200×200/);
});

test('unknown bytes are unsupported, not unreadable', async () => {
  await writeFile(fx.path('page.jpg'), '<html><body>hello</body></html>');
  const result = await prober.probe(fx.path('page.jpg'));
  assert.equal(result.ok === false && result.reason, 'unsupported');
  await writeFile(fx.path('empty'), '');
  assert.equal((await prober.probe(fx.path('empty'))).ok === false, true);
});

test('an MP4: duration, size, frame rate, codecs', async () => {
  const path = await fx.video('a.mp4', { width: 320, height: 240, seconds: 2, fps: 25 });
  const f = video(await prober.probe(path));
  assert.deepEqual(
    { container: f.container, contentType: f.contentType, width: f.width, height: f.height, frameRate: f.frameRate, videoCodec: f.videoCodec, audioCodec: f.audioCodec, rotation: f.rotation },
    { container: 'mp4', contentType: 'video/mp4', width: 320, height: 240, frameRate: 25, videoCodec: 'h264', audioCodec: 'aac', rotation: 0 },
  );
  assert.ok(Math.abs(f.durationMs - 2000) <= 50, `duration ${f.durationMs}`);
  assert.equal(f.bytes, (await stat(path)).size);
});

test('a silent HEVC QuickTime movie at 29.97 fps', async () => {
  const f = video(await prober.probe(await fx.video('a.mov', { width: 128, height: 96, seconds: 1, fps: 30000 / 1001, codec: 'hevc', audio: false, container: 'mov' })));
  assert.deepEqual([f.container, f.contentType, f.videoCodec, f.audioCodec, f.frameRate], ['quicktime', 'video/quicktime', 'hevc', null, 29.97]);
});

test('a rotated video reports its displayed sides and a clockwise rotation', async () => {
  const f = video(await prober.probe(await fx.video('rot.mp4', { width: 320, height: 240, seconds: 0.5, rotate: 90, audio: false })));
  assert.deepEqual([f.width, f.height], [240, 320]);
  assert.ok(f.rotation === 90 || f.rotation === 270, `rotation ${f.rotation}`);
});

test('truncated videos are unreadable, whether the index comes first or last', async () => {
  for (const faststart of [false, true]) {
    const path = await fx.video(`full-${faststart}.mp4`, { width: 320, height: 240, seconds: 2, faststart });
    const size = (await stat(path)).size;
    unreadable(await prober.probe(await fx.truncate(path, `cut-${faststart}.mp4`, Math.floor(size * 0.6))), /truncated/);
  }
  // Only the ftyp box and garbage after it.
  const head = (await readFile(await fx.video('b.mp4', { width: 64, height: 48, seconds: 0.2 }))).subarray(0, 32);
  await writeFile(fx.path('garbage.mp4'), Buffer.concat([head, Buffer.alloc(2000, 0x41)]));
  unreadable(await prober.probe(fx.path('garbage.mp4')), /./);
});

test('a missing ffprobe is reported as such, never as a bad file', async () => {
  const broken = createProber({ ffprobePath: '/nonexistent/ffprobe', timeoutMs: 5000, maxImagePixels: 1e8 });
  const result = await broken.probe(await fx.video('c.mp4', { width: 64, height: 48, seconds: 0.2 }));
  assert.equal(result.ok === false && result.reason, 'prober_missing');
  const check = await broken.checkFfprobe();
  assert.equal(check.ok, false);
  const good = await prober.checkFfprobe();
  assert.ok(good.ok && /^ffprobe version/.test(good.version));
});

test('a PDF reports its page count, with or without object streams', async () => {
  for (const objectStreams of [true, false]) {
    const f = facts(await prober.probe(await fx.pdf(`d-${objectStreams}.pdf`, 12, { objectStreams })));
    assert.deepEqual(f, { kind: 'document', format: 'pdf', contentType: 'application/pdf', bytes: f.bytes, pages: 12 });
  }
});

test('PDF: a truncated file is unreadable; damaged offsets are rebuilt by scanning; incremental updates count the newest tree', async () => {
  const path = await fx.pdf('e.pdf', 3);
  const bytes = await readFile(path);
  unreadable(await prober.probe(await fx.truncate(path, 'e-cut.pdf', bytes.length - 30)), /truncated/);
  for (const objectStreams of [true, false]) {
    const original = await readFile(await fx.pdf(`f-${objectStreams}.pdf`, 4, { objectStreams }));
    // 20 bytes inserted after the header shift every object: the cross-reference offsets are all wrong.
    await writeFile(fx.path('shifted.pdf'), Buffer.concat([original.subarray(0, 9), Buffer.from('%' + 'x'.repeat(18) + '\n'), original.subarray(9)]));
    const f = facts(await prober.probe(fx.path('shifted.pdf')));
    assert.equal(f.kind === 'document' && f.pages, 4, `objectStreams ${objectStreams}`);
  }
  // An incremental update appends a new page tree with 5 pages and a trailer whose /Prev is the old table.
  const base = await readFile(await fx.pdf('g.pdf', 2, { objectStreams: false }));
  const text = base.toString('latin1');
  const size = Number(/\/Size (\d+)/.exec(text.slice(text.lastIndexOf('trailer')))![1]);
  const prev = Number(/startxref\s+(\d+)/.exec(text.slice(text.lastIndexOf('startxref')))![1]);
  const root = /\/Root (\d+) 0 R/.exec(text)![1];
  const catalogAt = base.length;
  const catalog = `${size} 0 obj\n<< /Type /Catalog /Pages ${size + 1} 0 R >>\nendobj\n`;
  const pagesAt = catalogAt + catalog.length;
  const pages = `${size + 1} 0 obj\n<< /Type /Pages /Kids [] /Count 5 >>\nendobj\n`;
  const xrefAt = pagesAt + pages.length;
  const pad = (n: number) => String(n).padStart(10, '0');
  const update = `${catalog}${pages}xref\n${size} 2\n${pad(catalogAt)} 00000 n\r\n${pad(pagesAt)} 00000 n\r\ntrailer\n<< /Size ${size + 2} /Root ${size} 0 R /Prev ${prev} >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  assert.ok(root);
  await writeFile(fx.path('updated.pdf'), Buffer.concat([base, Buffer.from(update, 'latin1')]));
  const f = facts(await prober.probe(fx.path('updated.pdf')));
  assert.equal(f.kind === 'document' && f.pages, 5);
});

/** A PDF written by hand: the objects in order, a classic cross-reference table, a trailer. */
function handMadePdf(objects: (string | Buffer)[]): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n')];
  let at = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    const part = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), Buffer.isBuffer(body) ? body : Buffer.from(body), Buffer.from('\nendobj\n')]);
    offsets.push(at);
    parts.push(part);
    at += part.length;
  });
  const rows = offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n\r\n`).join('');
  parts.push(Buffer.from(`xref\n0 ${objects.length + 1}\n0000000000 65535 f\r\n${rows}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${at}\n%%EOF\n`));
  return Buffer.concat(parts);
}

test('PDF page counting reads a few KiB of a 64 MiB file', async () => {
  const filler = 64 * 1024 * 1024;
  const pdf = handMadePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 400] /Contents 4 0 R >>',
    Buffer.concat([Buffer.from(`<< /Length ${filler} >>\nstream\n`), Buffer.alloc(filler, 0x20), Buffer.from('\nendstream')]),
  ]);
  await writeFile(fx.path('big.pdf'), pdf);
  const file = await open(fx.path('big.pdf'));
  let readBytes = 0;
  const counting = {
    read: async (buffer: Buffer, offset: number, length: number, position: number) => {
      const r = await file.read(buffer, offset, length, position);
      readBytes += r.bytesRead;
      return r;
    },
  } as unknown as typeof file;
  try {
    assert.deepEqual(await countPdfPages(counting, pdf.length), { ok: true, pages: 1 });
    assert.ok(readBytes < 100_000, `read ${readBytes} bytes`);
  } finally {
    await file.close();
  }
});

test('PDF: an indirect /Count, a missing page tree, and zero pages', async () => {
  const indirect = handMadePdf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [] /Count 3 0 R >>', '7']);
  await writeFile(fx.path('i.pdf'), indirect);
  assert.equal((facts(await prober.probe(fx.path('i.pdf'))) as { pages: number }).pages, 7);
  await writeFile(fx.path('nopages.pdf'), handMadePdf(['<< /Type /Catalog >>']));
  unreadable(await prober.probe(fx.path('nopages.pdf')), /page tree is missing/);
  await writeFile(fx.path('zero.pdf'), handMadePdf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [] /Count 0 >>']));
  unreadable(await prober.probe(fx.path('zero.pdf')), /no pages/);
});
