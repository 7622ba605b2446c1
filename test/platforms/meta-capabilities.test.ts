// The Facebook and Instagram adapters' optional capabilities against the Meta emulator over real HTTP:
// the first comment (both), edits and unpublish (Facebook; Instagram has neither), each with what happens
// when the answer is lost, when nothing was sent, and when Graph refuses.
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createFacebookAdapter } from '../../src/platforms/facebook/adapter.ts';
import { createInstagramAdapter } from '../../src/platforms/instagram/adapter.ts';
import type { AccountCredentials, MediaItem, PlatformAdapter } from '../../src/platforms/types.ts';
import { createMetaEmulator } from '../../src/sandbox/meta/emulator.ts';
import { startEmulatorServer, type EmulatorServer } from '../../src/sandbox/server.ts';
import { adapterDeps, approveConsent, credentialsOf, testCommentRequest, testPublishRequest, type TestComment } from '../helpers/platform.ts';

const REDIRECT = 'https://app.example.com/callback';
const emu = createMetaEmulator({ processingMs: 10 });
let server: EmulatorServer;
let fb: PlatformAdapter;
let ig: PlatformAdapter;
let pages: AccountCredentials[];
let igAccount: AccountCredentials;

async function connect(adapter: PlatformAdapter, extra: Record<string, string>): Promise<AccountCredentials[]> {
  const { code } = await approveConsent(adapter.authorizeUrl({ state: 'st', redirectUri: REDIRECT }), extra);
  const out = await adapter.connect({ code, redirectUri: REDIRECT });
  assert.ok(out.ok, JSON.stringify(out));
  return out.accounts.map(credentialsOf);
}

function commentRequest(account: AccountCredentials, platformPostId: string, content: string): TestComment {
  return testCommentRequest({ account, platformPostId, content });
}

const image = (): MediaItem => ({ type: 'image', url: `${server.mediaUrl}/sample.jpg` });
const video = (): MediaItem => ({ type: 'video', url: `${server.mediaUrl}/sample.mp4` });
const comments = (objectId: string) => emu.ledger.list({ kind: 'comment' }).filter((e) => e.extra?.objectId === objectId || e.extra?.mediaId === objectId);

async function published(adapter: PlatformAdapter, account: AccountCredentials, content: string, media: MediaItem[] = [], settings: Record<string, unknown> = {}): Promise<string> {
  const out = await adapter.publish(testPublishRequest({ account, content, media, settings }));
  assert.ok(out.ok, JSON.stringify(out));
  return out.platformPostId;
}

before(async () => {
  server = await startEmulatorServer([emu]);
  const root = server.rootOf('meta');
  const deps = adapterDeps({ apiUrl: root, authUrl: `${root}/dialog/oauth` });
  fb = createFacebookAdapter(deps);
  ig = createInstagramAdapter(deps);
  pages = await connect(fb, { sandbox_user: 'capabilities', sandbox_pages: '2' });
  igAccount = (await connect(ig, { sandbox_user: 'capabilities', sandbox_pages: '1' }))[0]!;
});
afterEach(() => emu.faults.clear());
after(() => server.close());

