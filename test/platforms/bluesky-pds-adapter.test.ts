// Herald's Bluesky adapter against the real PDS (@atproto/pds on 127.0.0.1): sign-in with an app password,
// sessions, text with facets, link cards, images, video, threads, the first reply, a create whose answer
// is lost (a forwarding proxy cuts the connection after the PDS committed), and unpublish. Only
// com.atproto.* reads exist offline (no AppView), and they are what the adapter reconciles with.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createBlueskyAdapter } from '../../src/platforms/bluesky/adapter.ts';
import { encodeTid } from '../../src/platforms/bluesky/tid.ts';
import type { AccountCredentials, PlatformAdapter } from '../../src/platforms/types.ts';
import { tokenId, usePds, type PdsAccount } from '../helpers/pds.ts';
import { blueskyDeps, mp4, png, POST, publishRequest, signIn, startFileServer, xrpcClient, type FileServer } from './bluesky-helpers.ts';
import { startFaultProxy, type FaultProxy } from './bluesky-proxy.ts';

const pds = usePds();
const x = xrpcClient(() => pds().url);
let files: FileServer;
let proxy: FaultProxy;
let adapter: PlatformAdapter;
let alice: PdsAccount;
let bob: PdsAccount;
let alicePassword: string;
let creds: AccountCredentials;

before(async () => {
  await pds.ready;
  files = await startFileServer();
  proxy = await startFaultProxy(() => pds().url);
  adapter = createBlueskyAdapter(blueskyDeps(pds().url));
  alice = await pds().createAccount();
  bob = await pds().createAccount();
  alicePassword = (await pds().createAppPassword(alice)).password;
  // A profile, as the Bluesky app writes one: display name and avatar.
  const avatar = (await x.upload(png(), 'image/png', alice.accessJwt)).body.blob;
  const profile = await x.call('com.atproto.repo.putRecord', { repo: alice.did, collection: 'app.bsky.actor.profile', rkey: 'self', record: { $type: 'app.bsky.actor.profile', displayName: 'Alice Herald', avatar } }, alice.accessJwt);
  assert.equal(profile.status, 200, profile.text);
  creds = await signIn(adapter, { identifier: alice.handle, password: alicePassword, serverUrl: pds().url });
});
after(async () => {
  await files?.close();
  await proxy?.close();
});

const record = async (uri: string) => {
  const rkey = uri.slice(uri.lastIndexOf('/') + 1);
  const did = uri.slice('at://'.length, uri.indexOf('/', 'at://'.length));
  return x.query('com.atproto.repo.getRecord', { repo: did, collection: POST, rkey });
};
const postsWith = async (did: string, text: string) => {
  const listed = await x.query('com.atproto.repo.listRecords', { repo: did, collection: POST, limit: '100' });
  return listed.body.records.filter((r: any) => r.value.text === text);
};

test('connect: the DID is the account id, the handle the username, the profile gives display name and avatar; the session is the grant', async () => {
  const connected = await adapter.connectWithPassword!({ identifier: alice.handle, password: alicePassword, serverUrl: pds().url });
  assert.ok(connected.ok, JSON.stringify(connected));
  const [account] = connected.accounts;
  assert.equal(account!.accountId, alice.did);
  assert.equal(account!.username, alice.handle);
  assert.equal(account!.displayName, 'Alice Herald');
  assert.match(account!.avatarUrl!, new RegExp(`^${pds().url}/xrpc/com\\.atproto\\.sync\\.getBlob\\?did=`));
  assert.equal((await fetch(account!.avatarUrl!)).status, 200);
  assert.deepEqual(account!.meta, { serverUrl: pds().url, handle: alice.handle });
  assert.deepEqual(account!.grant.scopes, ['com.atproto.appPass']);
  const lifetime = account!.grant.expiresAt! - Date.now();
  assert.ok(lifetime > 7100_000 && lifetime <= 7200_000, `access token lifetime ${lifetime}`);
  assert.ok(account!.grant.refreshExpiresAt! - Date.now() > 89 * 86400_000);

  const wrong = await adapter.connectWithPassword!({ identifier: alice.handle, password: 'aaaa-bbbb-cccc-dddd', serverUrl: pds().url });
  assert.equal(wrong.ok, false);
  assert.equal(!wrong.ok && wrong.category, 'auth_expired');
  assert.match(!wrong.ok ? wrong.message : '', /Invalid identifier or password/);
});

