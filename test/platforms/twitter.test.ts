// The X adapter against the X emulator over real HTTP on 127.0.0.1.
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTwitterAdapter } from '../../src/platforms/twitter/adapter.ts';
import { createPlatformHttp } from '../../src/platforms/http.ts';
import type { AccountCredentials, Checkpoint, MediaItem, PlatformAdapter, PublishRequest } from '../../src/platforms/types.ts';
import { startEmulatorServer, type EmulatorServer } from '../../src/sandbox/server.ts';
import { createTwitterEmulator } from '../../src/sandbox/twitter/emulator.ts';
import type { Emulator } from '../../src/sandbox/kit/emulator.ts';
import { adapterDeps, approveConsent } from '../helpers/platform.ts';

const REDIRECT = 'https://herald.example/callback';
let emu: Emulator;
let server: EmulatorServer;
let adapter: PlatformAdapter;
let junk: Server;
let junkUrl: string;

function makeAdapter(timeoutMs?: number): PlatformAdapter {
  const root = server.rootOf('twitter');
  const overrides = timeoutMs ? { http: createPlatformHttp({ timeoutMs }) } : {};
  return createTwitterAdapter(adapterDeps({ apiUrl: root, authUrl: `${root}/i/oauth2/authorize` }, overrides));
}

before(async () => {
  emu = createTwitterEmulator({ processingMs: 60 });
  server = await startEmulatorServer([emu]);
  adapter = makeAdapter();
  // Serves bytes that are no known media format, labelled as a video.
  junk = createServer((_req, res) => res.setHeader('content-type', 'video/mp4').end(Buffer.alloc(4096, 7)));
  await new Promise<void>((resolve) => junk.listen(0, '127.0.0.1', resolve));
  junkUrl = `http://127.0.0.1:${(junk.address() as AddressInfo).port}/clip.mp4`;
});
after(async () => {
  await server.close();
  await new Promise((resolve) => junk.close(resolve));
});
beforeEach(() => emu.faults.clear());

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

async function connect(user: string, subscription = 'None', a: PlatformAdapter = adapter): Promise<AccountCredentials> {
  const { verifier, challenge } = pkce();
  const url = a.authorizeUrl({ state: `st-${user}`, redirectUri: REDIRECT, codeChallenge: challenge });
  const { code } = await approveConsent(url, { sandbox_user: user, sandbox_subscription: subscription });
  const out = await a.connect({ code, redirectUri: REDIRECT, codeVerifier: verifier });
  assert.ok(out.ok, JSON.stringify(out));
  const c = out.accounts[0]!;
  return { accountId: c.accountId, username: c.username, accessToken: c.grant.accessToken, refreshToken: c.grant.refreshToken ?? null, expiresAt: c.grant.expiresAt, scopes: c.grant.scopes, meta: c.meta };
}

/** A publish request whose saveCheckpoint keeps the latest checkpoint, as the engine would. */
function publishRequest(account: AccountCredentials, content: string, media: MediaItem[] = [], settings: Record<string, unknown> = {}) {
  const saved: Checkpoint[] = [];
  const request: PublishRequest = {
    account,
    content,
    media,
    settings,
    checkpoint: null,
    attemptStartedAt: Date.now(),
    saveCheckpoint: async (c) => {
      saved.push(c);
    },
  };
  return { request, saved, again: (): PublishRequest => ({ ...request, checkpoint: saved.at(-1) ?? null, attemptStartedAt: Date.now() }) };
}

const media = (name: string, type: MediaItem['type'] = 'image', bytes?: number): MediaItem => ({
  type,
  url: `${server.mediaUrl}/${name}${bytes ? `?bytes=${bytes}` : ''}`,
});
const calls = (method: string, path: string) => emu.calls.filter((c) => c.method === method && c.path.startsWith(path)).length;

