// Bluesky end to end through Herald's HTTP API, against the real PDS (@atproto/pds on 127.0.0.1) and the
// built-in emulator: connect with an app password, list, health with permissions, publish (facets, images,
// a thread, the first comment), a create whose answer is lost reconciled to exactly one post (a forwarding
// proxy in front of the PDS), unpublish, create-time rules, and disconnect.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { publishNow, posted, calls, startWorld, waitFinal, type World } from '../helpers/e2e.ts';
import { usePds, type PdsAccount } from '../helpers/pds.ts';
import { png, POST, startFileServer, xrpcClient, type FileServer } from '../platforms/bluesky-helpers.ts';
import { startFaultProxy, type FaultProxy } from '../platforms/bluesky-proxy.ts';

const pds = usePds();
const x = xrpcClient(() => pds().url);
let w: World;
let files: FileServer;
let proxy: FaultProxy;
let alice: PdsAccount;
let bob: PdsAccount;
let appPassword: string;
let accountId: string;

before(async () => {
  await pds.ready;
  w = await startWorld();
  files = await startFileServer();
  proxy = await startFaultProxy(() => pds().url);
  alice = await pds().createAccount();
  bob = await pds().createAccount();
  appPassword = (await pds().createAppPassword(alice)).password;
});
after(async () => {
  await w?.close();
  await files?.close();
  await proxy?.close();
});

const records = async (did: string) => (await x.query('com.atproto.repo.listRecords', { repo: did, collection: POST, limit: '100' })).body.records as any[];
const withText = async (did: string, text: string) => (await records(did)).filter((r) => r.value.text === text);

async function waitComment(postId: string) {
  for (let i = 0; i < 200; i++) {
    const post = (await w.h.request('GET', `/v1/posts/${postId}`)).body;
    const comment = post.platforms[0].firstComment;
    if (comment && comment.status !== 'pending' && comment.status !== 'publishing') return post;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the first comment never finished');
}

test('connect with an app password on the real PDS; wrong password 400 CREDENTIALS_INVALID; GET says to send the password', async () => {
  const start = await w.h.request('GET', '/v1/connect/bluesky?redirect_url=https://app.example.com/cb');
  assert.equal(start.status, 400);
  assert.equal(start.body.code, 'APP_PASSWORD_REQUIRED');

  const wrong = await w.h.request('POST', '/v1/connect/bluesky', { body: { identifier: alice.handle, appPassword: 'aaaa-bbbb-cccc-dddd', service: pds().url } });
  assert.equal(wrong.status, 400);
  assert.equal(wrong.body.code, 'CREDENTIALS_INVALID');
  assert.match(wrong.body.error, /Invalid identifier or password/);

  const res = await w.h.request('POST', '/v1/connect/bluesky', { body: { identifier: alice.handle, appPassword, service: pds().url } });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.platform, 'bluesky');
  assert.equal(res.body.accountId, alice.did);
  assert.equal(res.body.username, alice.handle);
  accountId = res.body.accountId;

  const list = await w.h.request('GET', '/v1/accounts?platform=bluesky');
  assert.equal(list.body.accounts.length, 1);
  assert.equal(list.body.accounts[0].status, 'active');
  const health = await w.h.request('GET', '/v1/accounts/health');
  const entry = health.body.accounts.find((a: any) => a.platform === 'bluesky');
  assert.equal(entry.health, 'healthy', health.text);
  assert.equal(entry.tokenValid, true);
  assert.deepEqual(entry.permissions, ['com.atproto.appPass']);
  assert.deepEqual(entry.missingPermissions, []);
});

test('publishNow: facets, an image with alt text, a thread and the first comment, each exactly once on the PDS', async () => {
  const text = `hello @${bob.handle} #herald ${Date.now()}`;
  const post = await publishNow(w.h, {
    content: text,
    mediaItems: [{ type: 'image', url: files.put('/e2e.png', png(undefined, 8, 6), 'image/png') }],
    platforms: [{ platform: 'bluesky', accountId, platformSpecificData: { langs: ['en'], threadItems: [{ content: `${text} (2)` }], firstComment: `${text} (comment)` } }],
  });
  assert.equal(post.status, 'published', JSON.stringify(post));
  const [target] = post.platforms;
  assert.match(target.platformPostId, new RegExp(`^at://${alice.did}/app\\.bsky\\.feed\\.post/[a-z2-7]{13}$`));
  assert.equal(target.platformPostUrl, `https://bsky.app/profile/${alice.handle}/post/${target.platformPostId.split('/').pop()}`);

  const [main] = await withText(alice.did, text);
  assert.equal((await withText(alice.did, text)).length, 1);
  assert.equal(main.uri, target.platformPostId);
  assert.deepEqual(main.value.langs, ['en']);
  assert.deepEqual(main.value.embed.images[0].aspectRatio, { width: 8, height: 6 });
  assert.deepEqual(main.value.facets.map((f: any) => f.features[0].$type), ['app.bsky.richtext.facet#mention', 'app.bsky.richtext.facet#tag']);
  const thread = await withText(alice.did, `${text} (2)`);
  assert.equal(thread.length, 1);
  assert.equal(thread[0].value.reply.parent.uri, main.uri);

  const done = await waitComment(post.id);
  assert.equal(done.platforms[0].firstComment.status, 'published', JSON.stringify(done.platforms[0]));
  const comments = await withText(alice.did, `${text} (comment)`);
  assert.equal(comments.length, 1);
  assert.equal(done.platforms[0].firstComment.platformCommentId, comments[0].uri);
  assert.deepEqual(comments[0].value.reply.root, { uri: main.uri, cid: main.cid });
});

