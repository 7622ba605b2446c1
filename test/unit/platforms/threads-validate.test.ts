import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countLinks, threadsTextLength, topicTagProblem, validateThreads } from '../../../src/platforms/threads/validate.ts';
import type { MediaItem, TargetContent } from '../../../src/platforms/types.ts';

const img: MediaItem = { type: 'image', url: 'https://cdn.example.com/a.jpg' };
const vid: MediaItem = { type: 'video', url: 'https://cdn.example.com/a.mp4' };
const account = { meta: {} };

function check(target: Partial<TargetContent>) {
  return validateThreads({ content: '', media: [], settings: {}, ...target }, account);
}

test('emoji count as their UTF-8 bytes, other text by character', () => {
  assert.equal(threadsTextLength('hello'), 5);
  assert.equal(threadsTextLength('😀'), 4); // U+1F600: four bytes in UTF-8
  assert.equal(threadsTextLength('🇫🇷'), 8); // a flag is two regional indicators
  assert.equal(threadsTextLength('👨‍👩‍👧'), 18); // three pictographs joined by two ZWJs
  assert.equal(threadsTextLength('1️⃣'), 7); // keycap: digit, VS16, combining keycap
  assert.equal(threadsTextLength('漢字'), 2); // three bytes each in UTF-8, but not emoji
  assert.equal(threadsTextLength('héllo'), 5);
});

test('text is limited to 500 as Threads counts it', () => {
  assert.deepEqual(check({ content: 'a'.repeat(500) }), []);
  const long = check({ content: 'a'.repeat(501) });
  assert.equal(long.length, 1);
  assert.equal(long[0]!.field, 'content');
  assert.match(long[0]!.message, /501/);
  // 125 emoji are 500 bytes: allowed; one more letter is not.
  assert.deepEqual(check({ content: '😀'.repeat(125) }), []);
  assert.equal(check({ content: `${'😀'.repeat(125)}a` })[0]?.field, 'content');
  // 500 CJK characters fit although they are 1,500 UTF-8 bytes.
  assert.deepEqual(check({ content: '漢'.repeat(500) }), []);
});

test('a post needs text or media; media alone is fine', () => {
  assert.deepEqual(check({ content: '   ' }).map((v) => v.field), ['content']);
  assert.deepEqual(check({ media: [img] }), []);
  assert.deepEqual(check({ media: [vid] }), []);
});

test('carousels hold up to 20 images and videos, mixed', () => {
  assert.deepEqual(check({ media: [img, vid] }), []);
  assert.deepEqual(check({ content: 'x', media: Array.from({ length: 20 }, (_, i) => (i % 2 ? img : vid)) }), []);
  const tooMany = check({ content: 'x', media: Array.from({ length: 21 }, () => img) });
  assert.deepEqual(tooMany.map((v) => v.field), ['media']);
  assert.match(tooMany[0]!.message, /20/);
});

test('each thread item is checked on its own, with its own field', () => {
  const violations = check({
    content: 'first',
    settings: {
      threadItems: [
        { content: 'fine', mediaItems: [img] },
        { content: 'b'.repeat(501) },
        { content: '' },
        { content: 'x', mediaItems: Array.from({ length: 21 }, () => vid) },
      ],
    },
  });
  assert.deepEqual(violations.map((v) => v.field), [
    'settings.threadItems[1].content',
    'settings.threadItems[2].content',
    'settings.threadItems[3].mediaItems',
  ]);
});

test('more than five distinct links are refused', () => {
  const six = Array.from({ length: 6 }, (_, i) => `https://site${i}.example.com/p`).join(' ');
  assert.equal(countLinks(six), 6);
  assert.deepEqual(check({ content: six }).map((v) => v.field), ['content']);
  // The same link repeated counts once; www. links count; trailing punctuation is not part of a link.
  assert.equal(countLinks('https://a.example.com, https://a.example.com. www.b.example.com and http://www.b.example.com'), 2);
  assert.deepEqual(check({ content: Array.from({ length: 8 }, () => 'https://same.example.com').join(' ') }), []);
});

test('topic tags may not contain periods or ampersands', () => {
  assert.equal(topicTagProblem('Technology'), undefined);
  assert.ok(topicTagProblem('web3.0'));
  assert.ok(topicTagProblem('R&D'));
  assert.deepEqual(check({ content: 'x', settings: { topicTag: 'R&D' } }).map((v) => v.field), ['settings.topicTag']);
  assert.deepEqual(check({ content: 'x', settings: { topicTag: 'Books', replyControl: 'mentioned_only' } }), []);
});

test('a first comment is held to the text rules of a post', () => {
  assert.deepEqual(check({ content: 'root', settings: { firstComment: 'a reply' } }), []);
  const long = check({ content: 'root', settings: { firstComment: '😀'.repeat(126) } });
  assert.deepEqual(long.map((v) => v.field), ['settings.firstComment']);
  assert.match(long[0]!.message, /504/);
  const links = check({ content: 'root', settings: { firstComment: [1, 2, 3, 4, 5, 6].map((i) => `https://l${i}.example.com`).join(' ') } });
  assert.deepEqual(links.map((v) => v.field), ['settings.firstComment']);
});
