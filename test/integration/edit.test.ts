// POST /v1/posts/{id}/edit: X's conditions (paid subscription, 1 hour, 5 edits, text only) and the
// new post id recorded.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { testClock } from '../helpers/clock.ts';
import { connectAccount } from '../helpers/connect.ts';
import { posted, publishNow, startWorld, type World } from '../helpers/e2e.ts';
import { gate, until } from '../helpers/wait.ts';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.ts';
import { saveSettings } from '../helpers/webhooks.ts';

const clock = testClock();
let w: World;
let premium: string;
let free: string;
let threads: string;
let receiver: Receiver;

before(async () => {
  w = await startWorld({ clock });
  premium = (await connectAccount(w.h, 'twitter', { sandbox_user: 'paid', sandbox_subscription: 'Premium' })).accountId;
  free = (await connectAccount(w.h, 'twitter', { sandbox_user: 'free', sandbox_subscription: 'None' })).accountId;
  threads = (await connectAccount(w.h, 'threads')).accountId;
  receiver = await startReceiver();
  await saveSettings(w.h, { url: receiver.url, events: ['post.edited'] });
});
after(async () => {
  await w.close();
  await receiver.close();
});

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

test('X rate-limiting the edit: a 502 whose Retry-After says when X takes the next call', async () => {
  const post = await publishNow(w.h, { content: `throttled ${Date.now()}`, platforms: [{ platform: 'twitter', accountId: premium }] });
  w.emu('twitter').faults.add({ kind: 'rate_limited', method: 'POST', path: '/2/tweets', count: 1, resetSeconds: 3600 });
  const res = await edit(post.id, { content: 'too soon' });
  assert.equal(res.status, 502, res.text);
  assert.equal(res.body.code, 'PLATFORM_ERROR');
  assert.equal(res.body.details.category, 'rate_limited');
  const wait = Number(res.headers.get('retry-after'));
  assert.ok(wait > 60 && wait <= 3601, `Retry-After ${wait} follows X's x-rate-limit-reset`);
  const later = await edit(post.id, { content: 'later' });
  assert.equal(later.status, 200, later.text);
});

test('an unknown post is a 404', async () => {
  assert.equal((await edit('post_nope000000000000000', { content: 'x' })).status, 404);
});

test('content is required; other fields alone are EDIT_TEXT_ONLY', async () => {
  const post = await publishNow(w.h, { content: `shape ${Date.now()}`, platforms: [{ platform: 'twitter', accountId: premium }] });
  const missing = await edit(post.id, {});
  assert.equal(missing.status, 400);
  assert.equal(missing.body.param, 'content');
  const other = await edit(post.id, { mediaItems: [{ type: 'image', url: w.media('sample.jpg') }] });
  assert.equal(other.status, 422);
  assert.equal(other.body.code, 'EDIT_TEXT_ONLY');
});

// Edits are platform writes: claimed before X is called, never sent twice, never lost.

/** post.edited events recorded in the outbox for a post (the receiver is there so they are recorded). */
async function editedEvents(postId: string): Promise<unknown[]> {
  const rows = await w.h.runtime.db.writable.selectFrom('webhook_events').select('body').where('event', '=', 'post.edited').execute();
  return rows.map((r) => JSON.parse(r.body).data).filter((d) => d.postId === postId);
}

test('two concurrent edits of one tweet: X gets one, the other is told to wait', async () => {
  const post = await publishNow(w.h, { content: `race ${Date.now()}`, platforms: [{ platform: 'twitter', accountId: premium }] });
  // Whichever edit reaches X is held there until the other has its answer, so the two overlap whatever
  // the machine's speed. (Were both let through, each would wait for the other: a hang, caught by the cap.)
  const adapter = w.h.runtime.adapters.twitter;
  const realEdit = adapter.edit!;
  const oneAnswered = gate();
  adapter.edit = {
    ...realEdit,
    send: async (request) => {
      await until('the other edit to be answered', () => oneAnswered.isOpen());
      return realEdit.send(request);
    },
  };
  let results;
  try {
    const answered = (res: Awaited<ReturnType<typeof edit>>) => {
      oneAnswered.open();
      return res;
    };
    results = await Promise.all([edit(post.id, { content: 'first racer' }).then(answered), edit(post.id, { content: 'second racer' }).then(answered)]);
  } finally {
    adapter.edit = realEdit;
  }
  assert.deepEqual(results.map((r) => r.status).sort(), [200, 409], results.map((r) => r.text).join(' | '));
  assert.equal(results.find((r) => r.status === 409)!.body.code, 'CONFLICT');
  const edits = posted(w.emu('twitter'), { kind: 'edit' }).filter((e) => e.text === 'first racer' || e.text === 'second racer');
  assert.equal(edits.length, 1);
  const stored = await w.h.request('GET', `/v1/posts/${post.id}`);
  assert.equal(stored.body.platforms[0].platformPostId, edits[0]!.id);
});