test('connect: authorize URL with PKCE S256, consent, code exchange, identity', async () => {
  const { verifier, challenge } = pkce();
  const url = new URL(adapter.authorizeUrl({ state: 'xyz', redirectUri: REDIRECT, codeChallenge: challenge }));
  assert.equal(url.pathname, '/twitter/i/oauth2/authorize');
  assert.equal(url.searchParams.get('response_type'), 'code');
  assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
  assert.equal(url.searchParams.get('scope'), 'tweet.read tweet.write users.read media.write offline.access');
  assert.match(url.search, /scope=tweet\.read%20tweet\.write/);
  const { code, state } = await approveConsent(url.toString(), { sandbox_user: 'carol' });
  assert.equal(state, 'xyz');

  const wrong = await adapter.connect({ code, redirectUri: REDIRECT, codeVerifier: pkce().verifier });
  assert.equal(wrong.ok, false, 'a verifier that does not match the challenge is refused');
  const { code: code2 } = await approveConsent(url.toString(), { sandbox_user: 'carol' });
  const connectedFrom = Date.now();
  const out = await adapter.connect({ code: code2, redirectUri: REDIRECT, codeVerifier: verifier });
  const connectedBy = Date.now();
  assert.ok(out.ok);
  const [acct] = out.accounts;
  assert.match(acct!.accountId, /^\d{16,}$/);
  assert.equal(acct!.username, 'carol');
  assert.equal(acct!.displayName, 'Carol');
  assert.ok(acct!.avatarUrl?.startsWith('https://'));
  assert.deepEqual(acct!.grant.scopes, ['tweet.read', 'tweet.write', 'users.read', 'media.write', 'offline.access']);
  assert.ok(acct!.grant.refreshToken);
  // Two hours from the exchange (expires_in is whole seconds), however long the exchange took.
  const expiresAt = acct!.grant.expiresAt!;
  assert.ok(expiresAt >= connectedFrom + 7_200_000 - 1_000 && expiresAt <= connectedBy + 7_200_000, `expiresAt ${expiresAt - connectedFrom} ms ahead`);
  assert.deepEqual(acct!.meta, { subscriptionType: 'None', verifiedType: 'none' });
  const reused = await adapter.connect({ code: code2, redirectUri: REDIRECT, codeVerifier: verifier });
  assert.ok(!reused.ok && reused.category === 'auth_expired', 'a code works once');
});

test('health reports stored scopes and picks up a changed subscription', async () => {
  const account = await connect('dana');
  const h = await adapter.health(account);
  assert.ok(h.ok);
  assert.deepEqual(h.permissions, account.scopes);
  assert.equal(h.expiresAt, account.expiresAt);
  assert.equal(h.meta?.subscriptionType, 'None');
  await connect('dana', 'PremiumPlus'); // the user upgrades and consents again
  const later = await adapter.health(account);
  assert.ok(later.ok);
  assert.equal(later.meta?.subscriptionType, 'PremiumPlus');
});

test('refresh rotates the refresh token: the old one stops working', async () => {
  const account = await connect('erin');
  const r = await adapter.refresh(account);
  assert.ok(r.ok);
  assert.notEqual(r.grant.accessToken, account.accessToken);
  assert.ok(r.grant.refreshToken && r.grant.refreshToken !== account.refreshToken);
  assert.ok((await adapter.health({ ...account, accessToken: r.grant.accessToken })).ok);
  const replay = await adapter.refresh(account);
  assert.ok(!replay.ok);
  assert.equal(replay.category, 'auth_expired');
  assert.ok(!replay.message.includes(account.refreshToken!), 'no token in the message');
});

test('an expired access token gives auth_expired; a refresh fixes it', async () => {
  const account = await connect('frank');
  emu.oauth.expireAccessTokens(account.accountId);
  const h = await adapter.health(account);
  assert.ok(!h.ok);
  assert.equal(h.category, 'auth_expired');
  const p = await adapter.publish(publishRequest(account, 'while expired').request);
  assert.ok(!p.ok && p.category === 'auth_expired');
  const r = await adapter.refresh(account);
  assert.ok(r.ok);
  assert.ok((await adapter.health({ ...account, accessToken: r.grant.accessToken })).ok);
  assert.equal(emu.ledger.list({ accountId: account.accountId }).length, 0);
});

