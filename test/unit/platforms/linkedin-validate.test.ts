// Create-time rules for LinkedIn targets (API.md section 11).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateLinkedIn } from '../../../src/platforms/linkedin/validate.ts';
import type { MediaItem, TargetContent } from '../../../src/platforms/types.ts';

const img = (n = 0): MediaItem => ({ type: 'image', url: `https://cdn.example/p${n}.jpg` });
const vid = (n = 0): MediaItem => ({ type: 'video', url: `https://cdn.example/v${n}.mp4` });
const doc = (n = 0): MediaItem => ({ type: 'document', url: `https://cdn.example/d${n}.pdf` });
const target = (content: string, media: MediaItem[] = [], settings: Record<string, unknown> = {}): TargetContent => ({ content, media, settings });
const member = { meta: { kind: 'member', memberUrn: 'urn:li:person:abc' } };
const page = { meta: { kind: 'organization', memberUrn: 'urn:li:person:abc', role: 'ADMINISTRATOR' } };
const check = (t: TargetContent, account = member) => validateLinkedIn(t, account);
const fields = (t: TargetContent, account = member) => check(t, account).map((v) => v.field);

test('text, 1 to 20 images, one video or one document pass', () => {
  assert.deepEqual(fields(target('hello')), []);
  assert.deepEqual(fields(target('', [img()])), []);
  assert.deepEqual(fields(target('', Array.from({ length: 20 }, (_, i) => img(i)))), []);
  assert.deepEqual(fields(target('clip', [vid()])), []);
  assert.deepEqual(fields(target('deck', [doc()], { documentTitle: 'Q3 deck' })), []);
});

test('text is at most 3,000 characters, and the message names the limit and the length', () => {
  assert.deepEqual(fields(target('x'.repeat(3000))), []);
  const [v] = check(target('x'.repeat(3412)));
  assert.equal(v?.field, 'content');
  assert.equal(v?.message, 'LinkedIn posts are at most 3,000 characters; this one has 3,412');
});

test('at most 20 images, one video, one document, never mixed', () => {
  assert.match(check(target('', Array.from({ length: 21 }, (_, i) => img(i))))[0]!.message, /at most 20 images; this one has 21/);
  assert.match(check(target('', [vid(1), vid(2)]))[0]!.message, /one video at most; this one has 2/);
  assert.match(check(target('', [doc(1), doc(2)]))[0]!.message, /one document at most; this one has 2/);
  assert.match(check(target('', [img(), vid()]))[0]!.message, /never a mix \(this one has image and video\)/);
  assert.deepEqual(fields(target('', [doc(), img()])), ['media']);
});

test('a post without media needs text', () => {
  assert.deepEqual(fields(target('   ')), ['content']);
});

test('CONNECTIONS is for members; a Page posts publicly', () => {
  assert.deepEqual(fields(target('hi', [], { visibility: 'CONNECTIONS' })), []);
  assert.deepEqual(fields(target('hi', [], { visibility: 'CONNECTIONS' }), page), ['settings.visibility']);
  assert.deepEqual(fields(target('hi', [], { visibility: 'PUBLIC' }), page), []);
  assert.deepEqual(fields(target('hi', [], { visibility: 'LOGGED_IN' })), ['settings.visibility']);
});

test('the first comment is at most 1,250 characters', () => {
  assert.deepEqual(fields(target('hi', [], { firstComment: 'c'.repeat(1250) })), []);
  const [v] = check(target('hi', [], { firstComment: 'c'.repeat(1300) }));
  assert.equal(v?.field, 'settings.firstComment');
  assert.match(v!.message, /at most 1,250 characters; this one has 1,300/);
});

test('documentTitle belongs to a document post', () => {
  assert.deepEqual(fields(target('hi', [img()], { documentTitle: 'x' })), ['settings.documentTitle']);
  assert.deepEqual(fields(target('hi', [doc()], { documentTitle: 't'.repeat(401) })), ['settings.documentTitle']);
});
