import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import type { ImageFacts } from '../../../src/media/facts.ts';
import { inRange } from '../../../src/media/geometry.ts';
import { createProber } from '../../../src/media/probe.ts';
import { makeRendition } from '../../../src/media/renditions.ts';
import { checkMedia, planFit, type MediaRules, type RenditionSpec } from '../../../src/media/rules.ts';
import { createMediaFixtures, HEIC_FIXTURE, type MediaFixtures } from '../../helpers/media-fixtures.ts';
import { DRAFT_RULES } from './draft-platform-rules.ts';

let fx: MediaFixtures;
const prober = createProber({ ffprobePath: 'ffprobe', timeoutMs: 10_000, maxImagePixels: 100_000_000 });
before(async () => {
  fx = await createMediaFixtures();
});
after(() => fx.cleanup());

async function probeImage(path: string): Promise<ImageFacts> {
  const result = await prober.probe(path);
  assert.ok(result.ok && result.facts.kind === 'image', JSON.stringify(result));
  return result.facts as ImageFacts;
}

/** Probes, plans and renders for a platform; returns the output's probed facts. */
async function fitFor(path: string, rules: MediaRules, fit: 'auto' | 'crop' | 'pad', out: string) {
  const plan = planFit(await probeImage(path), rules, fit);
  assert.equal(plan.action, 'rendition', JSON.stringify(plan));
  if (plan.action !== 'rendition') throw new Error('unreachable');
  const made = await makeRendition(path, plan.spec, fx.path(out));
  assert.ok(made.ok, JSON.stringify(made));
  const probed = await probeImage(fx.path(out));
  assert.deepEqual({ ...probed, contentType: made.facts.contentType }, made.facts, 'the reported facts are what the file is');
  return { spec: plan.spec, facts: probed };
}

test('a large PNG for Instagram becomes a JPEG with its longest side 1440 that passes every Instagram rule', async () => {
  const png = await fx.image('big.png', { width: 4000, height: 3000, format: 'png', noise: true });
  const { facts } = await fitFor(png, DRAFT_RULES.instagram, 'auto', 'ig.jpg');
  assert.deepEqual([facts.format, facts.width, facts.height], ['jpeg', 1440, 1080]);
  assert.deepEqual(checkMedia(facts, DRAFT_RULES.instagram), []);
});

test('crop and pad outputs have the planned size, the bound ratio, and pass the rules', async () => {
  const tall = await fx.image('tall.jpg', { width: 1000, height: 3000, format: 'jpeg' });
  const crop = await fitFor(tall, DRAFT_RULES.instagram, 'crop', 'crop.jpg');
  assert.deepEqual([crop.facts.width, crop.facts.height], [1000, 1250]); // exactly 4:5
  const pad = await fitFor(tall, DRAFT_RULES.instagram, 'pad', 'pad.jpg');
  assert.deepEqual([pad.facts.width, pad.facts.height], [1152, 1440]); // exactly 4:5
  const wide = await fx.image('wide.jpg', { width: 4000, height: 1000, format: 'jpeg' });
  const wideCrop = await fitFor(wide, DRAFT_RULES.instagram, 'crop', 'wcrop.jpg');
  assert.deepEqual([wideCrop.facts.width, wideCrop.facts.height], [1440, 754]);
  for (const f of [crop.facts, pad.facts, wideCrop.facts]) {
    assert.ok(inRange(f.width, f.height, DRAFT_RULES.instagram.image!.aspectRatio!));
    assert.deepEqual(checkMedia(f, DRAFT_RULES.instagram), []);
  }
  // The letterbox is white at the sides of a padded tall picture; the picture is in the middle.
  const { data, info } = await sharp(fx.path('pad.jpg')).raw().toBuffer({ resolveWithObject: true });
  const px = (x: number, y: number) => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3)];
  for (const x of [2, info.width - 3]) assert.ok(px(x, 720).every((v) => v > 245), `edge ${px(x, 720)}`);
  const [r, g, b] = px(576, 720);
  assert.ok(Math.abs(r! - 30) < 8 && Math.abs(g! - 120) < 8 && Math.abs(b! - 200) < 8, `centre ${[r, g, b]}`);
});