test('revoke kills both tokens', async () => {
  const account = await connect('gina');
  const out = await adapter.revoke(account);
  assert.deepEqual(out, { ok: true, revoked: true });
  const h = await adapter.health(account);
  assert.ok(!h.ok && h.category === 'auth_expired');
  const r = await adapter.refresh(account);
  assert.ok(!r.ok && r.category === 'auth_expired');
});

test('publish text, 1 image and 4 images', async () => {
  const account = await connect('hank');
  const text = await adapter.publish(publishRequest(account, 'Hello from Herald 👋').request);
  assert.ok(text.ok);
  assert.match(text.platformPostId, /^\d{18,}$/);
  assert.equal(text.platformPostUrl, `https://x.com/hank/status/${text.platformPostId}`);
  assert.equal(emu.ledger.get(text.platformPostId)?.text, 'Hello from Herald 👋');

  const one = await adapter.publish(publishRequest(account, 'one picture', [media('sample.jpg')]).request);
  assert.ok(one.ok);
  assert.deepEqual(emu.ledger.get(one.platformPostId)?.media.map((m) => m.type), ['image']);

  const before = calls('POST', '/2/media/upload');
  const four = await adapter.publish(publishRequest(account, 'four pictures', [media('sample.jpg'), media('sample.png'), media('sample.jpg'), media('sample.png')]).request);
  assert.ok(four.ok);
  assert.equal(emu.ledger.get(four.platformPostId)?.media.length, 4);
  assert.equal(calls('POST', '/2/media/upload') - before, 4, 'each image uploaded once, one-shot');
});

test('publish a video: chunked upload, processing polled until ready', async () => {
  const account = await connect('iris');
  const appends = calls('POST', '/2/media/upload/');
  const out = await adapter.publish(publishRequest(account, 'a video', [media('sample.mp4', 'video', 9_000_000)]).request);
  assert.ok(out.ok, JSON.stringify(out));
  const chunked = emu.calls.filter((c) => c.path.startsWith('/2/media/upload/')).slice(-5).map((c) => c.path.replace(/\d{6,}/, 'ID'));
  assert.deepEqual(chunked, ['/2/media/upload/initialize', '/2/media/upload/ID/append', '/2/media/upload/ID/append', '/2/media/upload/ID/append', '/2/media/upload/ID/finalize']);
  assert.equal(calls('POST', '/2/media/upload/') - appends, 5);
  assert.ok(calls('GET', '/2/media/upload') >= 1, 'STATUS was polled');
  assert.deepEqual(emu.ledger.get(out.platformPostId)?.media.map((m) => m.type), ['video']);
});

test('media X cannot process, or cannot be fetched, is media_rejected and nothing is posted', async () => {
  const account = await connect('jack');
  const bad = await adapter.publish(publishRequest(account, 'broken video', [{ type: 'video', url: junkUrl }]).request);
  assert.ok(!bad.ok);
  assert.equal(bad.category, 'media_rejected');
  assert.match(bad.message, /Invalid or Unsupported media/);
  const missing = await adapter.publish(publishRequest(account, 'missing', [media('nope.jpg')]).request);
  assert.ok(!missing.ok && missing.category === 'media_rejected');
  assert.equal(emu.ledger.list({ accountId: account.accountId }).length, 0);
});

test('a thread posts each item as a reply to the one before, with reply settings, checkpointing as it goes', async () => {
  const account = await connect('kate');
  const settings = { threadItems: [{ content: 'part 2' }, { content: 'part 3', mediaItems: [media('sample.png')] }], replySettings: 'mentionedUsers' };
  const { request, saved } = publishRequest(account, 'part 1', [], settings);
  const out = await adapter.publish(request);
  assert.ok(out.ok);
  const posts = emu.ledger.list({ accountId: account.accountId });
  assert.deepEqual(posts.map((p) => [p.kind, p.text]), [['post', 'part 1'], ['reply', 'part 2'], ['reply', 'part 3']]);
  assert.equal(out.platformPostId, posts[0]!.id);
  assert.equal(posts[1]!.extra?.inReplyTo, posts[0]!.id);
  assert.equal(posts[2]!.extra?.inReplyTo, posts[1]!.id);
  assert.ok(posts.every((p) => p.extra?.replySettings === 'mentionedUsers'));
  assert.deepEqual(saved.map((c) => (c.postedIds as string[]).length), [1, 2, 3]);
});

