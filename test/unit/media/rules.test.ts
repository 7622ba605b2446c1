import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DocumentFacts, ImageFacts, VideoFacts } from '../../../src/media/facts.ts';
import { inRange } from '../../../src/media/geometry.ts';
import { checkMedia, planFit, type FitPlan, type MediaRules } from '../../../src/media/rules.ts';
import { DRAFT_RULES, type DraftPlatform } from './draft-platform-rules.ts';

const PLATFORMS = Object.keys(DRAFT_RULES) as DraftPlatform[];

const image = (over: Partial<ImageFacts> = {}): ImageFacts => ({
  kind: 'image', format: 'jpeg', contentType: 'image/jpeg', bytes: 3_000_000, width: 4032, height: 3024, frames: 1, orientation: 1, hasAlpha: false, ...over,
});
const video = (over: Partial<VideoFacts> = {}): VideoFacts => ({
  kind: 'video', container: 'mp4', contentType: 'video/mp4', bytes: 40_000_000, width: 1080, height: 1920, durationMs: 30_000, frameRate: 30,
  videoCodec: 'h264', audioCodec: 'aac', rotation: 0, ...over,
});
const pdf = (over: Partial<DocumentFacts> = {}): DocumentFacts => ({ kind: 'document', format: 'pdf', contentType: 'application/pdf', bytes: 2_000_000, pages: 12, ...over });

/** A plan, shortened for table comparison: 'as_is', 'reject:<rules>', or 'jpeg 1440x1080 scale'. */
function brief(plan: FitPlan): string {
  if (plan.action === 'as_is') return 'as_is';
  if (plan.action === 'reject') return `reject:${[...new Set(plan.violations.map((v) => v.rule))].join(',')}`;
  const s = plan.spec;
  return `${s.format} ${s.width}x${s.height} ${s.mode}`;
}

function table(facts: ImageFacts | VideoFacts | DocumentFacts, fit: 'auto' | 'crop' | 'pad' | 'none') {
  return Object.fromEntries(PLATFORMS.map((p) => [p, brief(planFit(facts, DRAFT_RULES[p], fit))]));
}

test('messages name the limit and the file\'s own value', () => {
  const ig = DRAFT_RULES.instagram;
  assert.deepEqual(checkMedia(image({ width: 1000, height: 3000 }), ig).map((v) => v.message), [
    'Instagram accepts aspect ratios between 4:5 and 1.91:1; this image is 1:3 (1000×3000)',
  ]);
  assert.deepEqual(checkMedia(image({ format: 'png', contentType: 'image/png', bytes: 9_437_184, width: 2000, height: 2000 }), ig).map((v) => v.message), [
    'Instagram accepts JPEG images; this one is PNG',
    'Instagram accepts images up to 8 MB; this one is 9.4 MB (9,437,184 bytes)',
  ]);
  assert.deepEqual(checkMedia(image({ width: 1441, height: 700 }), ig).map((v) => v.message), [
    'Instagram accepts aspect ratios between 4:5 and 1.91:1; this image is 2.06:1 (1441×700)',
  ]);
  assert.deepEqual(checkMedia(video({ durationMs: 150_000, frameRate: 120, videoCodec: 'vp9', audioCodec: 'opus', width: 2560, height: 1440 }), DRAFT_RULES.twitter).map((v) => v.message), [
    'X accepts videos of up to 2 min 20 s; this one lasts 2 min 30 s',
    'X accepts videos at most 1920 px wide; this one is 2560×1440',
    'X accepts frame rates of at most 60 fps; this video has 120 fps',
    'X accepts video encoded as H.264; this one is VP9',
    'X accepts audio encoded as AAC; this video\'s audio is Opus',
  ]);
  assert.deepEqual(checkMedia(video({ durationMs: 2000, frameRate: 15 }), DRAFT_RULES.instagram).map((v) => v.message), [
    'Instagram needs videos of at least 3 s; this one lasts 2 s',
    'Instagram accepts frame rates between 23 and 60 fps; this video has 15 fps',
  ]);
  assert.deepEqual(checkMedia(pdf({ pages: 301, bytes: 120_000_000 }), DRAFT_RULES.linkedin).map((v) => v.message), [
    'LinkedIn accepts documents up to 100 MiB; this one is 120 MB (120,000,000 bytes)',
    'LinkedIn accepts documents of up to 300 pages; this one has 301',
  ]);
  assert.deepEqual(checkMedia(image(), DRAFT_RULES.youtube).map((v) => v.message), ['YouTube does not accept images']);
  assert.deepEqual(checkMedia(image({ format: 'gif', frames: 12 }), DRAFT_RULES.threads).map((v) => v.message), [
    'Threads accepts JPEG or PNG images; this one is GIF',
    'Threads does not accept animated images; this one has 12 frames',
  ]);
  assert.deepEqual(checkMedia(image({ format: 'gif', frames: 400, bytes: 16 * 1024 * 1024, width: 1400, height: 1000 }), DRAFT_RULES.twitter).map((v) => v.message), [
    'X accepts animations of up to 350 frames; this one has 400',
    'X accepts animated images up to 15 MiB; this one is 16.8 MB (16,777,216 bytes)',
    'X accepts images at most 1280 px wide; this one is 1400×1000',
  ]);
});