test('health, refresh (rotation; the old refresh token answers the same pair) and revoke (deleteSession)', async () => {
  const own = await signIn(adapter, { identifier: alice.handle, password: alicePassword, serverUrl: pds().url });
  const health = await adapter.health(own);
  assert.ok(health.ok, JSON.stringify(health));
  assert.deepEqual(health.permissions, ['com.atproto.appPass']);
  assert.equal(health.expiresAt, own.expiresAt);
  const refreshed = await adapter.refresh(own);
  assert.ok(refreshed.ok, JSON.stringify(refreshed));
  assert.notEqual(refreshed.grant.refreshToken, own.refreshToken);
  const again = await adapter.refresh(own);
  assert.ok(again.ok);
  assert.ok(again.ok && tokenId(again.grant.refreshToken));
  assert.equal(again.ok && tokenId(again.grant.refreshToken), tokenId(refreshed.grant.refreshToken));
  const next = { ...own, accessToken: refreshed.grant.accessToken, refreshToken: refreshed.grant.refreshToken! };
  assert.deepEqual(await adapter.revoke(next), { ok: true, revoked: true });
  const dead = await adapter.refresh(next);
  assert.equal(dead.ok, false);
  assert.equal(!dead.ok && dead.category, 'auth_expired');
  assert.match(!dead.ok ? dead.message : '', /Token has been revoked/);
});

test('text with a mention, an unresolvable mention, a link, a hashtag and emoji: facets at UTF-8 byte offsets; langs', async () => {
  const link = `${files.url}/a?b=1`;
  const text = `héllo @${bob.handle} and @nobody${pds().handleDomain} 🎉 see ${link}. #herald!`;
  const request = publishRequest(creds, text, { settings: { langs: ['en', 'pt-BR'] } });
  const out = await adapter.publish(request);
  assert.ok(out.ok, JSON.stringify(out));
  assert.match(out.platformPostId, new RegExp(`^at://${alice.did}/app\\.bsky\\.feed\\.post/[a-z2-7]{13}$`));
  assert.equal(out.platformPostUrl, `https://bsky.app/profile/${alice.handle}/post/${out.platformPostId.split('/').pop()}`);
  const stored = (await record(out.platformPostId)).body.value;
  assert.deepEqual(stored.langs, ['en', 'pt-BR']);
  const bytes = Buffer.from(text);
  const slices = stored.facets.map((f: any) => [bytes.subarray(f.index.byteStart, f.index.byteEnd).toString(), f.features[0]]);
  assert.deepEqual(slices, [
    [`@${bob.handle}`, { $type: 'app.bsky.richtext.facet#mention', did: bob.did }],
    [link, { $type: 'app.bsky.richtext.facet#link', uri: link }],
    ['#herald', { $type: 'app.bsky.richtext.facet#tag', tag: 'herald' }],
  ]);
  // No link card: the page is missing (404), and a card is best effort.
  assert.equal(stored.embed, undefined);
  assert.deepEqual(await postsWith(alice.did, text).then((r) => r.length), 1);
});

test('a link alone gets a card: title, description and the og:image as its thumbnail', async () => {
  const image = files.put('/card.png', png(500, 40, 21), 'image/png');
  const page = files.put('/article.html', `<html><head><title>ignored</title><meta property="og:title" content="Herald &amp; friends"><meta property="og:description" content="A page about posting."><meta property="og:image" content="${image}"></head><body></body></html>`, 'text/html; charset=utf-8');
  const out = await adapter.publish(publishRequest(creds, `read this ${page}`));
  assert.ok(out.ok, JSON.stringify(out));
  const embed = (await record(out.platformPostId)).body.value.embed;
  assert.equal(embed.$type, 'app.bsky.embed.external');
  assert.equal(embed.external.uri, page);
  assert.equal(embed.external.title, 'Herald & friends');
  assert.equal(embed.external.description, 'A page about posting.');
  assert.equal(embed.external.thumb.mimeType, 'image/png');
  assert.equal(embed.external.thumb.size, 500);
  // A page that cannot be read: the post goes out without a card.
  const none = await adapter.publish(publishRequest(creds, `gone ${files.url}/missing.html`));
  assert.ok(none.ok, JSON.stringify(none));
  assert.equal((await record(none.platformPostId)).body.value.embed, undefined);
});

