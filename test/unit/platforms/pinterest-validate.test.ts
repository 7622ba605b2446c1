// Create-time rules for Pinterest targets (API.md §11): media shape, board, and Pinterest's lengths,
// each message stating the limit and the value.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { characters, mediaShape, validatePinterest } from '../../../src/platforms/pinterest/validate.ts';
import { PinterestSettingsSchema } from '../../../src/platforms/pinterest/settings.ts';
import { compileStrict } from '../../../src/contract/validation.ts';
import type { MediaItem, TargetContent } from '../../../src/platforms/types.ts';

const img = (n = 0, altText?: string): MediaItem => ({ type: 'image', url: `https://cdn.example/p${n}.jpg`, ...(altText !== undefined ? { altText } : {}) });
const vid = (n = 0): MediaItem => ({ type: 'video', url: `https://cdn.example/v${n}.mp4` });
const BOARD = { boardId: '1234567890' };
const target = (media: MediaItem[], settings: Record<string, unknown> = BOARD, content = 'A Pin description'): TargetContent => ({ content, media, settings });
const check = (t: TargetContent, meta: Record<string, unknown> = {}) => validatePinterest(t, { meta });
const fields = (t: TargetContent, meta: Record<string, unknown> = {}) => check(t, meta).map((v) => v.field);

test('one image, one video, or 2–5 images pass', () => {
  assert.deepEqual(fields(target([img()])), []);
  assert.deepEqual(fields(target([vid()])), []);
  for (const n of [2, 3, 4, 5]) assert.deepEqual(fields(target(Array.from({ length: n }, (_, i) => img(i)))), [], `${n} images`);
});

test('media is required; six images, two videos or a video with images are refused', () => {
  const none = check(target([]));
  assert.deepEqual(none.map((v) => v.field), ['media']);
  assert.match(none[0]!.message, /one image, one video, or 2–5 images/);
  const six = check(target(Array.from({ length: 6 }, (_, i) => img(i))));
  assert.match(six[0]!.message, /at most 5 images \(6 given\)/);
  assert.deepEqual(fields(target([vid(1), vid(2)])), ['media']);
  assert.deepEqual(fields(target([img(), vid()])), ['media']);
  assert.deepEqual(fields(target([{ type: 'document', url: 'https://cdn.example/a.pdf' }])), ['media[0]']);
});

test('the media shape names the kind of Pin', () => {
  assert.equal((mediaShape([img()]) as { kind: string }).kind, 'image');
  assert.equal((mediaShape([img(1), img(2)]) as { kind: string }).kind, 'carousel');
  assert.equal((mediaShape([vid()]) as { kind: string }).kind, 'video');
});

test('boardId is required, and the message names the boards Herald knows', () => {
  assert.deepEqual(fields(target([img()], {})), ['settings.boardId']);
  const meta = { boards: [{ id: '111', name: 'Ideas', privacy: 'PUBLIC' }, { id: '222', name: 'Recipes', privacy: 'PUBLIC' }] };
  const [v] = check(target([img()], {}), meta);
  assert.match(v!.message, /boardId/);
  assert.match(v!.message, /111 \(Ideas\), 222 \(Recipes\)/);
  // A board not (yet) remembered is not refused: it may be new.
  assert.deepEqual(fields(target([img()], { boardId: '999' }), meta), []);
});

test('title ≤ 100, description ≤ 800, link ≤ 2,048, alt text ≤ 500, counted in code points', () => {
  assert.deepEqual(fields(target([img()], { ...BOARD, title: 'x'.repeat(100) }, 'd'.repeat(800))), []);
  const title = check(target([img()], { ...BOARD, title: 'x'.repeat(101) }));
  assert.deepEqual(title.map((v) => v.field), ['settings.title']);
  assert.match(title[0]!.message, /at most 100 characters \(this one has 101\)/);
  const desc = check(target([img()], BOARD, 'd'.repeat(801)));
  assert.deepEqual(desc.map((v) => v.field), ['content']);
  assert.match(desc[0]!.message, /description.*at most 800 characters \(this one has 801\)/);
  const link = `https://example.com/${'a'.repeat(2049 - 20)}`;
  assert.deepEqual(fields(target([img()], { ...BOARD, link })), ['settings.link']);
  const alt = check(target([img(0, 'ok'), img(1, 'a'.repeat(501))]));
  assert.deepEqual(alt.map((v) => v.field), ['media[1].altText']);
  assert.match(alt[0]!.message, /alt text is at most 500 characters \(this one has 501\)/);
  // 800 emoji are 800 characters to Pinterest, though 1,600 UTF-16 units to JavaScript.
  assert.equal(characters('😀'.repeat(800)), 800);
  assert.deepEqual(fields(target([img()], BOARD, '😀'.repeat(800))), []);
});

test('the settings schema: boardId digits, link an absolute http(s) URL, nothing else', () => {
  const validate = compileStrict<Record<string, unknown>>(PinterestSettingsSchema);
  assert.equal(validate({ boardId: '123', title: 'T', link: 'https://example.com/a' }), true);
  assert.equal(validate({ boardId: 'board_456' }), false);
  assert.equal(validate({ boardId: '1', link: 'ftp://example.com/a' }), false);
  assert.equal(validate({ boardId: '1', firstComment: 'hi' }), false, 'Pinterest has no comments');
  assert.equal(validate({ boardId: '1', boardSectionId: '2' }), false);
});
