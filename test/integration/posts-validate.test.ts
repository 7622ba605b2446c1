// POST /v1/posts/validate (API.md section 12): every check of a create, every problem at once, a verdict
// and a character count per target, and nothing created.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { connectAccount } from '../helpers/connect.ts';
import { startWorld, type World } from '../helpers/e2e.ts';

let w: World;
let x: string;
let threads: string;
let tiktok: string;

before(async () => {
  w = await startWorld();
  x = (await connectAccount(w.h, 'twitter')).accountId;
  threads = (await connectAccount(w.h, 'threads')).accountId;
  tiktok = (await connectAccount(w.h, 'tiktok')).accountId;
});
after(() => w.close());

const validate = (body: unknown, raw?: string) =>
  w.h.request('POST', '/v1/posts/validate', raw === undefined ? { body } : { raw, headers: { 'content-type': 'application/json' } });

test('a valid post: valid, each target valid, characters counted the way each platform counts', async () => {
  const text = 'Visit https://example.com/a/very/long/path/that/is/much/longer/than/twenty-three 🎉';
  const res = await validate({ content: text, publishNow: true, platforms: [{ platform: 'twitter', accountId: x }, { platform: 'threads', accountId: threads }] });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.valid, true);
  assert.deepEqual(res.body.errors, []);
  const [tw, th] = res.body.targets;
  assert.equal(tw.valid, true);
  // X: the URL weighs 23, the emoji 2, the rest 1 each.
  assert.equal(tw.characters.used, 'Visit '.length + 23 + 1 + 2);
  assert.equal(tw.characters.limit, 280);
  // Threads: emoji count as their UTF-8 bytes.
  assert.equal(th.characters.used, [...text].length - 1 + 4);
  assert.equal(th.characters.limit, 500);
  assert.deepEqual((await w.h.request('GET', '/v1/posts')).body.posts, [], 'nothing was created');
});

test('every problem at once: the mode, the targets, unknown accounts and platform rules, by target', async () => {
  const res = await validate({
    content: 'x'.repeat(300),
    publishNow: true,
    platforms: [
      { platform: 'twitter', accountId: x },
      { platform: 'threads', accountId: 'nobody' },
      { platform: 'tiktok', accountId: tiktok },
    ],
  });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.valid, false);
  const params = res.body.errors.map((e: any) => e.param);
  assert.ok(params.includes('content'), 'X: too long');
  assert.ok(params.includes('platforms[1].accountId'), 'threads: no such account');
  assert.ok(params.some((p: string) => p.startsWith('tiktokSettings') || p.startsWith('mediaItems') || p.startsWith('platforms[2]')), 'tiktok: media and privacy');
  const [tw, th, tt] = res.body.targets;
  assert.equal(tw.valid, false);
  assert.equal(tw.errors[0].code, 'invalid_field_value');
  assert.equal(tw.characters.used, 300);
  assert.equal(th.valid, false);
  assert.equal(th.errors[0].param, 'platforms[1].accountId');
  assert.equal(tt.valid, false);
  assert.ok(tt.errors.length >= 2, JSON.stringify(tt.errors));
});

test('schema problems are listed too (all of them), with the param of each', async () => {
  const res = await validate({ content: 5, publishNow: 'yes', scheduleFor: 'tomorrow', platforms: [] });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.valid, false);
  const params = res.body.errors.map((e: any) => e.param).sort();
  assert.deepEqual(params, ['content', 'publishNow', 'scheduleFor']);
  assert.deepEqual(res.body.targets, []);
});

test('only a body that is not JSON is refused: 400 for broken JSON, 415 for another type', async () => {
  const broken = await validate(undefined, '{"content":');
  assert.equal(broken.status, 400);
  assert.equal(broken.body.code, 'VALIDATION_ERROR');
  const other = await w.h.request('POST', '/v1/posts/validate', { raw: 'content=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  assert.equal(other.status, 415);
  const array = await validate([1, 2]);
  assert.equal(array.status, 200);
  assert.equal(array.body.valid, false);
});