describe('Facebook first comment', () => {
  test('a comment by the Page on a text post; the checkpoint keeps its id; a second send posts nothing', async () => {
    const page = pages[0]!;
    const postId = await published(fb, page, `commented ${Date.now()}`);
    const req = commentRequest(page, postId, 'Link in the first comment: https://example.com');
    const r = await fb.comment!.send(req);
    assert.ok(r.ok, JSON.stringify(r));
    const [entry] = comments(postId);
    assert.deepEqual([entry?.id, entry?.accountId, entry?.text], [r.platformCommentId, page.accountId, 'Link in the first comment: https://example.com']);
    assert.deepEqual(req.saved.map((cp) => Object.keys(cp).sort()), [['sentAt'], ['commentId', 'sentAt']]);
    assert.deepEqual(await fb.comment!.send(req), r);
    assert.deepEqual(await fb.comment!.find(req), { ok: true, found: true, platformCommentId: r.platformCommentId });
    assert.equal(comments(postId).length, 1);
  });

  test('videos and reels take their comment on the video', async () => {
    const page = pages[0]!;
    for (const settings of [{}, { contentType: 'reel' }]) {
      const id = await published(fb, page, `video ${JSON.stringify(settings)} ${Date.now()}`, [video()], settings);
      const r = await fb.comment!.send(commentRequest(page, id, 'on the video'));
      assert.ok(r.ok, JSON.stringify(r));
      assert.equal(comments(id).length, 1);
    }
  });

  test('a comment whose answer is lost: outcome_unknown; find and the next send both find it, nothing is posted twice', async () => {
    const page = pages[0]!;
    const postId = await published(fb, page, `lost comment ${Date.now()}`);
    emu.faults.add({ kind: 'accept_then_reset', method: 'POST', path: `/${postId}/comments` });
    const req = commentRequest(page, postId, 'lost in transit');
    const r = await fb.comment!.send(req);
    assert.equal(!r.ok && r.category, 'outcome_unknown');
    const [made] = comments(postId);
    assert.deepEqual(await fb.comment!.find(req), { ok: true, found: true, platformCommentId: made!.id });
    assert.deepEqual(await fb.comment!.send(req), { ok: true, platformCommentId: made!.id });
    assert.equal(comments(postId).length, 1);
  });

  test('find: nothing sent is not found; a send Graph never took is not found; another comment of the Page is not taken for it', async () => {
    const page = pages[0]!;
    const postId = await published(fb, page, `nothing here ${Date.now()}`);
    assert.deepEqual(await fb.comment!.find(commentRequest(page, postId, 'never sent')), { ok: true, found: false });
    const other = await fb.comment!.send(commentRequest(page, postId, 'a different comment'));
    assert.ok(other.ok);
    const dropped = commentRequest(page, postId, 'dropped before it arrived');
    emu.faults.add({ kind: 'drop', method: 'POST', path: `/${postId}/comments` });
    const r = await fb.comment!.send(dropped);
    assert.equal(!r.ok && r.category, 'outcome_unknown', 'the connection was cut after the request went out');
    assert.deepEqual(await fb.comment!.find(dropped), { ok: true, found: false }, 'Graph shows no such comment: sending again is safe');
  });

  test('refusals: without pages_manage_engagement, a story, throttling, an outage', async () => {
    const scopes = fb.info.scopes.filter((s) => s !== 'pages_manage_engagement').join(',');
    const [limited] = await connect(fb, { sandbox_user: 'no-engagement', sandbox_pages: '1', scope: scopes });
    const postId = await published(fb, limited!, `no engagement ${Date.now()}`);
    const denied = await fb.comment!.send(commentRequest(limited!, postId, 'hello'));
    assert.equal(!denied.ok && denied.category, 'permission_missing');
    assert.match(!denied.ok ? denied.message : '', /pages_manage_engagement/);

    const page = pages[0]!;
    const storyId = await published(fb, page, '', [image()], { contentType: 'story' });
    const story = await fb.comment!.send(commentRequest(page, storyId, 'on a story'));
    assert.equal(!story.ok && story.category, 'content_rejected');

    const post = await published(fb, page, `throttled ${Date.now()}`);
    emu.faults.add({ kind: 'rate_limited', method: 'POST', path: `/${post}/comments`, resetSeconds: 120 });
    const throttled = await fb.comment!.send(commentRequest(page, post, 'later'));
    assert.equal(!throttled.ok && throttled.category, 'rate_limited');
    assert.equal(!throttled.ok && throttled.platformCode, '32', 'a Page object answers as Pages do');
    assert.ok(!throttled.ok && throttled.retryAt! > Date.now() + 60_000);
    emu.faults.add({ kind: 'server_error', method: 'POST', path: `/${post}/comments` });
    const down = await fb.comment!.send(commentRequest(page, post, 'down'));
    assert.equal(!down.ok && down.category, 'platform_unavailable');
    assert.equal(comments(post).length, 0);
  });
});

