// The Instagram adapter (Facebook Login path) against the Meta emulator over real HTTP on 127.0.0.1.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createInstagramAdapter } from '../../src/platforms/instagram/adapter.ts';
import { createPlatformHttp } from '../../src/platforms/http.ts';
import type { AccountCredentials, Checkpoint, ConnectedAccount, MediaItem, PlatformAdapter, PublishRequest } from '../../src/platforms/types.ts';
import { createMetaEmulator } from '../../src/sandbox/meta/emulator.ts';
import { startEmulatorServer, type EmulatorServer } from '../../src/sandbox/server.ts';
import { adapterDeps, approveConsent } from '../helpers/platform.ts';

const REDIRECT = 'https://app.example.com/callback';
const DAY_MS = 24 * 60 * 60_000;
let clockOffset = 0;
/** Set to hold the slow emulator's clock still (a state that lasts "a while" must not end mid-test). */
let frozenAt: number | null = null;
// The second emulator has a tiny quota, slow processing and a clock the tests can move or stop.
const emu = createMetaEmulator();
const slow = createMetaEmulator({ publishQuota: 1, processingMs: 300, now: () => (frozenAt ?? Date.now()) + clockOffset });
let server: EmulatorServer;
let slowServer: EmulatorServer;
let ig: PlatformAdapter;
let igSlow: PlatformAdapter;
let accounts: ConnectedAccount[];
let jpg: string;
let slowJpg: string;
let mp4: string;

function creds(a: ConnectedAccount): AccountCredentials {
  return {
    accountId: a.accountId,
    username: a.username,
    accessToken: a.grant.accessToken,
    refreshToken: a.grant.refreshToken ?? null,
    expiresAt: a.grant.expiresAt,
    scopes: a.grant.scopes,
    meta: a.meta,
  };
}

function request(account: AccountCredentials, content: string, media: MediaItem[], settings: Record<string, unknown> = {}) {
  const saved: Checkpoint[] = [];
  const req: PublishRequest = {
    account,
    content,
    media,
    settings,
    checkpoint: null,
    saveCheckpoint: async (cp) => {
      saved.push(cp);
    },
    attemptStartedAt: Date.now(),
  };
  return { req, saved, again: (): PublishRequest => ({ ...req, checkpoint: saved.at(-1) ?? null }) };
}

function adapterFor(root: string, http?: number): PlatformAdapter {
  return createInstagramAdapter(adapterDeps({ apiUrl: root, authUrl: `${root}/dialog/oauth` }, http ? { http: createPlatformHttp({ timeoutMs: http }) } : {}));
}

async function connect(adapter: PlatformAdapter, extra: Record<string, string>): Promise<ConnectedAccount[]> {
  const { code } = await approveConsent(adapter.authorizeUrl({ state: 'st', redirectUri: REDIRECT }), extra);
  const out = await adapter.connect({ code, redirectUri: REDIRECT });
  assert.ok(out.ok, JSON.stringify(out));
  return out.accounts;
}

const image = (): MediaItem => ({ type: 'image', url: jpg });
const slowImage = (): MediaItem => ({ type: 'image', url: slowJpg });
const video = (): MediaItem => ({ type: 'video', url: mp4 });
const account = () => creds(accounts[0]!);
const published = (igId: string) => emu.ledger.list({ accountId: igId, kind: 'media' });

before(async () => {
  server = await startEmulatorServer([emu]);
  slowServer = await startEmulatorServer([slow]);
  jpg = `${server.mediaUrl}/sample.jpg`;
  // Meta fetches media from the public internet: on loopback, only the emulator's own host is in reach.
  slowJpg = `${slowServer.mediaUrl}/sample.jpg`;
  mp4 = `${server.mediaUrl}/sample.mp4`;
  ig = adapterFor(server.rootOf('meta'));
  igSlow = adapterFor(slowServer.rootOf('meta'));
  accounts = await connect(ig, { sandbox_user: 'igtest', sandbox_pages: '2' });
});

after(async () => {
  await server.close();
  await slowServer.close();
});

test('connect yields the Instagram accounts linked to the granted Pages, with the long-lived user token', () => {
  assert.equal(accounts.length, 2);
  for (const a of accounts) {
    assert.match(a.accountId, /^17841\d+$/);
    assert.match(String(a.meta.pageId), /^\d+$/);
    assert.match(String(a.meta.userId), /^\d+$/);
    assert.ok(a.grant.expiresAt! > Date.now() + 59 * DAY_MS, 'about 60 days');
    assert.equal(a.grant.refreshToken, undefined);
    assert.ok(a.grant.scopes.includes('instagram_content_publish'));
  }
  assert.equal(accounts[0]!.username, 'igtest_ig1');
  assert.equal(accounts[0]!.grant.accessToken, accounts[1]!.grant.accessToken, 'one user token acts for every linked account');
});

