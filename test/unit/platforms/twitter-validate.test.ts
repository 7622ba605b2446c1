import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateTwitterTarget, weightedLength } from '../../../src/platforms/twitter/validate.ts';
import type { MediaItem, TargetContent } from '../../../src/platforms/types.ts';

const free = { meta: { subscriptionType: 'None' } };
const premium = { meta: { subscriptionType: 'Premium' } };
const img = (n: number): MediaItem => ({ type: 'image', url: `https://cdn.example.com/${n}.jpg` });
const vid: MediaItem = { type: 'video', url: 'https://cdn.example.com/v.mp4' };

function target(content: string, media: MediaItem[] = [], settings: Record<string, unknown> = {}): TargetContent {
  return { content, media, settings };
}

test('weighted length follows twitter-text: CJK and emoji count 2, any URL 23', () => {
  assert.equal(weightedLength('hello'), 5);
  assert.equal(weightedLength('日本語'), 6);
  assert.equal(weightedLength('👍'), 2);
  assert.equal(weightedLength('👨‍👩‍👧‍👦'), 2, 'a ZWJ family is one emoji');
  assert.equal(weightedLength(`see https://example.com/${'a'.repeat(200)}`), 4 + 23);
  assert.equal(weightedLength('e\u0301'), 1, 'NFC-normalised before counting');
});

test('280 weighted characters pass, 281 do not', () => {
  assert.deepEqual(validateTwitterTarget(target('a'.repeat(280)), free), []);
  const v = validateTwitterTarget(target('a'.repeat(281)), free);
  assert.equal(v.length, 1);
  assert.equal(v[0]!.field, 'content');
  assert.match(v[0]!.message, /281.*280/);
});

test('CJK and emoji hit the limit at half the characters', () => {
  assert.deepEqual(validateTwitterTarget(target('字'.repeat(140)), free), []);
  assert.equal(validateTwitterTarget(target('字'.repeat(141)), free).length, 1);
  assert.equal(validateTwitterTarget(target('🎉'.repeat(141)), free).length, 1);
});

test('a long URL counts as 23, so a post with one stays short', () => {
  const text = `${'x'.repeat(250)} https://example.com/${'p'.repeat(500)}`;
  assert.ok(text.length > 700);
  assert.deepEqual(validateTwitterTarget(target(text), free), []);
});

test('paid subscriptions allow long posts up to 25,000', () => {
  const long = 'word '.repeat(1000);
  assert.equal(validateTwitterTarget(target(long), free).length, 1);
  for (const subscriptionType of ['Premium', 'PremiumPlus', 'Basic']) {
    assert.deepEqual(validateTwitterTarget(target(long), { meta: { subscriptionType } }), [], subscriptionType);
  }
  assert.equal(validateTwitterTarget(target('a'.repeat(25_001)), premium).length, 1);
  assert.equal(validateTwitterTarget(target(long), { meta: {} }).length, 1, 'unknown subscription counts as none');
});

test('up to 4 images or 1 video, never both', () => {
  assert.deepEqual(validateTwitterTarget(target('hi', [img(1), img(2), img(3), img(4)]), free), []);
  assert.deepEqual(validateTwitterTarget(target('', [vid]), free), []);
  const five = validateTwitterTarget(target('hi', [1, 2, 3, 4, 5].map(img)), free);
  assert.deepEqual(five.map((v) => v.field), ['media']);
  assert.match(five[0]!.message, /4 images/);
  const mixed = validateTwitterTarget(target('hi', [img(1), vid]), free);
  assert.deepEqual(mixed.map((v) => v.field), ['media']);
  assert.match(mixed[0]!.message, /mix/);
  assert.match(validateTwitterTarget(target('hi', [vid, vid]), free)[0]!.message, /1 video/);
});

test('a post needs text or media', () => {
  assert.deepEqual(validateTwitterTarget(target('   '), free).map((v) => v.field), ['content']);
});

test('every thread item is checked with its own field path', () => {
  const settings = {
    threadItems: [
      { content: 'fine' },
      { content: 'b'.repeat(281) },
      { content: 'pics', mediaItems: [img(1), vid] },
      { content: '' },
      { content: '', mediaItems: [img(2)] },
    ],
  };
  const v = validateTwitterTarget(target('root', [], settings), free);
  assert.deepEqual(
    v.map((x) => x.field),
    ['settings.threadItems[1].content', 'settings.threadItems[2].mediaItems', 'settings.threadItems[3].content'],
  );
  assert.deepEqual(validateTwitterTarget(target('root', [], { threadItems: [{ content: 'b'.repeat(281) }] }), premium), []);
});