test('a 12-megapixel phone JPEG of 3 MB on every platform (fit auto)', () => {
  assert.deepEqual(table(image(), 'auto'), {
    twitter: 'as_is',
    facebook: 'as_is',
    instagram: 'as_is', // within 8 MB and 4:5–1.91:1; Instagram scales it itself
    threads: 'as_is',
    tiktok: 'jpeg 1662x1247 scale', // "≤ 1080p": downscaled under 1920×1080 pixels
    linkedin: 'as_is',
    youtube: 'reject:kind',
    pinterest: 'as_is',
    bluesky: 'jpeg 2000x1500 scale', // over 2,000,000 bytes
    mastodon: 'as_is',
  });
});

test('a 9.5 MB PNG with transparency (fit auto)', () => {
  const png = image({ format: 'png', contentType: 'image/png', bytes: 9_500_000, width: 3000, height: 2000, hasAlpha: true });
  assert.deepEqual(table(png, 'auto'), {
    twitter: 'png 3000x2000 scale', // transparency kept as PNG; renditions shrink it if PNG alone cannot fit
    facebook: 'png 3000x2000 scale',
    instagram: 'jpeg 1440x960 scale', // JPEG only: flattened on white, longest side 1440
    threads: 'png 1440x960 scale',
    tiktok: 'jpeg 1763x1175 scale',
    linkedin: 'png 3000x2000 scale',
    youtube: 'reject:kind',
    pinterest: 'as_is',
    bluesky: 'png 2000x1333 scale',
    mastodon: 'as_is',
  });
});

test('a 1:3 image: rejected with auto and none, cropped or padded to the nearest allowed ratio on request', () => {
  const tall = image({ width: 1000, height: 3000, bytes: 1_000_000 });
  assert.deepEqual(table(tall, 'auto'), {
    twitter: 'as_is', facebook: 'as_is', instagram: 'reject:aspect_ratio', threads: 'as_is', tiktok: 'jpeg 640x1920 scale',
    linkedin: 'as_is', youtube: 'reject:kind', pinterest: 'as_is', bluesky: 'as_is', mastodon: 'as_is',
  });
  assert.equal(brief(planFit(tall, DRAFT_RULES.instagram, 'none')), 'reject:aspect_ratio');
  assert.equal(brief(planFit(tall, DRAFT_RULES.instagram, 'crop')), 'jpeg 1000x1250 crop');
  assert.equal(brief(planFit(tall, DRAFT_RULES.instagram, 'pad')), 'jpeg 1152x1440 pad');
  // Too wide: to 1.91:1, the nearest bound.
  const wide = image({ width: 4000, height: 1000, bytes: 1_000_000 });
  const crop = planFit(wide, DRAFT_RULES.instagram, 'crop');
  const pad = planFit(wide, DRAFT_RULES.instagram, 'pad');
  assert.equal(brief(crop), 'jpeg 1440x754 crop');
  assert.equal(brief(pad), 'jpeg 1440x754 pad');
  for (const plan of [crop, pad]) {
    assert.ok(plan.action === 'rendition' && inRange(plan.spec.width, plan.spec.height, DRAFT_RULES.instagram.image!.aspectRatio!));
  }
  // 'none' turns fitting off: a PNG for Instagram is rejected rather than converted.
  assert.equal(brief(planFit(image({ format: 'png' }), DRAFT_RULES.instagram, 'none')), 'reject:format');
  // crop and pad do nothing to a ratio already allowed.
  assert.equal(brief(planFit(image(), DRAFT_RULES.instagram, 'crop')), 'as_is');
});

