// POST /v1/posts/{id}/edit: X's conditions (paid subscription, 1 hour, 5 edits, text only) and the
// new post id recorded.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { testClock } from '../helpers/clock.ts';
import { connectAccount } from '../helpers/connect.ts';
import { posted, publishNow, startWorld, type World } from '../helpers/e2e.ts';

const clock = testClock();
let w: World;
let premium: string;
let free: string;
let threads: string;

before(async () => {
  w = await startWorld({ clock });
  premium = (await connectAccount(w.h, 'twitter', { sandbox_user: 'paid', sandbox_subscription: 'Premium' })).accountId;
  free = (await connectAccount(w.h, 'twitter', { sandbox_user: 'free', sandbox_subscription: 'None' })).accountId;
  threads = (await connectAccount(w.h, 'threads')).accountId;
});
after(() => w.close());

const edit = (postId: string, body: unknown) => w.h.request('POST', `/v1/posts/${postId}/edit`, { body });

test('a paid account edits its tweet: new id recorded, count and window reported', async () => {
  const post = await publishNow(w.h, { content: `before ${Date.now()}`, platforms: [{ platform: 'twitter', accountId: premium }] });
  const original = post.platforms[0].platformPostId;
  const res = await edit(post.id, { content: 'after' });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.previousPlatformPostId, original);
  assert.notEqual(res.body.platformPostId, original);
  assert.equal(res.body.editCount, 1);
  assert.equal(res.body.editsRemaining, 4);
  assert.equal(res.body.platform, 'twitter');
  assert.equal(res.body.accountId, premium);
  assert.equal(Date.parse(res.body.editableUntil), Date.parse(post.platforms[0].publishedAt) + 3_600_000);
  const entry = posted(w.emu('twitter'), { kind: 'edit' }).find((e) => e.id === res.body.platformPostId);
  assert.equal(entry?.text, 'after');
  const stored = await w.h.request('GET', `/v1/posts/${post.id}`);
  assert.equal(stored.body.platforms[0].platformPostId, res.body.platformPostId);
  assert.equal(stored.body.platforms[0].platformPostUrl, res.body.platformPostUrl);
});

test('at most five edits', async () => {
  const post = await publishNow(w.h, { content: `edit me ${Date.now()}`, platforms: [{ platform: 'twitter', accountId: premium }] });
  for (let i = 1; i <= 5; i++) assert.equal((await edit(post.id, { content: `edit ${i}` })).status, 200, `edit ${i}`);
  const sixth = await edit(post.id, { content: 'edit 6' });
  assert.equal(sixth.status, 422);
  assert.equal(sixth.body.code, 'EDIT_LIMIT_REACHED');
});

test('only within an hour of publishing', async () => {
  const post = await publishNow(w.h, { content: `old news ${Date.now()}`, platforms: [{ platform: 'twitter', accountId: premium }] });
  clock.advance(61 * 60_000);
  const res = await edit(post.id, { content: 'too late' });
  assert.equal(res.status, 422);
  assert.equal(res.body.code, 'EDIT_WINDOW_EXPIRED');
});

test('a free account cannot edit', async () => {
  const post = await publishNow(w.h, { content: `free ${Date.now()}`, platforms: [{ platform: 'twitter', accountId: free }] });
  const res = await edit(post.id, { content: 'change' });
  assert.equal(res.status, 422);
  assert.equal(res.body.code, 'PREMIUM_REQUIRED');
});

test('text only', async () => {
  const post = await publishNow(w.h, { content: `text ${Date.now()}`, platforms: [{ platform: 'twitter', accountId: premium }] });
  const res = await edit(post.id, { content: 'x', mediaItems: [{ type: 'image', url: w.media('sample.jpg') }] });
  assert.equal(res.status, 422);
  assert.equal(res.body.code, 'EDIT_TEXT_ONLY');
  assert.equal(res.body.param, 'mediaItems');
});

test('a post without a published twitter target cannot be edited', async () => {
  const post = await publishNow(w.h, { content: `threads only ${Date.now()}`, platforms: [{ platform: 'threads', accountId: threads }] });
  const res = await edit(post.id, { content: 'x' });
  assert.equal(res.status, 422);
  assert.equal(res.body.code, 'EDIT_NOT_SUPPORTED');
});

test('accountId picks the twitter target; several without one is a 400', async () => {
  const post = await publishNow(w.h, {
    content: `two accounts ${Date.now()}`,
    platforms: [
      { platform: 'twitter', accountId: premium },
      { platform: 'twitter', accountId: free },
    ],
  });
  assert.equal((await edit(post.id, { content: 'which?' })).status, 400);
  const res = await edit(post.id, { content: 'this one', accountId: premium });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.accountId, premium);
});

test("X's refusal is a 502 and the post keeps its id", async () => {
  const post = await publishNow(w.h, { content: `refused ${Date.now()}`, platforms: [{ platform: 'twitter', accountId: premium }] });
  w.emu('twitter').faults.add({ kind: 'validation', method: 'POST', path: '/2/tweets', count: 1 });
  const res = await edit(post.id, { content: 'nope' });
  assert.equal(res.status, 502);
  assert.equal(res.body.code, 'PLATFORM_ERROR');
  const stored = await w.h.request('GET', `/v1/posts/${post.id}`);
  assert.equal(stored.body.platforms[0].platformPostId, post.platforms[0].platformPostId);
});

test('an unknown post is a 404', async () => {
  assert.equal((await edit('post_nope000000000000000', { content: 'x' })).status, 404);
});
