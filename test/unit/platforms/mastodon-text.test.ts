// How Mastodon counts a status: graphemes of content warning + text, links at the instance's URL weight,
// remote mentions without their domain.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countableText, graphemeLength, linkRanges, statusLength } from '../../../src/platforms/mastodon/text.ts';

test('graphemes, not UTF-16 units or code points', () => {
  assert.equal(graphemeLength('👨‍👩‍👧'), 1);
  assert.equal(graphemeLength('e\u0301'), 1);
  assert.equal(graphemeLength('🇫🇷 ok'), 4);
  assert.equal(statusLength('a'.repeat(500), '', 23), 500);
});

test('a link counts the instance\'s URL weight, whatever its length; trailing punctuation stays text', () => {
  const long = `https://example.com/${'a'.repeat(200)}?q=1`;
  assert.equal(countableText(`see ${long}.`, 23), `see ${'x'.repeat(23)}.`);
  assert.equal(statusLength(`see ${long}.`, '', 23), 4 + 23 + 1);
  assert.equal(statusLength(`see ${long}`, '', 40), 4 + 40);
  assert.equal(countableText('a https://a.com,https://b.org! b', 23), `a ${'x'.repeat(23)},${'x'.repeat(23)}! b`);
});

test('a parenthesis closes the link only when the link opened one', () => {
  assert.equal(countableText('(https://en.wikipedia.org/wiki/Foo_(bar))', 3), '(xxx)');
  assert.equal(countableText('(see https://example.org)', 3), '(see xxx)');
});

test('Mastodon\'s other schemes are links; hosts without a top-level label and schemeless names are text', () => {
  assert.equal(countableText('gemini://gemini.circumlunar.space/docs', 5), 'xxxxx');
  assert.equal(countableText('http://localhost:3000/x https://127.0.0.1/x example.com', 5), 'http://localhost:3000/x https://127.0.0.1/x example.com');
  assert.equal(countableText('glued.https://a.com', 5), 'glued.https://a.com');
  assert.deepEqual(linkRanges('x https://a.io y'), [[2, 14]]);
});

test('a remote mention counts as @user; a local one and an e-mail address as written', () => {
  assert.equal(countableText('hi @alice@mastodon.social and @bob', 23), 'hi @alice and @bob');
  assert.equal(countableText('mail me@example.com', 23), 'mail me@example.com');
  assert.equal(statusLength('@someone@a-very-long-instance-name.example hi', '', 23), '@someone hi'.length);
});

test('the content warning counts with the text', () => {
  assert.equal(statusLength('body', 'CW: spoilers', 23), 16);
  assert.equal(statusLength('', 'only a warning', 23), 14);
});