test('health reports permissions, expiry and the publishing quota', async () => {
  const h = await ig.health(account());
  assert.ok(h.ok, JSON.stringify(h));
  assert.ok(h.permissions.includes('instagram_basic'));
  assert.ok(h.expiresAt && h.expiresAt > Date.now() + 59 * DAY_MS);
  assert.deepEqual(h.quota, { used: 0, total: 50 });
});

test('refresh re-exchanges the still-valid token for a new 60-day one', async () => {
  const out = await ig.refresh(account());
  assert.ok(out.ok, JSON.stringify(out));
  assert.notEqual(out.grant.accessToken, account().accessToken);
  assert.ok(out.grant.expiresAt! > Date.now() + 59 * DAY_MS);
});

test('an image; a firstComment is left to the engine, publish never posts it', async () => {
  const { req, saved } = request(account(), 'First image #herald', [image()], { firstComment: 'more in bio' });
  const out = await ig.publish(req);
  assert.ok(out.ok, JSON.stringify(out));
  assert.match(out.platformPostUrl, /^https:\/\/www\.instagram\.com\/p\/[\w-]+\/$/);
  assert.ok(typeof saved[0]?.containerId === 'string', 'the container was checkpointed before media_publish');
  assert.equal(emu.ledger.get(out.platformPostId)?.extra?.mediaType, 'IMAGE');
  assert.equal(emu.ledger.list({ kind: 'comment' }).filter((c) => c.extra?.mediaId === out.platformPostId).length, 0);
  assert.equal(emu.calls.filter((c) => c.method === 'POST' && c.path.endsWith('/comments')).length, 0);
});

test('a carousel of images and a video, with collaborators', async () => {
  const out = await ig.publish(request(account(), 'Carousel', [image(), video(), image()], { collaborators: ['friend_one'] }).req);
  assert.ok(out.ok, JSON.stringify(out));
  const entry = emu.ledger.get(out.platformPostId);
  assert.equal(entry?.extra?.mediaType, 'CAROUSEL_ALBUM');
  assert.deepEqual(entry?.media.map((m) => m.type), ['image', 'video', 'image']);
  assert.deepEqual(entry?.extra?.collaborators, ['friend_one']);
});

test('a video is a reel; share_to_feed follows shareToFeed', async () => {
  const feed = await ig.publish(request(account(), 'Feed video', [video()]).req);
  assert.ok(feed.ok, JSON.stringify(feed));
  assert.equal(emu.ledger.get(feed.platformPostId)?.extra?.shareToFeed, true);
  const reel = await ig.publish(request(account(), 'Reel only', [video()], { contentType: 'reel', shareToFeed: false }).req);
  assert.ok(reel.ok, JSON.stringify(reel));
  assert.equal(emu.ledger.get(reel.platformPostId)?.extra?.productType, 'REELS');
  assert.equal(emu.ledger.get(reel.platformPostId)?.extra?.shareToFeed, false);
  assert.match(reel.platformPostUrl, /\/reel\//);
});

test('image and video stories', async () => {
  for (const item of [image(), video()]) {
    const out = await ig.publish(request(account(), '', [item], { contentType: 'story' }).req);
    assert.ok(out.ok, JSON.stringify(out));
    assert.equal(emu.ledger.get(out.platformPostId)?.extra?.productType, 'STORY');
  }
});

test('a container that ends in ERROR is media_rejected with Meta\'s reason', async () => {
  const out = await ig.publish(request(account(), 'Broken video', [{ type: 'video', url: jpg }]).req);
  assert.ok(!out.ok && out.category === 'media_rejected', JSON.stringify(out));
  assert.match(out.message, /2207026/);
});

test('injected faults map to categories', async () => {
  const cases = [
    { kind: 'server_error', path: '/media', category: 'platform_unavailable' },
    { kind: 'validation', path: '/media', category: 'content_rejected' },
    { kind: 'permission', path: '/media_publish', category: 'permission_missing' },
    { kind: 'expired_token', path: '/media_publish', category: 'auth_expired' },
  ] as const;
  for (const c of cases) {
    emu.faults.add({ kind: c.kind, method: 'POST', path: c.path });
    const out = await ig.publish(request(account(), `fault ${c.kind}`, [image()]).req);
    assert.equal(!out.ok && out.category, c.category, c.kind);
  }
  assert.equal(published(account().accountId).filter((e) => e.text.startsWith('fault ')).length, 0);
});

test('an Instagram throttle (80002) carries retryAt', async () => {
  emu.faults.add({ kind: 'rate_limited', method: 'POST', path: `/${account().accountId}/media_publish`, resetSeconds: 300 });
  const before = Date.now();
  const out = await ig.publish(request(account(), 'throttled', [image()]).req);
  assert.ok(!out.ok && out.category === 'rate_limited' && out.platformCode === '80002', JSON.stringify(out));
  assert.ok(out.retryAt! >= before + 300_000);
});

test('a dropped media_publish is outcome_unknown; the FINISHED container reconciles as not published', async () => {
  emu.faults.add({ kind: 'drop', method: 'POST', path: '/media_publish' });
  const { req, again } = request(account(), 'dropped publish', [image()]);
  const out = await ig.publish(req);
  assert.equal(!out.ok && out.category, 'outcome_unknown');
  assert.deepEqual(await ig.reconcile(again()), { ok: true, found: false });
  const retry = await ig.publish(again());
  assert.ok(retry.ok, JSON.stringify(retry));
  assert.equal(published(account().accountId).filter((e) => e.text === 'dropped publish').length, 1);
});

test('accept_then_hang on media_publish: outcome_unknown, reconcile finds exactly one post, a resume does not re-publish', async () => {
  emu.faults.add({ kind: 'accept_then_hang', method: 'POST', path: '/media_publish' });
  const { req, again } = request(account(), 'Published in silence', [image()]);
  const out = await adapterFor(server.rootOf('meta'), 400).publish(req);
  assert.equal(!out.ok && out.category, 'outcome_unknown');
  const r = await ig.reconcile(again());
  assert.ok(r.ok && r.found === true, JSON.stringify(r));
  const resumed = await ig.publish(again());
  assert.ok(resumed.ok && resumed.platformPostId === (r.ok && r.found === true && r.platformPostId));
  const posts = published(account().accountId).filter((e) => e.text === 'Published in silence');
  assert.equal(posts.length, 1);
  assert.equal(posts[0]!.id, r.ok && r.found === true ? r.platformPostId : '');
});

test('reconcile says unknown while the container is still processing', async () => {
  const [slowAccount] = await connect(igSlow, { sandbox_user: 'slowpoke', sandbox_pages: '1' });
  const a = creds(slowAccount!);
  // The emulator's clock stands still, so the container is still processing when reconcile asks, however
  // long the machine takes between the two calls.
  frozenAt = Date.now();
  try {
    const res = await fetch(`${slowServer.rootOf('meta')}/v21.0/${a.accountId}/media`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ image_url: slowJpg, caption: 'processing', access_token: a.accessToken }),
    });
    const { id } = (await res.json()) as { id: string };
    const { req } = request(a, 'processing', [slowImage()]);
    const r = await igSlow.reconcile({ ...req, checkpoint: { containerId: id } });
    assert.ok(r.ok && r.found === 'unknown', JSON.stringify(r));
  } finally {
    frozenAt = null;
  }
});