test('a create whose answer is lost after the PDS committed, and whose read-back fails: reconciled to exactly one post', async () => {
  // The account's server is the proxy: what Herald sends reaches the PDS, some answers do not come back.
  const viaProxy = await w.h.request('POST', '/v1/connect/bluesky', { body: { identifier: alice.handle, appPassword, service: proxy.url } });
  assert.equal(viaProxy.status, 200, viaProxy.text);
  proxy.cut({ path: 'com.atproto.repo.createRecord', when: 'after', count: 1 });
  proxy.cut({ path: 'com.atproto.repo.getRecord', when: 'before', count: 1 });
  const text = `crash between create and answer ${Date.now()}`;
  const created = await publishNow(w.h, { content: text, platforms: [{ platform: 'bluesky', accountId }] });
  const post = created.status === 'published' ? created : await waitFinal(w.h, created.id);
  assert.equal(post.status, 'published', JSON.stringify(post));
  const found = await withText(alice.did, text);
  assert.equal(found.length, 1, 'listRecords shows exactly one post');
  assert.equal(post.platforms[0].platformPostId, found[0].uri);
  assert.equal(proxy.forwarded.filter((c) => c.startsWith('POST /xrpc/com.atproto.repo.createRecord')).length, 1, 'one create reached the PDS');
});

test('unpublish deletes the post and its thread from the PDS', async () => {
  const text = `to unpublish ${Date.now()}`;
  const post = await publishNow(w.h, { content: text, platforms: [{ platform: 'bluesky', accountId, platformSpecificData: { threadItems: [{ content: `${text} (2)` }] } }] });
  assert.equal(post.status, 'published', JSON.stringify(post));
  const res = await w.h.request('POST', `/v1/posts/${post.id}/unpublish`, { body: {} });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body.platforms, [{ platform: 'bluesky', accountId, unpublished: true }]);
  assert.equal((await withText(alice.did, text)).length, 0);
  assert.equal((await withText(alice.did, `${text} (2)`)).length, 0);
});

test('create-time rules: 300 graphemes, ≤ 4 images or 1 video, no mixing; validate counts graphemes', async () => {
  const target = (extra: Record<string, unknown> = {}) => [{ platform: 'bluesky', accountId, ...extra }];
  const long = await w.h.request('POST', '/v1/posts', { body: { publishNow: true, content: '👍🏽'.repeat(301), platforms: target() } });
  assert.equal(long.status, 422, long.text);
  assert.equal(long.body.param, 'content');
  assert.match(long.body.error, /at most 300 characters \(graphemes\); this one has 301/);
  const img = { type: 'image', url: files.put('/r.png', png(), 'image/png') };
  const five = await w.h.request('POST', '/v1/posts', { body: { publishNow: true, content: 'x', mediaItems: [img, img, img, img, img], platforms: target() } });
  assert.equal(five.status, 422);
  assert.match(five.body.error, /up to 4 images per post; this one has 5/);
  const mixed = await w.h.request('POST', '/v1/posts', { body: { publishNow: true, content: 'x', mediaItems: [img, { type: 'video', url: files.put('/r.mp4', 'x', 'video/mp4') }], platforms: target() } });
  assert.equal(mixed.status, 422);
  assert.match(mixed.body.error, /cannot mix images and a video/);
  const langs = await w.h.request('POST', '/v1/posts', { body: { publishNow: true, content: 'x', platforms: target({ platformSpecificData: { langs: ['en', 'fr', 'de', 'es'] } }) } });
  assert.equal(langs.status, 400, langs.text);
  const validated = await w.h.request('POST', '/v1/posts/validate', { body: { publishNow: true, content: '👍🏽'.repeat(300), platforms: target() } });
  assert.equal(validated.status, 200, validated.text);
  assert.equal(validated.body.valid, true, validated.text);
  assert.deepEqual(validated.body.targets[0].characters, { used: 300, limit: 300 });
});

test('the built-in emulator: a sandbox account by default service, a create that commits and hangs posts once, an expired token is refreshed, disconnect ends the session', async () => {
  const emu = w.emu('bluesky');
  const res = await w.h.request('POST', '/v1/connect/bluesky', { body: { identifier: 'herald.bsky.social', appPassword: 'abcd-efgh-ijkl-mnop' } });
  assert.equal(res.status, 200, res.text);
  const sandboxId = res.body.accountId;
  const list = (await w.h.request('GET', '/v1/accounts?platform=bluesky')).body.accounts;
  assert.equal(list.find((a: any) => a.accountId === sandboxId).displayName, 'Sandbox herald');

  emu.faults.add({ kind: 'accept_then_hang', path: 'com.atproto.repo.createRecord' });
  const text = `sandbox hang ${Date.now()}`;
  const created = await publishNow(w.h, { content: text, platforms: [{ platform: 'bluesky', accountId: sandboxId }] });
  const post = created.status === 'published' ? created : await waitFinal(w.h, created.id);
  assert.equal(post.status, 'published', JSON.stringify(post));
  assert.equal(posted(emu, { text }).length, 1);

  assert.ok(emu.oauth.expireAccessTokens() > 0);
  const refreshes = calls(emu, 'POST', 'com.atproto.server.refreshSession');
  const after = await publishNow(w.h, { content: `after expiry ${Date.now()}`, platforms: [{ platform: 'bluesky', accountId: sandboxId }] });
  assert.equal(after.status, 'published', JSON.stringify(after));
  assert.equal(calls(emu, 'POST', 'com.atproto.server.refreshSession'), refreshes + 1);

  const gone = await w.h.request('DELETE', `/v1/accounts/bluesky/${sandboxId}`);
  assert.deepEqual(gone.body, { deleted: true, revoked: true });
  assert.equal(calls(emu, 'POST', 'com.atproto.server.deleteSession'), 1);
});
