// Create-time rules for a mastodon target, against the instance's limits kept on the account's meta.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateMastodon } from '../../../src/platforms/mastodon/validate.ts';
import { validateEdit } from '../../../src/platforms/mastodon/edit.ts';
import { limitsFromInstance, limitsOf } from '../../../src/platforms/mastodon/limits.ts';
import type { MediaItem, TargetContent } from '../../../src/platforms/types.ts';

const img = (n = 0): MediaItem => ({ type: 'image', url: `https://cdn.example/${n}.jpg` });
const vid: MediaItem = { type: 'video', url: 'https://cdn.example/v.mp4' };
const target = (content: string, media: MediaItem[] = [], settings: Record<string, unknown> = {}): TargetContent => ({ content, media, settings });
const meta = { domain: 'social.example', limits: { maxCharacters: 500, maxMediaAttachments: 4, charactersReservedPerUrl: 23 } };
const fields = (v: { field: string }[]) => v.map((x) => x.field);

test('text within the limit passes; over it names the count, the limit and the instance', () => {
  assert.deepEqual(validateMastodon(target('a'.repeat(500)), { meta }), []);
  const [v] = validateMastodon(target('a'.repeat(501)), { meta });
  assert.equal(v!.field, 'content');
  assert.match(v!.message, /Mastodon \(social\.example\) counts 501 characters here; its limit is 500 \(each link counts 23\)/);
});

test('links count 23 however long; the content warning counts too', () => {
  const long = `https://example.com/${'p'.repeat(300)}`;
  assert.deepEqual(validateMastodon(target(`${'a'.repeat(476)} ${long}`), { meta }), []);
  const [v] = validateMastodon(target('a'.repeat(490), [], { spoilerText: 'twelve chars' }), { meta });
  assert.match(v!.message, /counts 502 characters here, content warning included/);
});

test('the instance\'s own limit is used; without one in the meta, 500 and 23', () => {
  const big = { ...meta, limits: { ...meta.limits, maxCharacters: 5000, charactersReservedPerUrl: 30 } };
  assert.deepEqual(validateMastodon(target('a'.repeat(4000)), { meta: big }), []);
  assert.equal(validateMastodon(target('a'.repeat(501)), { meta: {} }).length, 1);
  assert.match(validateMastodon(target('a'.repeat(501)), { meta: {} })[0]!.message, /Mastodon \(the instance\).*limit is 500 \(each link counts 23\)/);
  assert.deepEqual(limitsOf({ limits: { maxCharacters: 'lots' } }).maxCharacters, 500);
});

test('at most the instance\'s attachments; a video goes alone; no documents', () => {
  assert.deepEqual(validateMastodon(target('x', [img(1), img(2), img(3), img(4)]), { meta }), []);
  assert.match(validateMastodon(target('x', [img(1), img(2), img(3), img(4), img(5)]), { meta })[0]!.message, /at most 4 attachments per post; this one has 5/);
  assert.match(validateMastodon(target('x', [vid, img()]), { meta })[0]!.message, /takes a video alone/);
  assert.deepEqual(validateMastodon(target('', [vid]), { meta }), []);
  assert.deepEqual(fields(validateMastodon(target('x', [{ type: 'document', url: 'https://cdn.example/a.pdf' }]), { meta })), ['media[0]']);
});

test('alt text over the instance\'s description limit is named on the item', () => {
  const m = { ...meta, limits: { ...meta.limits, descriptionLimit: 10 } };
  assert.deepEqual(fields(validateMastodon(target('x', [{ ...img(), altText: 'far too long a description' }]), { meta: m })), ['media[0].altText']);
});

test('thread items and the first comment follow the same rules, each at its own field', () => {
  const v = validateMastodon(
    target('head', [], { threadItems: [{ content: 'ok' }, { content: 'a'.repeat(501) }, { content: '', mediaItems: [] }], firstComment: 'b'.repeat(501) }),
    { meta },
  );
  assert.deepEqual(fields(v), ['settings.threadItems[1].content', 'settings.threadItems[2].content', 'settings.firstComment']);
});

test('a post needs text or media', () => {
  assert.deepEqual(fields(validateMastodon(target('   '), { meta })), ['content']);
});

test('edits: the instance\'s limit on the new text', () => {
  assert.deepEqual(validateEdit('fine', { meta }), []);
  assert.match(validateEdit('a'.repeat(501), { meta })[0]!.message, /limit is 500/);
});

test('limits are read from /api/v2/instance, defaults where it says nothing', () => {
  const limits = limitsFromInstance({
    configuration: {
      statuses: { max_characters: 1000, max_media_attachments: 6, characters_reserved_per_url: 23 },
      media_attachments: { image_size_limit: 10, video_size_limit: 20, description_limit: 30, supported_mime_types: ['image/png'] },
    },
  });
  assert.deepEqual(limits, {
    maxCharacters: 1000,
    maxMediaAttachments: 6,
    charactersReservedPerUrl: 23,
    imageSizeLimit: 10,
    videoSizeLimit: 20,
    descriptionLimit: 30,
    supportedMimeTypes: ['image/png'],
  });
  assert.equal(limitsFromInstance({}).maxCharacters, 500);
  assert.equal(limitsFromInstance({ configuration: { statuses: { characters_reserved_per_url: 0 } } }).charactersReservedPerUrl, 0);
});
