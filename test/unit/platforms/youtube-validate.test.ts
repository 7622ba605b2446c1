// YouTube's create-time rules (API.md section 11): exactly one video, a title, madeForKids, the description
// in bytes; each message states the limit and the value.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MediaItem } from '../../../src/platforms/types.ts';
import { charCount, tagsLength, utf8Bytes, validateYouTube } from '../../../src/platforms/youtube/validate.ts';

const VIDEO: MediaItem = { type: 'video', url: 'https://cdn.example.com/v.mp4' };
const IMAGE: MediaItem = { type: 'image', url: 'https://cdn.example.com/i.jpg' };
const OK = { title: 'A title', madeForKids: false };

function check(content: string, media: MediaItem[], settings: Record<string, unknown>) {
  return validateYouTube({ content, media, settings }, { meta: {} });
}

test('a valid target has no violations', () => {
  assert.deepEqual(check('', [VIDEO], OK), []);
  assert.deepEqual(check('é'.repeat(2500), [VIDEO], { ...OK, title: '🎬'.repeat(100), tags: ['a b', 'c'], thumbnail: IMAGE, firstComment: 'hi' }), []);
});

test('exactly one video', () => {
  assert.deepEqual(check('text', [], OK), [{ field: 'media', message: 'YouTube posts carry exactly one video; this target has 0 media items' }]);
  assert.deepEqual(check('text', [VIDEO, VIDEO], OK)[0]!.field, 'media');
  assert.deepEqual(check('text', [IMAGE], OK), [{ field: 'media[0].type', message: 'YouTube posts carry exactly one video; media[0] is an image' }]);
});

test('the title: required, at most 100 characters, no < or >', () => {
  assert.equal(check('', [VIDEO], { madeForKids: false })[0]!.field, 'settings.title');
  assert.equal(check('', [VIDEO], { ...OK, title: '   ' })[0]!.field, 'settings.title');
  assert.deepEqual(check('', [VIDEO], { ...OK, title: 'x'.repeat(101) }), [{ field: 'settings.title', message: 'the title is 101 characters; YouTube allows at most 100' }]);
  assert.deepEqual(check('', [VIDEO], { ...OK, title: 'a <b>' }), [{ field: 'settings.title', message: 'YouTube titles cannot contain < or >' }]);
});

test('madeForKids is required, as a boolean', () => {
  assert.equal(check('', [VIDEO], { title: 'T' })[0]!.field, 'settings.madeForKids');
  assert.equal(check('', [VIDEO], { title: 'T', madeForKids: 'no' })[0]!.field, 'settings.madeForKids');
  assert.deepEqual(check('', [VIDEO], { title: 'T', madeForKids: true }), []);
});

test('the description (the content): at most 5,000 bytes of UTF-8, no < or >', () => {
  assert.deepEqual(check('é'.repeat(2501), [VIDEO], OK), [{ field: 'content', message: 'the description (the content) is 5002 bytes of UTF-8; YouTube allows at most 5000 bytes' }]);
  assert.deepEqual(check('x'.repeat(5000), [VIDEO], OK), []);
  assert.deepEqual(check('I <3 this', [VIDEO], OK), [{ field: 'content', message: 'YouTube descriptions cannot contain < or >' }]);
});

test('tags, thumbnail and first comment', () => {
  assert.match(check('', [VIDEO], { ...OK, tags: ['x'.repeat(300), 'y'.repeat(200)] })[0]!.message, /501 characters.*at most 500/);
  assert.deepEqual(check('', [VIDEO], { ...OK, thumbnail: VIDEO })[0]!.field, 'settings.thumbnail.type');
  assert.match(check('', [VIDEO], { ...OK, firstComment: 'x'.repeat(10_001) })[0]!.message, /10001 characters; YouTube allows at most 10000/);
  assert.deepEqual(check('', [VIDEO], { title: 'T', madeForKids: true, firstComment: 'hi' }), [
    { field: 'settings.firstComment', message: 'videos made for kids have comments disabled on YouTube, so a first comment cannot be posted' },
  ]);
});

test('counting as YouTube counts', () => {
  assert.equal(charCount('🎬a'), 2);
  assert.equal(utf8Bytes('é'), 2);
  assert.equal(tagsLength([]), 0);
  assert.equal(tagsLength(['ab', 'c d']), 2 + 1 + 3 + 2);
});