describe('Facebook edit', () => {
  test('a text post takes a new message and keeps its id; find reads it back', async () => {
    const page = pages[0]!;
    const id = await published(fb, page, `before the edit ${Date.now()}`);
    const edit = fb.edit!;
    assert.deepEqual(edit.limits, { windowMs: null, maxEdits: null });
    const r = await edit.send({ account: page, platformPostId: id, content: 'after the edit' });
    assert.ok(r.ok, JSON.stringify(r));
    assert.equal(r.platformPostId, id);
    assert.match(r.platformPostUrl, /^https:\/\/www\.facebook\.com\//);
    const [entry] = emu.ledger.list({ kind: 'edit' }).filter((e) => e.id === id);
    assert.equal(entry?.text, 'after the edit');
    assert.deepEqual(await edit.find({ account: page, platformPostId: id, content: 'after the edit' }), { ok: true, found: true, platformPostId: id, platformPostUrl: r.platformPostUrl });
    assert.deepEqual(await edit.find({ account: page, platformPostId: id, content: 'never sent' }), { ok: true, found: false });
  });

  test('videos and reels take a new description', async () => {
    const page = pages[0]!;
    for (const settings of [{}, { contentType: 'reel' }]) {
      const id = await published(fb, page, `video text ${JSON.stringify(settings)} ${Date.now()}`, [video()], settings);
      const r = await fb.edit!.send({ account: page, platformPostId: id, content: 'a new description' });
      assert.ok(r.ok, JSON.stringify(r));
      assert.equal(emu.ledger.list({ kind: 'edit' }).filter((e) => e.id === id).at(-1)?.text, 'a new description');
      const found = await fb.edit!.find({ account: page, platformPostId: id, content: 'a new description' });
      assert.equal(found.ok && found.found, true);
    }
  });

  test('an edit whose answer is lost is outcome_unknown; find says it was made', async () => {
    const page = pages[0]!;
    const id = await published(fb, page, `edit lost ${Date.now()}`);
    emu.faults.add({ kind: 'accept_then_reset', method: 'POST', path: `/${id}` });
    const r = await fb.edit!.send({ account: page, platformPostId: id, content: 'made, never answered' });
    assert.equal(!r.ok && r.category, 'outcome_unknown');
    const found = await fb.edit!.find({ account: page, platformPostId: id, content: 'made, never answered' });
    assert.equal(found.ok && found.found, true);
  });

  test('refusals: a story cannot be edited; another Page cannot edit; the text limit is checked first', async () => {
    const [page, other] = pages;
    const storyId = await published(fb, page!, '', [image()], { contentType: 'story' });
    const story = await fb.edit!.send({ account: page!, platformPostId: storyId, content: 'no' });
    assert.equal(!story.ok && story.category, 'content_rejected');
    const id = await published(fb, page!, `not yours ${Date.now()}`);
    const theirs = await fb.edit!.send({ account: other!, platformPostId: id, content: 'mine now' });
    assert.equal(!theirs.ok && theirs.category, 'permission_missing');
    assert.deepEqual(fb.edit!.validate('x'.repeat(63_206), { meta: {} }), []);
    assert.equal(fb.edit!.validate('x'.repeat(63_207), { meta: {} })[0]?.field, 'content');
  });
});

describe('Facebook unpublish', () => {
  test('a post, a video and a reel come down once; a post already gone counts as deleted', async () => {
    const page = pages[1]!;
    for (const [media, settings] of [[[], {}], [[video()], {}], [[video()], { contentType: 'reel' }]] as [MediaItem[], Record<string, unknown>][]) {
      const id = await published(fb, page, `delete me ${JSON.stringify(settings)} ${media.length} ${Date.now()}`, media, settings);
      assert.deepEqual(await fb.unpublish!({ account: page, platformPostId: id, checkpoint: null }), { ok: true, deleted: true });
      assert.deepEqual(await fb.unpublish!({ account: page, platformPostId: id, checkpoint: null }), { ok: true, deleted: true });
      assert.equal(emu.ledger.list({ kind: 'delete' }).filter((e) => e.id === id).length, 1);
      const gone = await fetch(`${server.rootOf('meta')}/v21.0/${id}?access_token=${encodeURIComponent(page.accessToken)}`);
      assert.equal(((await gone.json()) as { error?: { error_subcode?: number } }).error?.error_subcode, 33);
    }
  });

  test('another Page\'s post: permission_missing; a lost answer: platform_unavailable (deleting again is harmless)', async () => {
    const [page, other] = pages;
    const id = await published(fb, page!, `owned ${Date.now()}`);
    const theirs = await fb.unpublish!({ account: other!, platformPostId: id, checkpoint: null });
    assert.equal(!theirs.ok && theirs.category, 'permission_missing');
    emu.faults.add({ kind: 'accept_then_reset', method: 'DELETE', path: `/${id}` });
    const lost = await fb.unpublish!({ account: page!, platformPostId: id, checkpoint: null });
    assert.equal(!lost.ok && lost.category, 'platform_unavailable');
    assert.deepEqual(await fb.unpublish!({ account: page!, platformPostId: id, checkpoint: null }), { ok: true, deleted: true });
  });
});

describe('Instagram', () => {
  test('no edit and no unpublish: the API can change neither a caption nor delete media', () => {
    assert.equal(ig.edit, undefined);
    assert.equal(ig.unpublish, undefined);
  });

  test('a first comment on the media; the checkpoint keeps its id; a second send posts nothing', async () => {
    const mediaId = await published(ig, igAccount, `IG comment ${Date.now()}`, [image()]);
    const req = commentRequest(igAccount, mediaId, 'more in bio');
    const r = await ig.comment!.send(req);
    assert.ok(r.ok, JSON.stringify(r));
    assert.deepEqual(comments(mediaId).map((e) => [e.id, e.accountId, e.text]), [[r.platformCommentId, igAccount.accountId, 'more in bio']]);
    assert.deepEqual(await ig.comment!.send(req), r);
    assert.equal(comments(mediaId).length, 1);
  });

  test('a comment whose answer is lost is found by the account\'s username and text, not posted twice', async () => {
    const mediaId = await published(ig, igAccount, `IG lost ${Date.now()}`, [image()]);
    emu.faults.add({ kind: 'accept_then_reset', method: 'POST', path: `/${mediaId}/comments` });
    const req = commentRequest(igAccount, mediaId, 'answer lost');
    const r = await ig.comment!.send(req);
    assert.equal(!r.ok && r.category, 'outcome_unknown');
    const [made] = comments(mediaId);
    assert.deepEqual(await ig.comment!.find(req), { ok: true, found: true, platformCommentId: made!.id });
    assert.deepEqual(await ig.comment!.find(commentRequest(igAccount, mediaId, 'answer lost')), { ok: true, found: false }, 'nothing was sent by this request');
    assert.deepEqual(await ig.comment!.send(req), { ok: true, platformCommentId: made!.id });
    assert.equal(comments(mediaId).length, 1);
  });

  test('refusals: a story takes no comments; without instagram_manage_comments; an Instagram throttle', async () => {
    const storyId = await published(ig, igAccount, '', [image()], { contentType: 'story' });
    const story = await ig.comment!.send(commentRequest(igAccount, storyId, 'on a story'));
    assert.equal(!story.ok && story.category, 'content_rejected');

    const scopes = ig.info.scopes.filter((s) => s !== 'instagram_manage_comments').join(',');
    const [limited] = await connect(ig, { sandbox_user: 'no-comments', sandbox_pages: '1', scope: scopes });
    const mediaId = await published(ig, limited!, `no comments scope ${Date.now()}`, [image()]);
    const denied = await ig.comment!.send(commentRequest(limited!, mediaId, 'hello'));
    assert.equal(!denied.ok && denied.category, 'permission_missing');

    emu.faults.add({ kind: 'rate_limited', method: 'POST', path: `/${mediaId}/comments` });
    const throttled = await ig.comment!.send(commentRequest(limited!, mediaId, 'later'));
    assert.equal(!throttled.ok && throttled.platformCode, '80002', 'Instagram media answers as Instagram does');
    assert.equal(comments(mediaId).length, 0);
  });
});
