// Unpublish (POST /v1/posts/{id}/unpublish) and first comments (platformSpecificData.firstComment), API.md
// section 12: deletes through each platform's capability, UNPUBLISH_NOT_SUPPORTED where the API has
// none; a first comment posted once its target is published, never failing or re-posting the target,
// retried alone, and never posted twice when its answer is lost.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { connectAccount } from '../helpers/connect.ts';
import { posted, publishNow, startWorld, type World } from '../helpers/e2e.ts';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.ts';
import { eventually, listDeliveries, saveSettings } from '../helpers/webhooks.ts';

let w: World;
let receiver: Receiver;
let x: string;
let ig: string;

before(async () => {
  w = await startWorld();
  receiver = await startReceiver();
  x = (await connectAccount(w.h, 'twitter')).accountId;
  ig = (await connectAccount(w.h, 'instagram', { sandbox_pages: '1' })).accountId;
  await saveSettings(w.h, { url: receiver.url, events: ['post.unpublished'] });
});
after(async () => {
  await w.close();
  await receiver.close();
});

/** X's successful DELETE /2/tweets/{id} calls for one id, with their place among all the calls X got. */
const xDeletes = (id: string) =>
  w
    .emu('twitter')
    .calls.map((c, index) => ({ ...c, index }))
    .filter((c) => c.method === 'DELETE' && c.path.endsWith(`/2/tweets/${id}`) && c.status === 200);
const xLive = (text: string) => w.emu('twitter').ledger.list().filter((e) => e.text === text && !e.extra?.deleted);

