// Little text: what Herald sends is what members see, whatever the text (the emulator reads it as
// LinkedIn does: an unescaped reserved character cuts the published text).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { escapeLittleText } from '../../../src/platforms/linkedin/little-text.ts';
import { renderLittleText } from '../../../src/sandbox/linkedin/little-text.ts';

test('every reserved character is escaped', () => {
  assert.equal(escapeLittleText('a (b) [c] {d} <e> @f *g* _h_ ~i~ |j| \\k'), 'a \\(b\\) \\[c\\] \\{d\\} \\<e\\> \\@f \\*g\\* \\_h\\_ \\~i\\~ \\|j\\| \\\\k');
});

test('a hashtag stays a hashtag; a # that starts none is escaped', () => {
  assert.equal(escapeLittleText('#launch day'), '#launch day');
  assert.equal(escapeLittleText('go #Día2 now'), 'go #Día2 now');
  assert.equal(escapeLittleText('issue # 5, C#9, ##'), 'issue \\# 5, C\\#9, \\#\\#');
  assert.deepEqual(renderLittleText(escapeLittleText('ship #it')).hashtags, ['it']);
});

test('unescaped reserved characters cut the published text, as LinkedIn does', () => {
  assert.deepEqual(renderLittleText('This is a test. (This is also a test.)'), { text: 'This is a test. ', truncated: true, hashtags: [], mentions: [] });
  assert.equal(renderLittleText('ends with \\').truncated, true);
  assert.equal(renderLittleText('a_b').text, 'a');
});

test('mentions and hashtag templates render as LinkedIn shows them', () => {
  const r = renderLittleText('Hello @[Acme Corp](urn:li:organization:1234) {hashtag|\\#|Tech}');
  assert.equal(r.text, 'Hello Acme Corp #Tech');
  assert.deepEqual(r.mentions, ['urn:li:organization:1234']);
  assert.deepEqual(r.hashtags, ['Tech']);
});

test('property: any text survives escaping unchanged and uncut', () => {
  const reserved = fc.constantFrom('\\', '|', '{', '}', '@', '[', ']', '(', ')', '<', '>', '#', '*', '_', '~', ' ', 'a', 'é', '😀', '\n');
  fc.assert(
    fc.property(fc.oneof(fc.string({ unit: 'grapheme' }), fc.array(reserved).map((a) => a.join(''))), (text) => {
      const shown = renderLittleText(escapeLittleText(text));
      assert.equal(shown.truncated, false);
      assert.equal(shown.text, text);
    }),
    { numRuns: 500 },
  );
});