test('an expired container is created again on the next attempt', async () => {
  const [slowAccount] = await connect(igSlow, { sandbox_user: 'slowpoke', sandbox_pages: '1' });
  const a = creds(slowAccount!);
  const { req, saved, again } = request(a, 'expires first', [slowImage()]);
  slow.faults.add({ kind: 'server_error', method: 'POST', path: '/media_publish' });
  assert.equal((await igSlow.publish(req)).ok, false);
  clockOffset = DAY_MS + 60_000;
  try {
    assert.deepEqual(await igSlow.reconcile(again()), { ok: true, found: false });
    const out = await igSlow.publish(again());
    assert.ok(out.ok, JSON.stringify(out));
    assert.notEqual(saved.at(-1)?.containerId, saved[0]?.containerId, 'a new container was checkpointed');
  } finally {
    clockOffset = 0;
  }
});

test('a used-up publishing quota is quota_exceeded with retryAt, before any container is made', async () => {
  const [slowAccount] = await connect(igSlow, { sandbox_user: 'quota', sandbox_pages: '1' });
  const a = creds(slowAccount!);
  assert.ok((await igSlow.publish(request(a, 'the only one', [slowImage()]).req)).ok);
  const before = Date.now();
  const calls = slow.calls.length;
  const out = await igSlow.publish(request(a, 'one too many', [slowImage()]).req);
  assert.ok(!out.ok && out.category === 'quota_exceeded', JSON.stringify(out));
  assert.ok(out.retryAt! > before);
  assert.ok(!slow.calls.slice(calls).some((c) => c.method === 'POST'), 'nothing was created');
  const h = await igSlow.health(a);
  assert.ok(h.ok && h.quota?.used === 1 && h.quota.total === 1);
});

test('an expired user token is auth_expired, and an expired token cannot be refreshed', async () => {
  const mine = await connect(ig, { sandbox_user: 'expiring', sandbox_pages: '1' });
  const a = creds(mine[0]!);
  emu.oauth.expireAccessTokens(String(a.meta.userId));
  const out = await ig.publish(request(a, 'after expiry', [image()]).req);
  assert.ok(!out.ok && out.category === 'auth_expired' && out.platformCode === '190/463', JSON.stringify(out));
  const refreshed = await ig.refresh(a);
  assert.equal(!refreshed.ok && refreshed.category, 'auth_expired');
  const h = await ig.health(a);
  assert.equal(!h.ok && h.category, 'auth_expired');
});

test('revoke removes the app grant of the Facebook user', async () => {
  const mine = await connect(ig, { sandbox_user: 'revoker', sandbox_pages: '1' });
  const a = creds(mine[0]!);
  assert.deepEqual(await ig.revoke(a), { ok: true, revoked: true });
  const out = await ig.publish(request(a, 'after revoke', [image()]).req);
  assert.equal(!out.ok && out.category, 'auth_expired');
});