describe('unpublish', () => {
  test('every published target by default: X deletes, Instagram cannot (UNPUBLISH_NOT_SUPPORTED); post.unpublished says so', async () => {
    const post = await publishNow(w.h, {
      content: 'take me down',
      mediaItems: [{ type: 'image', url: w.media('sample.jpg') }],
      platforms: [
        { platform: 'twitter', accountId: x },
        { platform: 'instagram', accountId: ig },
      ],
    });
    assert.equal(post.status, 'published');
    const res = await w.h.request('POST', `/v1/posts/${post.id}/unpublish`, { body: {} });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.platforms, [
      { platform: 'twitter', accountId: x, unpublished: true },
      {
        platform: 'instagram',
        accountId: ig,
        unpublished: false,
        errorCode: 'UNPUBLISH_NOT_SUPPORTED',
        error: res.body.platforms[1].error,
      },
    ]);
    const tweet = (await w.h.request('GET', `/v1/posts/${post.id}`)).body.platforms[0];
    assert.equal(tweet.status, 'unpublished');
    const lookup = await fetch(`${w.server.rootOf('twitter')}/2/tweets/${tweet.platformPostId}`, { headers: { authorization: 'Bearer nobody' } });
    assert.notEqual(lookup.status, 200, 'X no longer serves it to anyone');
    const event = await eventually(async () => receiver.received.map((r) => r.json as any).find((e) => e.event === 'post.unpublished' && e.data.postId === post.id));
    assert.deepEqual(event.data.platforms, res.body.platforms);
    // Unpublishing again: the X target is already down.
    const again = await w.h.request('POST', `/v1/posts/${post.id}/unpublish`, { body: { platforms: [{ platform: 'twitter', accountId: x }] } });
    assert.deepEqual(again.body.platforms, [{ platform: 'twitter', accountId: x, unpublished: true }]);
    assert.ok(xLive('take me down').length <= 1);
  });

  test('a thread comes down whole; the post stays in Herald', async () => {
    const post = await publishNow(w.h, {
      content: 'thread head',
      platforms: [{ platform: 'twitter', accountId: x, platformSpecificData: { threadItems: [{ content: 'thread tail' }] } }],
    });
    const res = await w.h.request('POST', `/v1/posts/${post.id}/unpublish`, { body: {} });
    assert.equal(res.body.platforms[0].unpublished, true);
    const state = w.emu('twitter');
    const entries = state.ledger.list().filter((e) => e.text === 'thread head' || e.text === 'thread tail');
    assert.equal(entries.length, 2);
    assert.equal((await w.h.request('GET', `/v1/posts/${post.id}`)).status, 200);
  });

  test('the first comment, a reply that would outlive the post on X, comes down with it, first', async () => {
    const post = await publishNow(w.h, {
      content: 'post with a reply',
      platforms: [{ platform: 'twitter', accountId: x, platformSpecificData: { firstComment: 'the reply under it' } }],
    });
    const commented = await eventually(async () => {
      const p = (await w.h.request('GET', `/v1/posts/${post.id}`)).body.platforms[0];
      return p.firstComment?.status === 'published' ? p : undefined;
    });
    const res = await w.h.request('POST', `/v1/posts/${post.id}/unpublish`, { body: {} });
    assert.deepEqual(res.body.platforms, [{ platform: 'twitter', accountId: x, unpublished: true }]);
    const reply = xDeletes(commented.firstComment.platformCommentId);
    const parent = xDeletes(commented.platformPostId);
    assert.equal(reply.length, 1, 'the reply was deleted');
    assert.equal(parent.length, 1, 'the post was deleted');
    assert.ok(reply[0]!.index < parent[0]!.index, 'the reply before its post, so it never points at nothing');
  });

  test('post.unpublished comes once: two unpublishes at the same time and a repeat take the target down once', async () => {
    const unpublishedEvents = async () => (await listDeliveries(w.h, undefined, '?event=post.unpublished&limit=100')).length;
    const before = await unpublishedEvents();
    const post = await publishNow(w.h, { content: 'down once', platforms: [{ platform: 'twitter', accountId: x }] });
    const both = await Promise.all([0, 1].map(() => w.h.request('POST', `/v1/posts/${post.id}/unpublish`, { body: {} })));
    for (const r of both) assert.deepEqual(r.body.platforms, [{ platform: 'twitter', accountId: x, unpublished: true }], r.text);
    const again = await w.h.request('POST', `/v1/posts/${post.id}/unpublish`, { body: { platforms: [{ platform: 'twitter', accountId: x }] } });
    assert.equal(again.body.platforms[0].unpublished, true);
    // Deliveries are written in the transaction that records the event, so the count is final here.
    assert.equal(await unpublishedEvents(), before + 1);
    assert.ok(xDeletes(post.platforms[0].platformPostId).length >= 1);
  });

  test('nothing published: 409 NOTHING_TO_UNPUBLISH; a target the post lacks: 400; another key: 404', async () => {
    const draft = await w.h.request('POST', '/v1/posts', { body: { content: 'draft', isDraft: true } });
    const none = await w.h.request('POST', `/v1/posts/${draft.body.id}/unpublish`, { body: {} });
    assert.equal(none.status, 409);
    assert.equal(none.body.code, 'NOTHING_TO_UNPUBLISH');
    const post = await publishNow(w.h, { content: 'mine', platforms: [{ platform: 'twitter', accountId: x }] });
    const wrong = await w.h.request('POST', `/v1/posts/${post.id}/unpublish`, { body: { platforms: [{ platform: 'threads', accountId: 'x' }] } });
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.param, 'platforms[0]');
    const other = await w.h.newKey();
    assert.equal((await w.h.request('POST', `/v1/posts/${post.id}/unpublish`, { body: {}, key: other.key })).status, 404);
    assert.equal(xLive('mine').length, 1);
  });
});

