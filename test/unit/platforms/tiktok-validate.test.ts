// Create-time rules for TikTok targets (API.md section 5).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateTikTok } from '../../../src/platforms/tiktok/validate.ts';
import type { MediaItem, TargetContent } from '../../../src/platforms/types.ts';

const vid = (n = 0): MediaItem => ({ type: 'video', url: `https://cdn.example/v${n}.mp4` });
const img = (n = 0, ext = 'jpg'): MediaItem => ({ type: 'image', url: `https://cdn.example/p${n}.${ext}` });
const target = (media: MediaItem[], settings: Record<string, unknown> = { privacyLevel: 'PUBLIC_TO_EVERYONE' }, content = 'caption'): TargetContent => ({ content, media, settings });
const fields = (t: TargetContent, meta: Record<string, unknown> = {}) => validateTikTok(t, { meta }).map((v) => v.field);

test('one video, or 1 to 35 images, pass', () => {
  assert.deepEqual(fields(target([vid()])), []);
  assert.deepEqual(fields(target([img()])), []);
  assert.deepEqual(fields(target(Array.from({ length: 35 }, (_, i) => img(i)))), []);
});

test('media is required', () => {
  const v = validateTikTok(target([]), { meta: {} });
  assert.deepEqual(v.map((x) => x.field), ['media']);
  assert.match(v[0]!.message, /video or 1–35 images/);
});

test('no mixing, one video at most, 35 images at most', () => {
  assert.deepEqual(fields(target([vid(), img()])), ['media']);
  assert.deepEqual(fields(target([vid(1), vid(2)])), ['media']);
  assert.deepEqual(fields(target(Array.from({ length: 36 }, (_, i) => img(i)))), ['media']);
});

test('privacyLevel is required and must be one of the four levels', () => {
  assert.deepEqual(fields(target([vid()], {})), ['settings.privacyLevel']);
  assert.deepEqual(fields(target([vid()], { privacyLevel: 'FRIENDS' })), ['settings.privacyLevel']);
  for (const level of ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY']) {
    assert.deepEqual(fields(target([vid()], { privacyLevel: level })), []);
  }
});

test('when the account\'s creator options are known, the level must be among them', () => {
  const meta = { privacyLevelOptions: ['MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'] };
  const v = validateTikTok(target([vid()], { privacyLevel: 'PUBLIC_TO_EVERYONE' }), { meta });
  assert.deepEqual(v.map((x) => x.field), ['settings.privacyLevel']);
  assert.match(v[0]!.message, /allows only MUTUAL_FOLLOW_FRIENDS, FOLLOWER_OF_CREATOR, SELF_ONLY/);
  assert.deepEqual(fields(target([vid()], { privacyLevel: 'SELF_ONLY' }), meta), []);
  // Unknown options (meta empty) do not block.
  assert.deepEqual(fields(target([vid()], { privacyLevel: 'PUBLIC_TO_EVERYONE' }), { privacyLevelOptions: [] }), []);
});

test('branded content cannot be private', () => {
  assert.deepEqual(fields(target([vid()], { privacyLevel: 'SELF_ONLY', brandContentToggle: true })), ['settings.brandContentToggle']);
  assert.deepEqual(fields(target([vid()], { privacyLevel: 'PUBLIC_TO_EVERYONE', brandContentToggle: true })), []);
});

test('title ≤ 90; video caption ≤ 2200; photo description ≤ 4000 (UTF-16 units)', () => {
  assert.deepEqual(fields(target([img()], { privacyLevel: 'SELF_ONLY', title: 't'.repeat(91) })), ['settings.title']);
  assert.deepEqual(fields(target([img()], { privacyLevel: 'SELF_ONLY', title: 't'.repeat(90) })), []);
  assert.deepEqual(fields(target([vid()], undefined, 'x'.repeat(2200))), []);
  assert.deepEqual(fields(target([vid()], undefined, 'x'.repeat(2201))), ['content']);
  assert.deepEqual(fields(target([img()], undefined, 'x'.repeat(4000))), []);
  assert.deepEqual(fields(target([img()], undefined, 'x'.repeat(4001))), ['content']);
  // An emoji is two UTF-16 units.
  assert.deepEqual(fields(target([vid()], undefined, '😀'.repeat(1101))), ['content']);
});

test('PNG photos are refused, naming the item', () => {
  const v = validateTikTok(target([img(0), img(1, 'PNG'), { type: 'image', url: 'https://cdn.example/p.webp?x=.png' }]), { meta: {} });
  assert.deepEqual(v.map((x) => x.field), ['media[1]']);
});

test('several problems are all reported', () => {
  assert.deepEqual(fields(target([], { title: 'x'.repeat(100) })), ['media', 'settings.privacyLevel', 'settings.title']);
});