test('crop and pad land within a pixel of the bound ratio for many sizes', () => {
  const rules: MediaRules = DRAFT_RULES.instagram;
  const range = rules.image!.aspectRatio!;
  for (let w = 50; w < 5000; w += 373) {
    for (let h = 50; h < 5000; h += 419) {
      for (const fit of ['crop', 'pad'] as const) {
        const plan = planFit(image({ width: w, height: h, bytes: 100_000 }), rules, fit);
        if (plan.action !== 'rendition') continue;
        const { width, height } = plan.spec;
        assert.ok(inRange(width, height, range), `${w}×${h} ${fit} → ${width}×${height}`);
        assert.ok(Math.max(width, height) <= 1440, `${w}×${h} ${fit} → ${width}×${height}`);
        if (plan.spec.mode !== 'scale') {
          const bound = w / h < 0.8 ? 0.8 : 1.91;
          // One side is a whole pixel count off the exact ratio by less than one pixel.
          assert.ok(Math.abs(width - height * bound) < 1 || Math.abs(height - width / bound) < 1, `${w}×${h} ${fit} → ${width}×${height} vs ${bound}`);
        }
      }
    }
  }
});

test('what fitting never does: flatten animations, decode HEIC here, upscale, or touch videos and documents', () => {
  assert.equal(brief(planFit(image({ format: 'gif', frames: 8 }), DRAFT_RULES.instagram, 'auto')), 'reject:animation');
  const heic = planFit(image({ format: 'heic', contentType: 'image/heic' }), DRAFT_RULES.instagram, 'auto');
  assert.equal(brief(heic), 'reject:format,rendition');
  assert.equal(brief(planFit(image({ format: 'heic', contentType: 'image/heic' }), DRAFT_RULES.instagram, 'auto', { decodable: ['heic', 'jpeg'] })), 'as_is'.replace('as_is', 'jpeg 1440x1080 scale'));
  assert.equal(brief(planFit(image({ format: 'heic', contentType: 'image/heic' }), DRAFT_RULES.mastodon, 'auto')), 'as_is');
  // Cropping a 400×4000 strip to 4:5 leaves 400×500; fine. Cropping to a minimum width that is not met is refused.
  const small: MediaRules = { platform: 'Test', image: { formats: ['jpeg'], minWidth: 500, aspectRatio: { min: { width: 1, height: 1 }, max: { width: 1, height: 1 } } } };
  assert.equal(brief(planFit(image({ width: 400, height: 4000 }), small, 'crop')), 'reject:width');
  assert.equal(brief(planFit(video({ bytes: 600 * 1024 * 1024, height: 2400 }), DRAFT_RULES.twitter, 'auto')), 'reject:bytes,height');
  assert.equal(brief(planFit(pdf({ pages: 400 }), DRAFT_RULES.linkedin, 'auto')), 'reject:pages');
  assert.equal(brief(planFit(pdf(), DRAFT_RULES.instagram, 'auto')), 'reject:kind');
});

test('a portrait phone video (1080×1920, 30 s, H.264/AAC, 30 fps, 40 MB) on every platform', () => {
  assert.deepEqual(table(video(), 'auto'), {
    twitter: 'as_is', // within X's current 1920-pixel sides (platforms.md's 1280×1024 is the v1.1 limit)
    facebook: 'as_is', instagram: 'as_is', threads: 'as_is', tiktok: 'as_is', linkedin: 'as_is', youtube: 'as_is',
    pinterest: 'as_is', bluesky: 'as_is', mastodon: 'as_is',
  });
  const hevcMov = video({ container: 'quicktime', contentType: 'video/quicktime', videoCodec: 'hevc', width: 3840, height: 2160, durationMs: 12 * 60_000, frameRate: 59.94, bytes: 900_000_000 });
  assert.deepEqual(table(hevcMov, 'auto'), {
    twitter: 'reject:bytes,duration,width,height,video_codec',
    facebook: 'as_is',
    instagram: 'reject:bytes,width',
    threads: 'reject:duration,width',
    tiktok: 'reject:duration',
    linkedin: 'reject:format,bytes',
    youtube: 'reject:bytes', // over the 512 MiB Herald holds in memory to upload (YouTube itself takes 256 GB)
    pinterest: 'reject:bytes', // likewise (Pinterest itself takes 2 GB)
    bluesky: 'reject:format,bytes',
    mastodon: 'reject:bytes', // 3840×2160 is exactly its 8,294,400-pixel limit
  });
});

test('a silent video passes audio codec rules; an unknown frame rate skips frame-rate rules', () => {
  assert.deepEqual(checkMedia(video({ audioCodec: null, frameRate: null }), DRAFT_RULES.instagram), []);
});