test('EXIF orientation is applied to the pixels and the metadata stripped', async () => {
  // Stored 400×300, left half red, right half blue; orientation 6 displays it turned a quarter clockwise,
  // so the red half is on top.
  const pixels = Buffer.alloc(400 * 300 * 3);
  for (let y = 0; y < 300; y++) for (let x = 0; x < 400; x++) pixels.set(x < 200 ? [220, 20, 20] : [20, 20, 220], (y * 400 + x) * 3);
  await sharp(pixels, { raw: { width: 400, height: 300, channels: 3 } }).jpeg({ quality: 95 }).withMetadata({ orientation: 6 }).toFile(fx.path('o6.jpg'));
  const spec: RenditionSpec = { format: 'jpeg', width: 150, height: 200, mode: 'scale' };
  const made = await makeRendition(fx.path('o6.jpg'), spec, fx.path('o6-out.jpg'));
  assert.ok(made.ok);
  const meta = await sharp(fx.path('o6-out.jpg')).metadata();
  assert.deepEqual([meta.width, meta.height, meta.orientation, meta.exif, meta.icc, meta.xmp], [150, 200, undefined, undefined, undefined, undefined]);
  const { data } = await sharp(fx.path('o6-out.jpg')).raw().toBuffer({ resolveWithObject: true });
  const top = data.subarray((20 * 150 + 75) * 3, (20 * 150 + 75) * 3 + 3);
  const bottom = data.subarray((180 * 150 + 75) * 3, (180 * 150 + 75) * 3 + 3);
  assert.ok(top[0]! > 180 && top[2]! < 80, `top ${[...top]}`);
  assert.ok(bottom[2]! > 180 && bottom[0]! < 80, `bottom ${[...bottom]}`);
});

test('a byte limit steps the quality down, then the size, and stays within the ratio range', async () => {
  const noisy = await fx.image('noisy.png', { width: 2000, height: 1600, format: 'png', noise: true });
  const spec: RenditionSpec = { format: 'jpeg', width: 2000, height: 1600, mode: 'scale', maxBytes: 150_000, aspectRatio: { min: { width: 4, height: 5 }, max: { width: 1.91, height: 1 } } };
  const made = await makeRendition(noisy, spec, fx.path('small.jpg'));
  assert.ok(made.ok, JSON.stringify(made));
  assert.ok(made.facts.bytes <= 150_000, `${made.facts.bytes}`);
  assert.ok(made.facts.width < 2000 && inRange(made.facts.width, made.facts.height, spec.aspectRatio!));
  const impossible = await makeRendition(noisy, { ...spec, maxBytes: 10, aspectRatio: undefined }, fx.path('none.jpg'), { maxShrinks: 2 });
  assert.equal(impossible.ok === false && impossible.reason, 'cannot_fit');
});

test('transparency becomes white in a JPEG and stays in a PNG', async () => {
  const png = await fx.image('alpha.png', { width: 64, height: 64, format: 'png', alpha: true });
  const jpeg = await makeRendition(png, { format: 'jpeg', width: 32, height: 32, mode: 'scale' }, fx.path('alpha.jpg'));
  assert.ok(jpeg.ok && !jpeg.facts.hasAlpha);
  const { data } = await sharp(fx.path('alpha.jpg')).raw().toBuffer({ resolveWithObject: true });
  // 50 % of (30,120,200) over white.
  assert.ok(Math.abs(data[0]! - 142) < 6 && Math.abs(data[2]! - 227) < 6, `${[...data.subarray(0, 3)]}`);
  const keep = await makeRendition(png, { format: 'png', width: 32, height: 32, mode: 'scale' }, fx.path('alpha-out.png'));
  assert.ok(keep.ok && keep.facts.hasAlpha);
});

test('sources that cannot be decoded are failures, not throws', async () => {
  const heic = await makeRendition(HEIC_FIXTURE, { format: 'jpeg', width: 32, height: 24, mode: 'scale' }, fx.path('h.jpg'));
  assert.equal(heic.ok === false && heic.reason, 'unsupported_input');
  const jpeg = await fx.image('n.jpg', { width: 800, height: 600, format: 'jpeg', noise: true });
  const cut = await fx.truncate(jpeg, 'cut.jpg', 20_000);
  const bad = await makeRendition(cut, { format: 'jpeg', width: 80, height: 60, mode: 'scale' }, fx.path('cut-out.jpg'));
  assert.equal(bad.ok === false && bad.reason, 'unreadable');
});
