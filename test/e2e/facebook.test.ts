// Facebook Pages end to end through Herald's HTTP API: every media shape, a re-minted Page token, the
// first comment (posted once as the Page; a failure retried alone), unpublish and an edit, disconnect.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connectAccount } from '../helpers/connect.ts';
import { calls, posted, publishNow, startWorld, type World } from '../helpers/e2e.ts';
import { eventually } from '../helpers/webhooks.ts';

let w: World;
let pages: string[];
before(async () => {
  w = await startWorld();
});
after(() => w.close());

test('connect gives every granted Page; list and health', async () => {
  const connected = await connectAccount(w.h, 'facebook', { sandbox_user: 'fb_owner', sandbox_pages: '2' });
  pages = connected.accounts.map((a) => a.accountId);
  assert.equal(pages.length, 2);
  assert.equal(connected.accountId, pages[0]);
  const list = await w.h.request('GET', '/v1/accounts?platform=facebook');
  assert.deepEqual(list.body.accounts.map((a: { accountId: string }) => a.accountId).sort(), [...pages].sort());
  const health = await w.h.request('GET', '/v1/accounts/health');
  for (const entry of health.body.accounts) {
    assert.equal(entry.health, 'healthy', JSON.stringify(entry));
    assert.equal(entry.tokenExpiresAt, null, 'Page tokens do not expire');
  }
});

test('every media shape publishes once', async () => {
  const meta = w.emu('meta');
  const page = pages[0]!;
  const img = { type: 'image', url: w.media('sample.jpg') };
  const vid = { type: 'video', url: w.media('sample.mp4') };
  const shapes: [string, Record<string, unknown>, string][] = [
    ['text', {}, 'post'],
    ['link', { facebookSettings: { link: 'https://example.com/article' } }, 'post'],
    ['one photo', { mediaItems: [img] }, 'photo'],
    ['three photos', { mediaItems: [img, img, img] }, 'post'],
    ['a video', { mediaItems: [vid] }, 'video'],
    ['a reel', { mediaItems: [vid], facebookSettings: { contentType: 'reel' } }, 'reel'],
    ['a photo story', { mediaItems: [img], facebookSettings: { contentType: 'story' } }, 'story'],
  ];
  for (const [name, extra, kind] of shapes) {
    const content = `FB ${name} ${Date.now()}`;
    const post = await publishNow(w.h, { content, platforms: [{ platform: 'facebook', accountId: page }], ...extra });
    assert.equal(post.status, 'published', `${name}: ${JSON.stringify(post)}`);
    assert.ok(post.platforms[0].platformPostUrl.startsWith('https://www.facebook.com/'), post.platforms[0].platformPostUrl);
    const entries = posted(meta, { accountId: page, kind }).filter((e) => kind === 'story' || e.text === content);
    assert.ok(entries.length >= 1, `${name}: ledger has the ${kind}`);
    if (kind !== 'story') assert.equal(entries.length, 1, name);
  }
});

test("an expired Page token is re-minted from the user's grant and the post goes out", async () => {
  const meta = w.emu('meta');
  const page = pages[1]!;
  assert.ok(meta.oauth.expireAccessTokens(page) > 0);
  const before = calls(meta, 'GET', '/me/accounts');
  const content = `after expiry ${Date.now()}`;
  const post = await publishNow(w.h, { content, platforms: [{ platform: 'facebook', accountId: page }] });
  assert.equal(post.status, 'published', JSON.stringify(post));
  assert.ok(calls(meta, 'GET', '/me/accounts') > before, 'Page token re-read');
  assert.equal(posted(meta, { accountId: page, text: content }).length, 1);
});

/** The post once its facebook target's first comment has reached `status`. */
async function commentIs(postId: string, status: string) {
  return eventually(async () => {
    const post = (await w.h.request('GET', `/v1/posts/${postId}`)).body;
    return post.platforms[0].firstComment?.status === status ? post : undefined;
  }, undefined, `the first comment to be ${status}`);
}

test('a first comment is posted once, as the Page, under the published post; the target shows its outcome', async () => {
  const meta = w.emu('meta');
  const page = pages[0]!;
  const content = `with a first comment ${Date.now()}`;
  const post = await publishNow(w.h, { content, platforms: [{ platform: 'facebook', accountId: page, platformSpecificData: { firstComment: 'Read more: https://example.com' } }] });
  assert.equal(post.status, 'published', JSON.stringify(post));
  const done = await commentIs(post.id, 'published');
  const target = done.platforms[0];
  const comments = posted(meta, { accountId: page, kind: 'comment' }).filter((e) => e.extra?.objectId === target.platformPostId);
  assert.equal(comments.length, 1);
  assert.deepEqual([comments[0]!.text, comments[0]!.id], ['Read more: https://example.com', target.firstComment.platformCommentId]);
  assert.equal(posted(meta, { accountId: page, text: content }).length, 1);
});

test('a first comment whose answer is lost is found among the post\'s comments, not posted twice', async () => {
  const meta = w.emu('meta');
  const page = pages[0]!;
  // Graph makes the comment, then the connection is cut before its answer.
  meta.faults.add({ kind: 'accept_then_reset', method: 'POST', path: '/comments' });
  const post = await publishNow(w.h, { content: `comment answer lost ${Date.now()}`, platforms: [{ platform: 'facebook', accountId: page, platformSpecificData: { firstComment: 'made once' } }] });
  const done = await commentIs(post.id, 'published');
  const comments = posted(meta, { accountId: page, kind: 'comment', text: 'made once' });
  assert.deepEqual(comments.map((e) => e.id), [done.platforms[0].firstComment.platformCommentId]);
});

