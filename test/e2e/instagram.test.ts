// Instagram (through Facebook Login) end to end through Herald's HTTP API: every media shape, a refreshed
// token, the first comment (posted once by the engine; a failure retried alone), no unpublish and no
// edit (the API has neither), disconnect.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connectAccount } from '../helpers/connect.ts';
import { calls, posted, publishNow, startWorld, type World } from '../helpers/e2e.ts';
import { eventually } from '../helpers/webhooks.ts';

let w: World;
let accounts: string[];
before(async () => {
  w = await startWorld();
});
after(() => w.close());

test('connect gives the professional accounts of the granted Pages; list and health', async () => {
  const connected = await connectAccount(w.h, 'instagram', { sandbox_user: 'ig_owner', sandbox_pages: '2' });
  accounts = connected.accounts.map((a) => a.accountId);
  assert.equal(accounts.length, 2);
  const health = await w.h.request('GET', '/v1/accounts/health');
  for (const entry of health.body.accounts) {
    assert.equal(entry.health, 'healthy', JSON.stringify(entry));
    assert.ok(Date.parse(entry.tokenExpiresAt) > Date.now() + 50 * 86_400_000, 'long-lived token');
  }
});

test('every media shape publishes once', async () => {
  const meta = w.emu('meta');
  const account = accounts[0]!;
  const img = { type: 'image', url: w.media('sample.jpg') };
  const vid = { type: 'video', url: w.media('sample.mp4') };
  const shapes: [string, Record<string, unknown>, Record<string, unknown>?][] = [
    ['an image', { mediaItems: [img] }],
    ['a carousel', { mediaItems: [img, vid, img] }],
    ['a reel', { mediaItems: [vid] }, { contentType: 'reel', shareToFeed: true }],
    ['a story', { mediaItems: [img] }, { contentType: 'story' }],
  ];
  for (const [name, extra, settings] of shapes) {
    const content = `IG ${name} ${Date.now()}`;
    const before = posted(meta, { accountId: account, kind: 'media' }).length;
    const post = await publishNow(w.h, { content, platforms: [{ platform: 'instagram', accountId: account, ...(settings ? { platformSpecificData: settings } : {}) }], ...extra });
    assert.equal(post.status, 'published', `${name}: ${JSON.stringify(post)}`);
    assert.match(post.platforms[0].platformPostUrl, /^https:\/\/www\.instagram\.com\//);
    assert.equal(posted(meta, { accountId: account, kind: 'media' }).length, before + 1, name);
  }
});

test('an expired-token answer is met with one refresh and the post goes out', async () => {
  const meta = w.emu('meta');
  meta.faults.add({ kind: 'expired_token', method: 'POST', path: '/media', count: 1 });
  const exchanges = calls(meta, 'GET', '/oauth/access_token');
  const post = await publishNow(w.h, { content: `after expiry ${Date.now()}`, mediaItems: [{ type: 'image', url: w.media('sample.jpg') }], platforms: [{ platform: 'instagram', accountId: accounts[1]! }] });
  assert.equal(post.status, 'published', JSON.stringify(post));
  assert.equal(calls(meta, 'GET', '/oauth/access_token'), exchanges + 1, 'one token exchange');
});

async function commentIs(postId: string, status: string) {
  return eventually(async () => {
    const post = (await w.h.request('GET', `/v1/posts/${postId}`)).body;
    return post.platforms[0].firstComment?.status === status ? post : undefined;
  }, undefined, `the first comment to be ${status}`);
}

test('a first comment is posted once, by the engine, under the published media; the target shows its outcome', async () => {
  const meta = w.emu('meta');
  const account = accounts[0]!;
  const content = `IG with a comment ${Date.now()}`;
  const post = await publishNow(w.h, {
    content,
    mediaItems: [{ type: 'image', url: w.media('sample.jpg') }],
    platforms: [{ platform: 'instagram', accountId: account, platformSpecificData: { firstComment: 'more in bio' } }],
  });
  assert.equal(post.status, 'published', JSON.stringify(post));
  const done = await commentIs(post.id, 'published');
  const mediaId = done.platforms[0].platformPostId;
  const comments = posted(meta, { accountId: account, kind: 'comment' }).filter((e) => e.extra?.mediaId === mediaId);
  assert.deepEqual(comments.map((e) => [e.id, e.text]), [[done.platforms[0].firstComment.platformCommentId, 'more in bio']]);
  assert.equal(posted(meta, { accountId: account, kind: 'media', text: content }).length, 1);
});

test('a failing first comment leaves the media published; retry sends only the comment', async () => {
  const meta = w.emu('meta');
  const account = accounts[0]!;
  meta.faults.add({ kind: 'permission', method: 'POST', path: '/comments' });
  const content = `IG comment refused ${Date.now()}`;
  const post = await publishNow(w.h, {
    content,
    mediaItems: [{ type: 'image', url: w.media('sample.jpg') }],
    platforms: [{ platform: 'instagram', accountId: account, platformSpecificData: { firstComment: 'after the retry' } }],
  });
  assert.equal(post.status, 'published');
  const failed = await commentIs(post.id, 'failed');
  assert.equal(failed.platforms[0].status, 'published');
  const retry = await w.h.request('POST', `/v1/posts/${post.id}/retry`);
  assert.equal(retry.status, 200, retry.text);
  await commentIs(post.id, 'published');
  assert.equal(posted(meta, { accountId: account, kind: 'media', text: content }).length, 1, 'the media was not published again');
  assert.equal(posted(meta, { accountId: account, kind: 'comment', text: 'after the retry' }).length, 1);
});

test('Instagram cannot unpublish nor edit: UNPUBLISH_NOT_SUPPORTED and EDIT_NOT_SUPPORTED, nothing is sent', async () => {
  const meta = w.emu('meta');
  const account = accounts[0]!;
  const post = await publishNow(w.h, { content: `IG stays ${Date.now()}`, mediaItems: [{ type: 'image', url: w.media('sample.jpg') }], platforms: [{ platform: 'instagram', accountId: account }] });
  const mediaId = post.platforms[0].platformPostId;
  const res = await w.h.request('POST', `/v1/posts/${post.id}/unpublish`, { body: {} });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.platforms[0].unpublished, false);
  assert.equal(res.body.platforms[0].errorCode, 'UNPUBLISH_NOT_SUPPORTED');
  const edit = await w.h.request('POST', `/v1/posts/${post.id}/edit`, { body: { content: 'new caption' } });
  assert.equal(edit.status, 422, edit.text);
  assert.equal(edit.body.code, 'EDIT_NOT_SUPPORTED');
  assert.equal(meta.calls.filter((c) => c.path.endsWith(`/${mediaId}`) && c.method !== 'GET').length, 0, 'Graph was asked for nothing');
  assert.equal((await w.h.request('GET', `/v1/posts/${post.id}`)).body.platforms[0].status, 'published');
});

test('disconnect revokes the shared grant only with the last account', async () => {
  const meta = w.emu('meta');
  assert.deepEqual((await w.h.request('DELETE', `/v1/accounts/instagram/${accounts[0]}`)).body, { deleted: true, revoked: false });
  assert.deepEqual((await w.h.request('DELETE', `/v1/accounts/instagram/${accounts[1]}`)).body, { deleted: true, revoked: true });
  assert.equal(calls(meta, 'DELETE', '/permissions'), 1);
});