test('images: up to four, with alt text and the aspect ratio read from the pixels; one over 2,000,000 bytes fails clearly', async () => {
  const wide = files.put('/wide.png', png(undefined, 16, 9), 'image/png');
  const tall = files.put('/tall.png', png(undefined, 3, 4), 'image/png');
  const request = publishRequest(creds, 'two images', {
    media: [
      { type: 'image', url: wide, altText: 'a wide one' },
      { type: 'image', url: tall },
    ],
  });
  const out = await adapter.publish(request);
  assert.ok(out.ok, JSON.stringify(out));
  const images = (await record(out.platformPostId)).body.value.embed.images;
  assert.deepEqual(images.map((i: any) => [i.alt, i.aspectRatio, i.image.mimeType]), [
    ['a wide one', { width: 16, height: 9 }, 'image/png'],
    ['', { width: 3, height: 4 }, 'image/png'],
  ]);

  const big = files.put('/big.png', png(2_000_001), 'image/png');
  const refused = await adapter.publish(publishRequest(creds, 'too big', { media: [{ type: 'image', url: big }] }));
  assert.equal(refused.ok, false);
  assert.equal(!refused.ok && refused.category, 'media_rejected');
  assert.match(!refused.ok ? refused.message : '', /2,000,001 bytes; Bluesky takes images of at most 2,000,000 bytes/);
  assert.equal((await postsWith(alice.did, 'too big')).length, 0);
});

test('video: an MP4 blob in app.bsky.embed.video with its aspect ratio (no video service offline)', async () => {
  const video = files.put('/clip.mp4', mp4(3_000_000, 1080, 1920), 'video/mp4');
  const out = await adapter.publish(publishRequest(creds, 'a clip', { media: [{ type: 'video', url: video, altText: 'a test pattern' }] }));
  assert.ok(out.ok, JSON.stringify(out));
  const embed = (await record(out.platformPostId)).body.value.embed;
  assert.equal(embed.$type, 'app.bsky.embed.video');
  assert.equal(embed.video.mimeType, 'video/mp4');
  assert.equal(embed.video.size, 3_000_000);
  assert.equal(embed.alt, 'a test pattern');
  assert.deepEqual(embed.aspectRatio, { width: 1080, height: 1920 });
});

test('a thread: each item replies to the one before with uri and cid, the root is the first post', async () => {
  const request = publishRequest(creds, 'thread 1/3', { settings: { threadItems: [{ content: 'thread 2/3' }, { content: 'thread 3/3', mediaItems: [{ type: 'image', url: files.put('/t.png', png(), 'image/png') }] }] } });
  const out = await adapter.publish(request);
  assert.ok(out.ok, JSON.stringify(out));
  const posts = request.checkpoint!.posts as { rkey: string; uri: string; cid: string }[];
  assert.equal(posts.length, 3);
  assert.equal(posts[0]!.uri, out.platformPostId);
  const second = (await record(posts[1]!.uri)).body.value;
  const third = (await record(posts[2]!.uri)).body.value;
  assert.deepEqual(second.reply, { root: { uri: posts[0]!.uri, cid: posts[0]!.cid }, parent: { uri: posts[0]!.uri, cid: posts[0]!.cid } });
  assert.deepEqual(third.reply, { root: { uri: posts[0]!.uri, cid: posts[0]!.cid }, parent: { uri: posts[1]!.uri, cid: posts[1]!.cid } });
  assert.equal(third.embed.$type, 'app.bsky.embed.images');

  // Unpublish takes the whole thread down, newest first; again is fine.
  const request2 = { account: creds, platformPostId: out.platformPostId, checkpoint: request.checkpoint };
  assert.deepEqual(await adapter.unpublish!(request2), { ok: true, deleted: true });
  for (const p of posts) assert.equal((await record(p.uri)).body.error, 'RecordNotFound');
  assert.deepEqual(await adapter.unpublish!(request2), { ok: true, deleted: true });
});