test('a first comment is a target\'s, not a post-level facebookSettings field', async () => {
  const res = await w.h.request('POST', '/v1/posts', {
    body: { content: 'post-level comment', isDraft: true, facebookSettings: { firstComment: 'no' }, platforms: [{ platform: 'facebook', accountId: pages[0] }] },
  });
  assert.equal(res.status, 400, res.text);
  assert.match(res.body.param, /^facebookSettings/);
  const story = await w.h.request('POST', '/v1/posts', {
    body: {
      publishNow: true,
      mediaItems: [{ type: 'image', url: w.media('sample.jpg') }],
      platforms: [{ platform: 'facebook', accountId: pages[0], platformSpecificData: { contentType: 'story', firstComment: 'no' } }],
    },
  });
  assert.equal(story.status, 422, story.text);
  assert.equal(story.body.param, 'platforms[0].platformSpecificData.firstComment');
});

test('a failing first comment leaves the post published; retry sends only the comment', async () => {
  const meta = w.emu('meta');
  const page = pages[0]!;
  meta.faults.add({ kind: 'validation', method: 'POST', path: '/comments', message: '(#100) refused for the test' });
  const content = `comment refused ${Date.now()}`;
  const post = await publishNow(w.h, { content, platforms: [{ platform: 'facebook', accountId: page, platformSpecificData: { firstComment: 'second time lucky' } }] });
  assert.equal(post.status, 'published');
  const failed = await commentIs(post.id, 'failed');
  assert.equal(failed.status, 'published', 'the post stays published');
  assert.match(failed.platforms[0].firstComment.error, /refused for the test/);
  const retry = await w.h.request('POST', `/v1/posts/${post.id}/retry`);
  assert.equal(retry.status, 200, retry.text);
  await commentIs(post.id, 'published');
  assert.equal(posted(meta, { accountId: page, text: content }).length, 1, 'the post was not sent again');
  assert.equal(posted(meta, { accountId: page, kind: 'comment', text: 'second time lucky' }).length, 1);
});

test('unpublish deletes the post from the Page; the target becomes unpublished', async () => {
  const meta = w.emu('meta');
  const page = pages[0]!;
  const post = await publishNow(w.h, { content: `take me down ${Date.now()}`, platforms: [{ platform: 'facebook', accountId: page }] });
  const res = await w.h.request('POST', `/v1/posts/${post.id}/unpublish`, { body: {} });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body.platforms, [{ platform: 'facebook', accountId: page, unpublished: true }]);
  assert.equal((await w.h.request('GET', `/v1/posts/${post.id}`)).body.platforms[0].status, 'unpublished');
  assert.equal(posted(meta, { accountId: page, kind: 'delete' }).filter((e) => e.id === post.platforms[0].platformPostId).length, 1);
  assert.equal((await w.h.request('POST', `/v1/posts/${post.id}/unpublish`, { body: {} })).status, 409, 'nothing published is left');
  const named = await w.h.request('POST', `/v1/posts/${post.id}/unpublish`, { body: { platforms: [{ platform: 'facebook', accountId: page }] } });
  assert.deepEqual(named.body.platforms, [{ platform: 'facebook', accountId: page, unpublished: true }]);
  assert.equal(calls(meta, 'DELETE', `/${post.platforms[0].platformPostId}`), 1, 'deleted once');
});

test('an edit through POST /v1/posts/{id}/edit changes the Page post\'s message and keeps its id', async () => {
  const meta = w.emu('meta');
  const page = pages[0]!;
  const post = await publishNow(w.h, { content: `to edit ${Date.now()}`, platforms: [{ platform: 'facebook', accountId: page }] });
  const id = post.platforms[0].platformPostId;
  const res = await w.h.request('POST', `/v1/posts/${post.id}/edit`, { body: { content: 'edited on Facebook', platform: 'facebook' } });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(
    { ...res.body, platformPostUrl: undefined },
    { id: post.id, platform: 'facebook', accountId: page, platformPostId: id, previousPlatformPostId: id, platformPostUrl: undefined, editCount: 1, editsRemaining: null, editableUntil: null },
  );
  assert.deepEqual(posted(meta, { kind: 'edit' }).filter((e) => e.id === id).map((e) => e.text), ['edited on Facebook']);
  const after = (await w.h.request('GET', `/v1/posts/${post.id}`)).body.platforms[0];
  assert.deepEqual([after.platformPostId, after.customContent], [id, 'edited on Facebook']);
});

test('disconnect revokes the grant only with the last Page that uses it', async () => {
  const meta = w.emu('meta');
  const first = await w.h.request('DELETE', `/v1/accounts/facebook/${pages[0]}`);
  assert.deepEqual(first.body, { deleted: true, revoked: false }, 'the other Page still needs the grant');
  assert.equal(calls(meta, 'DELETE', '/permissions'), 0);
  const last = await w.h.request('DELETE', `/v1/accounts/facebook/${pages[1]}`);
  assert.deepEqual(last.body, { deleted: true, revoked: true });
  assert.equal(calls(meta, 'DELETE', '/permissions'), 1);
  assert.deepEqual((await w.h.request('GET', '/v1/accounts')).body.accounts, []);
});