describe('first comments', () => {
  const firstComment = (text: string) => [{ platform: 'twitter', accountId: x, platformSpecificData: { firstComment: text } }];

  test('posted as a reply once the target is published; the target shows its outcome', async () => {
    const post = await publishNow(w.h, { content: 'with a comment', platforms: firstComment('see the reply') });
    const tweet = post.platforms[0];
    assert.equal(tweet.status, 'published');
    const done = await eventually(async () => {
      const p = (await w.h.request('GET', `/v1/posts/${post.id}`)).body.platforms[0];
      return p.firstComment?.status === 'published' ? p : undefined;
    });
    const reply = posted(w.emu('twitter'), { text: 'see the reply' });
    assert.equal(reply.length, 1);
    assert.equal(done.firstComment.platformCommentId, reply[0]!.id);
    assert.equal(reply[0]!.extra?.inReplyTo, tweet.platformPostId, 'a reply to the post');
  });

  const commentOf = async (postId: string, status: string) =>
    eventually(async () => {
      const p = (await w.h.request('GET', `/v1/posts/${postId}`)).body;
      return p.platforms[0].firstComment?.status === status ? p : undefined;
    }, 15_000, `the first comment to be ${status}`);

  test('a failing comment never fails the target; retry sends only the comment', async () => {
    // The post goes through; the next POST /2/tweets, the comment, is refused.
    w.emu('twitter').faults.add({ kind: 'validation', method: 'POST', path: '/2/tweets', skip: 1 });
    const post = await publishNow(w.h, { content: 'comment will fail', platforms: firstComment('refused comment') });
    assert.equal(post.status, 'published');
    const failed = await commentOf(post.id, 'failed');
    assert.equal(failed.status, 'published', 'the post itself stays published');
    assert.equal(failed.platforms[0].status, 'published');
    assert.match(failed.platforms[0].firstComment.error, /X/);
    const retry = await w.h.request('POST', `/v1/posts/${post.id}/retry`);
    assert.equal(retry.status, 200, retry.text);
    await commentOf(post.id, 'published');
    assert.equal(posted(w.emu('twitter'), { text: 'comment will fail' }).length, 1, 'the post was not sent again');
    assert.equal(posted(w.emu('twitter'), { text: 'refused comment' }).length, 1);
    const nothing = await w.h.request('POST', `/v1/posts/${post.id}/retry`);
    assert.equal(nothing.status, 409);
    assert.equal(nothing.body.code, 'NO_FAILED_TARGETS');
  });

  test('a comment waiting to be retried when its post is unpublished fails, saying why, and is never posted', async () => {
    // The post goes through; the comment is rate limited for a minute, so it waits to be tried again.
    w.emu('twitter').faults.add({ kind: 'rate_limited', method: 'POST', path: '/2/tweets', skip: 1, resetSeconds: 30 });
    const post = await publishNow(w.h, { content: 'unpublished before its reply', platforms: firstComment('reply never sent') });
    assert.equal(post.status, 'published');
    // Tried once and refused for now: waiting for the limit to lift.
    await eventually(async () => {
      const c = (await w.h.request('GET', `/v1/posts/${post.id}`)).body.platforms[0].firstComment;
      return c?.status === 'pending' && c.error ? c : undefined;
    }, 15_000, 'the first comment to wait for a retry');
    const res = await w.h.request('POST', `/v1/posts/${post.id}/unpublish`, { body: {} });
    assert.deepEqual(res.body.platforms, [{ platform: 'twitter', accountId: x, unpublished: true }]);
    const target = (await w.h.request('GET', `/v1/posts/${post.id}`)).body.platforms[0];
    assert.equal(target.status, 'unpublished');
    assert.deepEqual(target.firstComment, { status: 'failed', error: 'the post was unpublished before its first comment was posted' });
    w.emu('twitter').faults.clear();
    assert.equal(posted(w.emu('twitter'), { text: 'reply never sent' }).length, 0);
  });

  test('a comment in flight during the unpublish that comes back to be retried is settled by its next run, not swept back forever', async () => {
    const post = await publishNow(w.h, { content: 'reply in flight', platforms: firstComment('in flight') });
    await commentOf(post.id, 'published');
    await w.h.request('POST', `/v1/posts/${post.id}/unpublish`, { body: {} });
    // As an attempt that was sending when the post came down and then failed in a way worth retrying
    // leaves it: waiting, due long ago (so the sweep picks it up).
    await w.h.runtime.db.write((trx) =>
      trx.updateTable('post_targets').set({ comment_status: 'pending', comment_id: null, comment_next_attempt_at: 1, comment_error: 'will retry: X answered 503' }).where('post_id', '=', post.id).execute(),
    );
    const settled = await commentOf(post.id, 'failed');
    assert.equal(settled.platforms[0].firstComment.error, 'the post was unpublished before its first comment was posted');
    assert.equal(posted(w.emu('twitter'), { text: 'in flight' }).length, 1, 'sent once, before the unpublish; never again');
  });

  test('a comment whose answer is lost is found on X, not posted twice', async () => {
    // X makes the reply, then the connection is cut before its answer.
    w.emu('twitter').faults.add({ kind: 'accept_then_reset', method: 'POST', path: '/2/tweets', skip: 1 });
    const post = await publishNow(w.h, { content: 'lost answer', platforms: firstComment('answer lost') });
    assert.equal(post.status, 'published');
    const done = await commentOf(post.id, 'published');
    const replies = posted(w.emu('twitter'), { text: 'answer lost' });
    assert.equal(replies.length, 1);
    assert.equal(done.platforms[0].firstComment.platformCommentId, replies[0]!.id);
  });
});