test('edit: a paid account gets a new id; without a subscription, or past 5 edits, X refuses', async () => {
  const premium = await connect('lena', 'Premium');
  const first = await adapter.publish(publishRequest(premium, 'tpyo here').request);
  assert.ok(first.ok);
  let current = first.platformPostId;
  for (let i = 1; i <= 5; i++) {
    const e = await adapter.edit!.send({ account: premium, platformPostId: current, content: `typo fixed, take ${i}` });
    assert.ok(e.ok, JSON.stringify(e));
    assert.notEqual(e.platformPostId, current);
    assert.equal(e.platformPostUrl, `https://x.com/lena/status/${e.platformPostId}`);
    assert.equal(emu.ledger.get(e.platformPostId)?.extra?.previousPostId, current);
    current = e.platformPostId;
  }
  const sixth = await adapter.edit!.send({ account: premium, platformPostId: current, content: 'one more' });
  assert.ok(!sixth.ok);
  assert.equal(sixth.category, 'content_rejected');
  assert.match(sixth.message, /maximum number of edits/);

  const free = await connect('mike');
  const post = await adapter.publish(publishRequest(free, 'cannot edit me').request);
  assert.ok(post.ok);
  const refused = await adapter.edit!.send({ account: free, platformPostId: post.platformPostId, content: 'edited' });
  assert.ok(!refused.ok);
  assert.match(refused.message, /Premium/);
  assert.equal(emu.ledger.list({ accountId: free.accountId, kind: 'edit' }).length, 0);
});

test('injected faults map to categories', async () => {
  const account = await connect('nina');
  const cases: [Record<string, unknown>, string][] = [
    [{ kind: 'server_error' }, 'platform_unavailable'],
    [{ kind: 'validation', message: 'Text contains a banned phrase.' }, 'content_rejected'],
    [{ kind: 'permission' }, 'permission_missing'],
    [{ kind: 'expired_token' }, 'auth_expired'],
  ];
  for (const [rule, category] of cases) {
    emu.faults.add({ ...(rule as { kind: 'server_error' }), method: 'POST', path: '/2/tweets' });
    const out = await adapter.publish(publishRequest(account, `fault ${rule.kind}`).request);
    assert.ok(!out.ok);
    assert.equal(out.category, category, String(rule.kind));
  }
  emu.faults.add({ kind: 'validation', message: 'Text contains a banned phrase.', method: 'POST', path: '/2/tweets' });
  const v = await adapter.publish(publishRequest(account, 'banned').request);
  assert.ok(!v.ok && v.message === 'X rejected the post: Text contains a banned phrase.');

  emu.faults.add({ kind: 'rate_limited', resetSeconds: 120, method: 'POST', path: '/2/tweets' });
  const limitedFrom = Date.now();
  const limited = await adapter.publish(publishRequest(account, 'too fast').request);
  const limitedBy = Date.now();
  assert.ok(!limited.ok && limited.category === 'rate_limited');
  // X's reset is whole unix seconds, 120 s after it answered.
  assert.ok(limited.retryAt! >= limitedFrom + 119_000 && limited.retryAt! <= limitedBy + 121_000, `retryAt ${limited.retryAt! - limitedFrom} ms ahead`);

  emu.faults.add({ kind: 'drop', method: 'GET', path: '/2/users/me' });
  const h = await adapter.health(account);
  assert.ok(!h.ok && h.category === 'platform_unavailable', 'a read cut off is merely unavailable');
  assert.equal(emu.ledger.list({ accountId: account.accountId }).length, 0);
});