test("a refused edit keeps the tweet's count: the next edit is the first", async () => {
  const post = await publishNow(w.h, { content: `refused count ${Date.now()}`, platforms: [{ platform: 'twitter', accountId: premium }] });
  w.emu('twitter').faults.add({ kind: 'validation', method: 'POST', path: '/2/tweets', count: 1 });
  const refused = await edit(post.id, { content: 'no' });
  assert.equal(refused.status, 502);
  assert.equal(refused.body.details.category, 'content_rejected');
  const next = await edit(post.id, { content: 'yes' });
  assert.equal(next.status, 200, next.text);
  assert.equal(next.body.editCount, 1);
});

test('an edit whose answer is lost is found at X, not sent again', async () => {
  const post = await publishNow(w.h, { content: `hang ${Date.now()}`, platforms: [{ platform: 'twitter', accountId: premium }] });
  const content = `edited while X hung ${Date.now()}`;
  w.emu('twitter').faults.add({ kind: 'accept_then_hang', method: 'POST', path: '/2/tweets' });
  const res = await edit(post.id, { content });
  assert.equal(res.status, 200, res.text);
  const edits = posted(w.emu('twitter'), { kind: 'edit', text: content });
  assert.equal(edits.length, 1);
  assert.equal(res.body.platformPostId, edits[0]!.id);
  assert.equal(res.body.editCount, 1);
  assert.equal((await editedEvents(post.id)).length, 1);
});

test('an edit that never reached X is a 502 saying it is safe to send again, and it then goes through', async () => {
  const post = await publishNow(w.h, { content: `drop ${Date.now()}`, platforms: [{ platform: 'twitter', accountId: premium }] });
  w.emu('twitter').faults.add({ kind: 'drop', method: 'POST', path: '/2/tweets' });
  const lost = await edit(post.id, { content: 'dropped edit' });
  assert.equal(lost.status, 502, lost.text);
  assert.equal(lost.body.details.category, 'platform_unavailable');
  assert.equal(posted(w.emu('twitter'), { kind: 'edit', text: 'dropped edit' }).length, 0);
  const again = await edit(post.id, { content: 'dropped edit' });
  assert.equal(again.status, 200, again.text);
  assert.equal(again.body.editCount, 1);
  assert.equal(posted(w.emu('twitter'), { kind: 'edit', text: 'dropped edit' }).length, 1);
});

test('an edit X cannot account for stays claimed: the next edit asks X first and both are recorded once', async () => {
  const post = await publishNow(w.h, { content: `unknown ${Date.now()}`, platforms: [{ platform: 'twitter', accountId: premium }] });
  const twitter = w.emu('twitter');
  twitter.faults.add({ kind: 'accept_then_hang', method: 'POST', path: '/2/tweets' });
  twitter.faults.add({ kind: 'server_error', method: 'GET', path: '/2/tweets/', forever: true });
  const unknown = await edit(post.id, { content: 'maybe made' });
  twitter.faults.clear();
  assert.equal(unknown.status, 502, unknown.text);
  assert.equal(unknown.body.details.category, 'outcome_unknown');
  const first = posted(twitter, { kind: 'edit', text: 'maybe made' });
  assert.equal(first.length, 1, 'X made the edit although its answer was lost');

  const next = await edit(post.id, { content: 'made for sure' });
  assert.equal(next.status, 200, next.text);
  assert.equal(next.body.previousPlatformPostId, first[0]!.id, 'the lost edit was recorded before the next was sent');
  assert.equal(next.body.editCount, 2);
  assert.equal(posted(twitter, { kind: 'edit', text: 'maybe made' }).length, 1, 'the lost edit was not sent again');
  assert.equal(posted(twitter, { kind: 'edit', text: 'made for sure' }).length, 1);
  assert.equal((await editedEvents(post.id)).length, 2);
});

test('sending again the edit X could not account for: X had made it, so that is the answer, not a second edit', async () => {
  const post = await publishNow(w.h, { content: `resend ${Date.now()}`, platforms: [{ platform: 'twitter', accountId: premium }] });
  const twitter = w.emu('twitter');
  const content = `resent edit ${Date.now()}`;
  twitter.faults.add({ kind: 'accept_then_hang', method: 'POST', path: '/2/tweets' });
  twitter.faults.add({ kind: 'server_error', method: 'GET', path: '/2/tweets/', forever: true });
  const unknown = await edit(post.id, { content });
  twitter.faults.clear();
  assert.equal(unknown.status, 502, unknown.text);
  assert.equal(unknown.body.details.category, 'outcome_unknown');

  const again = await edit(post.id, { content });
  assert.equal(again.status, 200, again.text);
  const made = posted(twitter, { kind: 'edit', text: content });
  assert.equal(made.length, 1, 'X holds one edit with that text');
  assert.equal(again.body.platformPostId, made[0]!.id);
  assert.equal(again.body.previousPlatformPostId, post.platforms[0].platformPostId);
  assert.equal(again.body.editCount, 1);
  assert.equal((await editedEvents(post.id)).length, 1);
});
