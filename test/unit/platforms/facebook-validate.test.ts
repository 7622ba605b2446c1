import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateFacebook } from '../../../src/platforms/facebook/validate.ts';
import type { MediaItem } from '../../../src/platforms/types.ts';

const img = (n = 1): MediaItem[] => Array.from({ length: n }, (_, i) => ({ type: 'image', url: `https://cdn.example.com/${i}.jpg` }));
const vid = (n = 1): MediaItem[] => Array.from({ length: n }, (_, i) => ({ type: 'video', url: `https://cdn.example.com/${i}.mp4` }));
const fields = (content: string, media: MediaItem[], settings: Record<string, unknown> = {}) =>
  validateFacebook({ content, media, settings }).map((v) => v.field);

test('text, one photo, ten photos and one video are fine', () => {
  assert.deepEqual(fields('hello', []), []);
  assert.deepEqual(fields('', img(1)), []);
  assert.deepEqual(fields('album', img(10)), []);
  assert.deepEqual(fields('clip', vid(1)), []);
  assert.deepEqual(fields('see this', [], { link: 'https://example.com/a' }), []);
});

test('text over 63,206 characters is refused; exactly the limit passes', () => {
  assert.deepEqual(fields('a'.repeat(63_206), []), []);
  assert.deepEqual(fields('a'.repeat(63_207), []), ['content']);
});

test('characters are counted as code points, so emoji count once', () => {
  assert.deepEqual(fields('😀'.repeat(63_206), []), []);
});

test('more than 10 images, two videos, or images with a video are refused', () => {
  assert.deepEqual(fields('x', img(11)), ['media']);
  assert.deepEqual(fields('x', vid(2)), ['media']);
  assert.deepEqual(fields('x', [...img(1), ...vid(1)]), ['media']);
});

test('an empty post is refused', () => {
  assert.deepEqual(fields('   ', []), ['content']);
});

test('a reel needs exactly one video', () => {
  assert.deepEqual(fields('r', vid(1), { contentType: 'reel' }), []);
  assert.deepEqual(fields('r', img(1), { contentType: 'reel' }), ['media']);
  assert.deepEqual(fields('r', [], { contentType: 'reel' }), ['media']);
  assert.deepEqual(fields('r', vid(2), { contentType: 'reel' }), ['media']);
});

test('a story needs exactly one image or video', () => {
  assert.deepEqual(fields('', img(1), { contentType: 'story' }), []);
  assert.deepEqual(fields('', vid(1), { contentType: 'story' }), []);
  assert.deepEqual(fields('', img(2), { contentType: 'story' }), ['media']);
  assert.deepEqual(fields('', [], { contentType: 'story' }), ['media']);
});

test('a link goes only on feed posts without media', () => {
  assert.deepEqual(fields('x', img(1), { link: 'https://example.com' }), ['settings.link']);
  assert.deepEqual(fields('x', vid(1), { contentType: 'reel', link: 'https://example.com' }), ['settings.link']);
  assert.deepEqual(fields('x', [], { link: 'ftp://example.com' }), ['settings.link']);
});

test('an unknown contentType is refused', () => {
  assert.deepEqual(fields('x', [], { contentType: 'carousel' }), ['settings.contentType']);
});

test('a first comment goes on feed posts and reels, not on stories', () => {
  assert.deepEqual(fields('with a comment', [], { firstComment: 'see below' }), []);
  assert.deepEqual(fields('reel', vid(1), { contentType: 'reel', firstComment: 'see below' }), []);
  assert.deepEqual(fields('', img(1), { contentType: 'story', firstComment: 'see below' }), ['settings.firstComment']);
});