test('a dropped POST is outcome_unknown; reconcile then shows positively that nothing was posted', async () => {
  const account = await connect('olga');
  emu.faults.add({ kind: 'drop', method: 'POST', path: '/2/tweets' });
  const { request } = publishRequest(account, 'dropped on the floor');
  const out = await adapter.publish(request);
  assert.ok(!out.ok && out.category === 'outcome_unknown');
  const r = await adapter.reconcile(request);
  assert.deepEqual(r, { ok: true, found: false });
});

test('accept_then_hang on POST /2/tweets: outcome_unknown, reconcile finds the post, the ledger holds exactly one', async () => {
  const impatient = makeAdapter(400);
  const account = await connect('pete', 'None', impatient);
  emu.faults.add({ kind: 'accept_then_hang', method: 'POST', path: '/2/tweets' });
  const { request } = publishRequest(account, 'Did this go out? <maybe> & more https://example.com/a');
  const out = await impatient.publish(request);
  assert.ok(!out.ok);
  assert.equal(out.category, 'outcome_unknown');
  const r = await impatient.reconcile(request);
  const posts = emu.ledger.list({ accountId: account.accountId });
  assert.equal(posts.length, 1);
  assert.deepEqual(r, { ok: true, found: true, platformPostId: posts[0]!.id, platformPostUrl: `https://x.com/pete/status/${posts[0]!.id}` });
});

test('a thread interrupted midway resumes from its checkpoint without posting anything twice', async () => {
  const account = await connect('quinn');
  const settings = { threadItems: [{ content: 't2' }, { content: 't3' }, { content: 't4' }] };
  const { request, saved, again } = publishRequest(account, 't1', [], settings);
  // Once two posts are out, X falls over.
  request.saveCheckpoint = async (c) => {
    saved.push(c);
    if ((c.postedIds as string[]).length === 2) emu.faults.add({ kind: 'server_error', method: 'POST', path: '/2/tweets' });
  };
  const first = await adapter.publish(request);
  assert.ok(!first.ok && first.category === 'platform_unavailable');
  assert.match(first.message, /reply 2 of the thread/);
  assert.equal((saved.at(-1)!.postedIds as string[]).length, 2);

  const second = await adapter.publish(again());
  assert.ok(second.ok);
  const posts = emu.ledger.list({ accountId: account.accountId });
  assert.deepEqual(posts.map((p) => p.text), ['t1', 't2', 't3', 't4']);
  assert.equal(second.platformPostId, posts[0]!.id);
  for (let i = 1; i < posts.length; i++) assert.equal(posts[i]!.extra?.inReplyTo, posts[i - 1]!.id);
});

test('a thread item lost in a hang is found by reconcile, checkpointed, and the rest resumes', async () => {
  const impatient = makeAdapter(400);
  const account = await connect('rosa', 'None', impatient);
  const settings = { threadItems: [{ content: 'r2' }, { content: 'r3' }] };
  const { request, saved, again } = publishRequest(account, 'r1', [], settings);
  request.saveCheckpoint = async (c) => {
    saved.push(c);
    if ((c.postedIds as string[]).length === 1) emu.faults.add({ kind: 'accept_then_hang', method: 'POST', path: '/2/tweets' });
  };
  const first = await impatient.publish(request);
  assert.ok(!first.ok && first.category === 'outcome_unknown');

  const retry = again();
  retry.saveCheckpoint = async (c) => {
    saved.push(c);
  };
  const r = await impatient.reconcile(retry);
  assert.deepEqual(r, { ok: true, found: false }, 'r3 is positively missing');
  assert.equal((saved.at(-1)!.postedIds as string[]).length, 2, 'r2 was found and checkpointed');

  const done = await impatient.publish({ ...retry, checkpoint: saved.at(-1)! });
  assert.ok(done.ok);
  assert.deepEqual(emu.ledger.list({ accountId: account.accountId }).map((p) => p.text), ['r1', 'r2', 'r3']);
  const final = await impatient.reconcile({ ...retry, checkpoint: saved.at(-1)! });
  assert.ok(final.ok && final.found === true && final.platformPostId === done.platformPostId);
});
