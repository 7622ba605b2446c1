// Threads end to end through Herald's HTTP API: every media shape, a refreshed token, the first comment
// (a reply, posted once; a failure retried alone), unpublish, no edit (the API has none), disconnect.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createMetaEmulator } from '../../src/sandbox/meta/emulator.ts';
import { createThreadsEmulator } from '../../src/sandbox/threads/emulator.ts';
import { createTikTokEmulator } from '../../src/sandbox/tiktok/emulator.ts';
import { createTwitterEmulator } from '../../src/sandbox/twitter/emulator.ts';
import { connectAccount } from '../helpers/connect.ts';
import { calls, posted, publishNow, startWorld, type World } from '../helpers/e2e.ts';
import { eventually } from '../helpers/webhooks.ts';

let w: World;
let accountId: string;
before(async () => {
  // Threads refreshes only tokens at least a day old; this test's token is new, so the rule is lifted.
  const options = { processingMs: 30 };
  w = await startWorld({
    emulatorList: [createTwitterEmulator(options), createMetaEmulator(options), createThreadsEmulator({ ...options, refreshMinAgeMs: 0 }), createTikTokEmulator(options)],
  });
});
after(() => w.close());

test('connect, list and health', async () => {
  const connected = await connectAccount(w.h, 'threads', { sandbox_user: 'threads_user' });
  accountId = connected.accountId;
  assert.match(accountId, /^\d+$/);
  assert.equal((await w.h.request('GET', '/v1/accounts?platform=threads')).body.accounts.length, 1);
  const health = await w.h.request('GET', '/v1/accounts/health');
  assert.equal(health.body.accounts[0].health, 'healthy', health.text);
});

test('every media shape publishes once', async () => {
  const threads = w.emu('threads');
  const img = { type: 'image', url: w.media('sample.jpg') };
  const vid = { type: 'video', url: w.media('sample.mp4') };
  const shapes: [string, Record<string, unknown>][] = [
    ['text', {}],
    ['an image', { mediaItems: [img] }],
    ['a video', { mediaItems: [vid] }],
    ['a carousel', { mediaItems: [img, img, vid] }],
  ];
  for (const [name, extra] of shapes) {
    const content = `Threads ${name} ${Date.now()}`;
    const post = await publishNow(w.h, { content, platforms: [{ platform: 'threads', accountId, platformSpecificData: { replyControl: 'accounts_you_follow' } }], ...extra });
    assert.equal(post.status, 'published', `${name}: ${JSON.stringify(post)}`);
    assert.match(post.platforms[0].platformPostUrl, /threads\.(net|com)/);
    assert.equal(posted(threads, { text: content }).length, 1, name);
  }
});

test('an expired-token answer is met with one refresh and the post goes out', async () => {
  const threads = w.emu('threads');
  threads.faults.add({ kind: 'expired_token', method: 'POST', path: '/threads', count: 1 });
  const refreshes = calls(threads, 'GET', '/refresh_access_token');
  const content = `after expiry ${Date.now()}`;
  const post = await publishNow(w.h, { content, platforms: [{ platform: 'threads', accountId }] });
  assert.equal(post.status, 'published', JSON.stringify(post));
  assert.equal(calls(threads, 'GET', '/refresh_access_token'), refreshes + 1);
  assert.equal(posted(threads, { text: content }).length, 1);
});

async function commentIs(postId: string, status: string) {
  return eventually(async () => {
    const post = (await w.h.request('GET', `/v1/posts/${postId}`)).body;
    return post.platforms[0].firstComment?.status === status ? post : undefined;
  }, undefined, `the first comment to be ${status}`);
}

test('a first comment is a reply by the same account, posted once; the target shows its outcome', async () => {
  const threads = w.emu('threads');
  const content = `Threads with a reply ${Date.now()}`;
  const post = await publishNow(w.h, { content, platforms: [{ platform: 'threads', accountId, platformSpecificData: { firstComment: 'the reply below' } }] });
  assert.equal(post.status, 'published', JSON.stringify(post));
  const done = await commentIs(post.id, 'published');
  const replies = posted(threads, { kind: 'reply', text: 'the reply below' });
  assert.equal(replies.length, 1);
  assert.deepEqual([replies[0]!.id, replies[0]!.extra?.replyToId], [done.platforms[0].firstComment.platformCommentId, done.platforms[0].platformPostId]);
  assert.equal(posted(threads, { text: content }).length, 1);
});

test('a failing first comment leaves the post published; retry publishes only the reply', async () => {
  const threads = w.emu('threads');
  // The post's threads_publish goes through; the reply's is refused.
  threads.faults.add({ kind: 'validation', method: 'POST', path: '/threads_publish', skip: 1 });
  const content = `Threads reply refused ${Date.now()}`;
  const post = await publishNow(w.h, { content, platforms: [{ platform: 'threads', accountId, platformSpecificData: { firstComment: 'second try' } }] });
  assert.equal(post.status, 'published');
  const failed = await commentIs(post.id, 'failed');
  assert.equal(failed.platforms[0].status, 'published');
  const retry = await w.h.request('POST', `/v1/posts/${post.id}/retry`);
  assert.equal(retry.status, 200, retry.text);
  await commentIs(post.id, 'published');
  assert.equal(posted(threads, { text: content }).length, 1, 'the post was not published again');
  assert.equal(posted(threads, { kind: 'reply', text: 'second try' }).length, 1);
});

test('unpublish deletes the post and its thread items; an edit is EDIT_NOT_SUPPORTED', async () => {
  const threads = w.emu('threads');
  const content = `Threads to delete ${Date.now()}`;
  const post = await publishNow(w.h, { content, platforms: [{ platform: 'threads', accountId, platformSpecificData: { threadItems: [{ content: `${content} (2)` }] } }] });
  assert.equal(post.status, 'published', JSON.stringify(post));
  const edit = await w.h.request('POST', `/v1/posts/${post.id}/edit`, { body: { content: 'changed', platform: 'threads' } });
  assert.equal(edit.status, 422, edit.text);
  assert.equal(edit.body.code, 'EDIT_NOT_SUPPORTED');
  const res = await w.h.request('POST', `/v1/posts/${post.id}/unpublish`, { body: {} });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body.platforms, [{ platform: 'threads', accountId, unpublished: true }]);
  const deleted = posted(threads, { kind: 'delete' }).map((e) => e.text);
  assert.deepEqual(deleted.filter((t) => t.startsWith(content)), [`${content} (2)`, content], 'the reply first, then the post');
  assert.equal((await w.h.request('GET', `/v1/posts/${post.id}`)).body.platforms[0].status, 'unpublished');
});

test('disconnect forgets the account (Threads has no revoke call)', async () => {
  const res = await w.h.request('DELETE', `/v1/accounts/threads/${accountId}`);
  assert.deepEqual(res.body, { deleted: true, revoked: false });
  assert.deepEqual((await w.h.request('GET', '/v1/accounts')).body.accounts, []);
});
