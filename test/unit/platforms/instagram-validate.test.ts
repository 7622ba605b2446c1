import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateInstagram } from '../../../src/platforms/instagram/validate.ts';
import type { MediaItem } from '../../../src/platforms/types.ts';

const img = (n = 1): MediaItem[] => Array.from({ length: n }, (_, i) => ({ type: 'image', url: `https://cdn.example.com/${i}.jpg` }));
const vid = (n = 1): MediaItem[] => Array.from({ length: n }, (_, i) => ({ type: 'video', url: `https://cdn.example.com/${i}.mp4` }));
const fields = (content: string, media: MediaItem[], settings: Record<string, unknown> = {}) =>
  validateInstagram({ content, media, settings }).map((v) => v.field);

test('an image, a video, and carousels of 2 to 10 mixed items are fine', () => {
  assert.deepEqual(fields('caption', img(1)), []);
  assert.deepEqual(fields('caption', vid(1)), []);
  assert.deepEqual(fields('caption', [...img(5), ...vid(5)]), []);
});

test('media is required', () => {
  assert.deepEqual(fields('text only', []), ['media']);
});

test('more than 10 items are refused', () => {
  assert.deepEqual(fields('x', img(11)), ['media']);
});

test('captions over 2,200 characters or with more than 30 hashtags are refused', () => {
  assert.deepEqual(fields('a'.repeat(2_200), img(1)), []);
  assert.deepEqual(fields('a'.repeat(2_201), img(1)), ['content']);
  const tags = (n: number) => Array.from({ length: n }, (_, i) => `#tag${i}`).join(' ');
  assert.deepEqual(fields(tags(30), img(1)), []);
  assert.deepEqual(fields(tags(31), img(1)), ['content']);
  assert.deepEqual(fields('#café #日本 #a_b', img(1)), [], 'unicode hashtags count as hashtags, not errors');
});

test('a reel needs exactly one video', () => {
  assert.deepEqual(fields('r', vid(1), { contentType: 'reel', shareToFeed: false }), []);
  assert.deepEqual(fields('r', img(1), { contentType: 'reel' }), ['media']);
  assert.deepEqual(fields('r', [...vid(1), ...img(1)], { contentType: 'reel' }), ['media']);
});

test('a story needs one item and takes no first comment or collaborators', () => {
  assert.deepEqual(fields('', img(1), { contentType: 'story' }), []);
  assert.deepEqual(fields('', vid(1), { contentType: 'story' }), []);
  assert.deepEqual(fields('', img(2), { contentType: 'story' }), ['media']);
  assert.deepEqual(fields('', img(1), { contentType: 'story', firstComment: 'hi', collaborators: ['a'] }), ['settings.firstComment', 'settings.collaborators']);
});

test('an unknown contentType is refused', () => {
  assert.deepEqual(fields('x', img(1), { contentType: 'igtv' }), ['settings.contentType']);
});