test('the first comment: a reply to the post (root = parent = the post), found again by its key', async () => {
  const out = await adapter.publish(publishRequest(creds, 'a post with a comment'));
  assert.ok(out.ok);
  const saved: Record<string, unknown>[] = [];
  const request = {
    account: creds,
    platformPostId: out.platformPostId,
    content: 'the first comment, see #herald',
    settings: {},
    checkpoint: null as Record<string, unknown> | null,
    async saveCheckpoint(cp: Record<string, unknown>) {
      saved.push(cp);
      request.checkpoint = cp;
    },
    attemptStartedAt: Date.now(),
  };
  const sent = await adapter.comment!.send(request);
  assert.ok(sent.ok, JSON.stringify(sent));
  const value = (await record(sent.platformCommentId)).body.value;
  const root = (await record(out.platformPostId)).body;
  assert.deepEqual(value.reply, { root: { uri: root.uri, cid: root.cid }, parent: { uri: root.uri, cid: root.cid } });
  assert.equal(value.facets[0].features[0].tag, 'herald');
  assert.deepEqual(await adapter.comment!.find(request), { ok: true, found: true, platformCommentId: sent.platformCommentId });
  // Sent again with its checkpoint (a retry after a lost answer): the same comment, not a second one.
  const again = await adapter.comment!.send(request);
  assert.deepEqual(again, { ok: true, platformCommentId: sent.platformCommentId });
  assert.equal((await postsWith(alice.did, 'the first comment, see #herald')).length, 1);
});

test('a create whose answer is lost after the PDS committed: read back by its key, published exactly once', async () => {
  const viaProxy = createBlueskyAdapter(blueskyDeps(proxy.url));
  const account = { ...creds, meta: { ...creds.meta, serverUrl: proxy.url } };
  proxy.cut({ path: 'com.atproto.repo.createRecord', when: 'after', count: 1 });
  const text = `lost answer ${Date.now()}`;
  const out = await viaProxy.publish(publishRequest(account, text));
  assert.ok(out.ok, JSON.stringify(out));
  const found = await postsWith(alice.did, text);
  assert.equal(found.length, 1);
  assert.equal(found[0].uri, out.platformPostId);
});

test('a lost answer and a failed read-back: outcome_unknown, then reconcile finds exactly one post; a retry under the same key posts nothing new', async () => {
  const viaProxy = createBlueskyAdapter(blueskyDeps(proxy.url));
  const account = { ...creds, meta: { ...creds.meta, serverUrl: proxy.url } };
  proxy.cut({ path: 'com.atproto.repo.createRecord', when: 'after', count: 1 });
  proxy.cut({ path: 'com.atproto.repo.getRecord', when: 'before', count: 1 });
  const text = `unknown outcome ${Date.now()}`;
  const request = publishRequest(account, text);
  const out = await viaProxy.publish(request);
  assert.equal(out.ok, false);
  assert.equal(!out.ok && out.category, 'outcome_unknown');
  assert.equal((request.checkpoint!.posts as unknown[]).length, 1, 'the key was saved before the create');

  const reconciled = await viaProxy.reconcile(request);
  assert.ok(reconciled.ok && reconciled.found === true, JSON.stringify(reconciled));
  const found = await postsWith(alice.did, text);
  assert.equal(found.length, 1);
  assert.equal(reconciled.platformPostId, found[0].uri);

  // The PDS itself refuses a second record under that key: an anonymous 500, read back as the same post.
  const { rkey } = (request.checkpoint!.posts as { rkey: string }[])[0]!;
  const retry = await adapter.publish(publishRequest(creds, text, { checkpoint: { posts: [{ rkey }] } }));
  assert.ok(retry.ok, JSON.stringify(retry));
  assert.equal(retry.platformPostId, found[0].uri);
  assert.equal((await postsWith(alice.did, text)).length, 1);
});

test('two posts that draw the same record key: the second sees another text under it and takes a new key', async () => {
  const fixed = encodeTid(BigInt(Date.now()) * 1000n, 1);
  let n = 0;
  const colliding = createBlueskyAdapter(blueskyDeps(pds().url), { tids: { next: () => (n++ < 2 ? fixed : encodeTid(BigInt(Date.now()) * 1000n + BigInt(n), 2)) } });
  const first = await colliding.publish(publishRequest(creds, 'collision A'));
  assert.ok(first.ok);
  const second = await colliding.publish(publishRequest(creds, 'collision B'));
  assert.ok(second.ok, JSON.stringify(second));
  assert.notEqual(second.platformPostId, first.platformPostId);
  assert.equal((await postsWith(alice.did, 'collision A')).length, 1);
  assert.equal((await postsWith(alice.did, 'collision B')).length, 1);
});
