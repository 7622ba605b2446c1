// The Facebook adapter against the Meta emulator over real HTTP on 127.0.0.1.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createFacebookAdapter } from '../../src/platforms/facebook/adapter.ts';
import type { AccountCredentials, Checkpoint, ConnectedAccount, MediaItem, PlatformAdapter, PublishRequest } from '../../src/platforms/types.ts';
import { createMetaEmulator } from '../../src/sandbox/meta/emulator.ts';
import { startEmulatorServer, type EmulatorServer } from '../../src/sandbox/server.ts';
import { adapterDeps, approveConsent } from '../helpers/platform.ts';

const REDIRECT = 'https://app.example.com/callback';
const emu = createMetaEmulator({ accountsPageSize: 2 });
let server: EmulatorServer;
let root: string;
let fb: PlatformAdapter;
let pages: ConnectedAccount[];
let jpg: string;
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

function request(account: AccountCredentials, content: string, media: MediaItem[] = [], settings: Record<string, unknown> = {}) {
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

async function connect(extra: Record<string, string> = {}): Promise<ConnectedAccount[]> {
  const { code } = await approveConsent(fb.authorizeUrl({ state: 'st', redirectUri: REDIRECT }), extra);
  const out = await fb.connect({ code, redirectUri: REDIRECT });
  assert.ok(out.ok, JSON.stringify(out));
  return out.accounts;
}

const image = (): MediaItem => ({ type: 'image', url: jpg });
const video = (): MediaItem => ({ type: 'video', url: mp4 });
const page = () => creds(pages[0]!);
/** Start and finish share the /video_reels path: a no-op fault absorbs the start so the next one hits finish. */
const skipFirstReelCall = () => emu.faults.add({ kind: 'slow', method: 'POST', path: '/video_reels', delayMs: 0 });
const ledgerOf = (pageId: string, kind?: string) => emu.ledger.list({ accountId: pageId, kind });

before(async () => {
  server = await startEmulatorServer([emu]);
  root = server.rootOf('meta');
  jpg = `${server.mediaUrl}/sample.jpg`;
  mp4 = `${server.mediaUrl}/sample.mp4`;
  fb = createFacebookAdapter(adapterDeps({ apiUrl: root, authUrl: `${root}/dialog/oauth` }));
  pages = await connect({ sandbox_user: 'fbtest', sandbox_pages: '3' });
});

after(() => server.close());

test('the consent URL carries the app, redirect, state, scopes and response_type', () => {
  const url = new URL(fb.authorizeUrl({ state: 'abc', redirectUri: REDIRECT }));
  assert.equal(url.searchParams.get('client_id'), 'herald-sandbox');
  assert.equal(url.searchParams.get('redirect_uri'), REDIRECT);
  assert.equal(url.searchParams.get('state'), 'abc');
  assert.equal(url.searchParams.get('response_type'), 'code');
  assert.deepEqual(url.searchParams.get('scope')?.split(','), fb.info.scopes);
  assert.equal(fb.info.usesPkce, false);
});

test('connect yields every granted Page (across list pages) with a non-expiring Page token', () => {
  assert.equal(pages.length, 3);
  assert.equal(new Set(pages.map((p) => p.accountId)).size, 3);
  for (const p of pages) {
    assert.match(p.accountId, /^\d+$/);
    assert.equal(p.grant.expiresAt, null);
    assert.ok(p.grant.refreshToken, 'the long-lived user token is kept to mint Page tokens');
    assert.notEqual(p.grant.refreshToken, p.grant.accessToken);
    assert.ok(p.grant.scopes.includes('pages_manage_posts'));
    assert.match(String(p.meta.userId), /^\d+$/);
  }
  assert.equal(pages[0]!.username, 'fbtest.page1');
  assert.equal(pages[1]!.username, 'Fbtest Page 2', 'a Page without a username goes by its name');
});

test('a refused code is auth_expired', async () => {
  const out = await fb.connect({ code: 'not-a-code', redirectUri: REDIRECT });
  assert.equal(out.ok, false);
  assert.equal(!out.ok && out.category, 'auth_expired');
});

test('health reads permissions and expiry from debug_token', async () => {
  const h = await fb.health(page());
  assert.ok(h.ok, JSON.stringify(h));
  assert.ok(h.permissions.includes('pages_show_list'));
  assert.equal(h.expiresAt, null);
});

test('text with a link goes to the feed', async () => {
  const { req } = request(page(), 'Hello from Herald (text)', [], { link: 'https://example.com/article' });
  const out = await fb.publish(req);
  assert.ok(out.ok, JSON.stringify(out));
  assert.match(out.platformPostId, new RegExp(`^${page().accountId}_\\d+$`));
  assert.match(out.platformPostUrl, /^https:\/\/www\.facebook\.com\//);
  const entry = emu.ledger.get(out.platformPostId);
  assert.equal(entry?.kind, 'post');
  assert.equal(entry?.extra?.link, 'https://example.com/article');
});

test('one image is a photo post', async () => {
  const out = await fb.publish(request(page(), 'One photo', [image()]).req);
  assert.ok(out.ok, JSON.stringify(out));
  assert.equal(emu.ledger.get(out.platformPostId)?.kind, 'photo');
});

test('several images are staged unpublished, checkpointed, then posted together', async () => {
  const { req, saved } = request(page(), 'Three photos', [image(), image(), image()]);
  const out = await fb.publish(req);
  assert.ok(out.ok, JSON.stringify(out));
  assert.equal(saved.length, 1);
  assert.equal(saved[0]!.flow, 'album');
  assert.equal((saved[0]!.photoIds as string[]).length, 3);
  const entry = emu.ledger.get(out.platformPostId);
  assert.equal(entry?.kind, 'post');
  assert.equal(entry?.media.length, 3);
});

test('an album whose feed call failed resumes with the photos already staged', async () => {
  emu.faults.add({ kind: 'server_error', method: 'POST', path: '/feed' });
  const { req, again } = request(page(), 'Album, second try', [image(), image()]);
  const out = await fb.publish(req);
  assert.equal(!out.ok && out.category, 'platform_unavailable');
  assert.deepEqual(await fb.reconcile(again()), { ok: true, found: false });
  const staged = emu.calls.filter((c) => c.method === 'POST' && c.path.endsWith('/photos')).length;
  const retried = await fb.publish(again());
  assert.ok(retried.ok, JSON.stringify(retried));
  assert.equal(emu.calls.filter((c) => c.method === 'POST' && c.path.endsWith('/photos')).length, staged, 'no photo staged twice');
  assert.equal(emu.ledger.get(retried.platformPostId)?.media.length, 2);
});

test('one video is a video post with an absolute link', async () => {
  const out = await fb.publish(request(page(), 'A video', [video()]).req);
  assert.ok(out.ok, JSON.stringify(out));
  assert.equal(emu.ledger.get(out.platformPostId)?.kind, 'video');
  assert.equal(out.platformPostUrl, `https://www.facebook.com/${page().accountId}/videos/${out.platformPostId}/`);
});

test('a file that is not a video is media_rejected once Meta processes it', async () => {
  const out = await fb.publish(request(page(), 'Not a video', [{ type: 'video', url: jpg }]).req);
  assert.equal(out.ok, false);
  assert.equal(!out.ok && out.category, 'media_rejected');
});

test('a reel goes through start, upload by URL and finish', async () => {
  const { req, saved } = request(page(), 'A reel', [video()], { contentType: 'reel' });
  const out = await fb.publish(req);
  assert.ok(out.ok, JSON.stringify(out));
  assert.equal(saved[0]?.flow, 'reel');
  assert.equal(saved[0]?.videoId, out.platformPostId);
  assert.equal(emu.ledger.get(out.platformPostId)?.kind, 'reel');
  assert.equal(out.platformPostUrl, `https://www.facebook.com/reel/${out.platformPostId}/`);
});

test('photo and video stories', async () => {
  const photo = await fb.publish(request(page(), '', [image()], { contentType: 'story' }).req);
  assert.ok(photo.ok, JSON.stringify(photo));
  const clip = await fb.publish(request(page(), '', [video()], { contentType: 'story' }).req);
  assert.ok(clip.ok, JSON.stringify(clip));
  assert.equal(emu.ledger.get(photo.platformPostId)?.kind, 'story');
  assert.equal(emu.ledger.get(clip.platformPostId)?.media[0]?.type, 'video');
});

test('the same text twice in a row is refused as a duplicate', async () => {
  assert.ok((await fb.publish(request(page(), 'Say it once').req)).ok);
  const again = await fb.publish(request(page(), 'Say it once').req);
  assert.equal(!again.ok && again.category, 'content_rejected');
  assert.equal(!again.ok && again.platformCode, '506');
});

test('injected faults map to categories', async () => {
  const cases = [
    { kind: 'server_error', category: 'platform_unavailable' },
    { kind: 'validation', category: 'content_rejected' },
    { kind: 'permission', category: 'permission_missing' },
    { kind: 'expired_token', category: 'auth_expired' },
  ] as const;
  for (const c of cases) {
    emu.faults.add({ kind: c.kind, method: 'POST', path: '/feed' });
    const out = await fb.publish(request(page(), `fault ${c.kind}`).req);
    assert.equal(!out.ok && out.category, c.category, c.kind);
  }
  assert.equal(ledgerOf(page().accountId).filter((e) => e.text.startsWith('fault ')).length, 0);
});

test('a throttle carries retryAt from estimated_time_to_regain_access', async () => {
  emu.faults.add({ kind: 'rate_limited', method: 'POST', path: `/${page().accountId}/feed`, resetSeconds: 120 });
  const before = Date.now();
  const out = await fb.publish(request(page(), 'throttled').req);
  assert.equal(out.ok, false);
  assert.ok(!out.ok && out.category === 'rate_limited' && out.platformCode === '32');
  assert.ok(!out.ok && out.retryAt! >= before + 120_000 && out.retryAt! <= Date.now() + 121_000);
});

test('a dropped connection is outcome_unknown and reconcile finds nothing', async () => {
  emu.faults.add({ kind: 'drop', method: 'POST', path: '/feed' });
  const { req, again } = request(page(), 'dropped on the floor');
  const out = await fb.publish(req);
  assert.equal(!out.ok && out.category, 'outcome_unknown');
  const r = await fb.reconcile(again());
  assert.deepEqual(r, { ok: true, found: false });
});

test('accept_then_hang: outcome_unknown, then reconcile finds the one post', async () => {
  emu.faults.add({ kind: 'accept_then_hang', method: 'POST', path: '/feed' });
  const { req, again } = request(page(), 'Posted while nobody listened');
  const out = await fb.publish(req); // gives up after the harness's 2 s time-out
  assert.equal(!out.ok && out.category, 'outcome_unknown');
  const r = await fb.reconcile(again());
  assert.ok(r.ok && r.found === true, JSON.stringify(r));
  const posted = ledgerOf(page().accountId).filter((e) => e.text === 'Posted while nobody listened');
  assert.equal(posted.length, 1);
  assert.equal(r.ok && r.found === true && r.platformPostId, posted[0]!.id);
});

test('accept_then_hang on a reel finish: reconcile reads the checkpointed video', async () => {
  skipFirstReelCall();
  emu.faults.add({ kind: 'accept_then_hang', method: 'POST', path: '/video_reels' });
  const { req, again } = request(page(), 'Reel nobody heard about', [video()], { contentType: 'reel' });
  const out = await fb.publish(req); // gives up after the harness's 2 s time-out
  assert.equal(!out.ok && out.category, 'outcome_unknown');
  const r = await fb.reconcile(again());
  assert.ok(r.ok && r.found === true, JSON.stringify(r));
  assert.equal(ledgerOf(page().accountId, 'reel').filter((e) => e.text === 'Reel nobody heard about').length, 1);
});

test('a reel that never got its finish call reconciles as not published', async () => {
  skipFirstReelCall();
  emu.faults.add({ kind: 'server_error', method: 'POST', path: '/video_reels' });
  const { req, again } = request(page(), 'Reel that failed', [video()], { contentType: 'reel' });
  const out = await fb.publish(req);
  assert.equal(!out.ok && out.category, 'platform_unavailable');
  assert.deepEqual(await fb.reconcile(again()), { ok: true, found: false });
  const retried = await fb.publish(again());
  assert.ok(retried.ok, JSON.stringify(retried));
  assert.equal(retried.platformPostId, again().checkpoint?.videoId, 'the retry reuses the uploaded video');
});

test('an expired Page token is auth_expired; refresh mints a new one from the user token', async () => {
  const account = creds(pages[1]!);
  emu.oauth.expireAccessTokens(account.accountId);
  const out = await fb.publish(request(account, 'after expiry').req);
  assert.ok(!out.ok && out.category === 'auth_expired' && out.platformCode === '190/463', JSON.stringify(out));
  const refreshed = await fb.refresh(account);
  assert.ok(refreshed.ok, JSON.stringify(refreshed));
  assert.notEqual(refreshed.grant.accessToken, account.accessToken);
  assert.equal(refreshed.grant.refreshToken, account.refreshToken);
  const retry = await fb.publish(request({ ...account, accessToken: refreshed.grant.accessToken }, 'after refresh').req);
  assert.ok(retry.ok, JSON.stringify(retry));
});

test('revoke removes the grant; the tokens stop working', async () => {
  const mine = await connect({ sandbox_user: 'leaver', sandbox_pages: '1' });
  const account = creds(mine[0]!);
  const out = await fb.revoke(account);
  assert.deepEqual(out, { ok: true, revoked: true });
  const h = await fb.health(account);
  assert.equal(!h.ok && h.category, 'auth_expired');
  assert.equal(!(await fb.refresh(account)).ok, true);
});

test('when every token has expired, refresh is auth_expired too (the user must log in again)', async () => {
  const mine = await connect({ sandbox_user: 'sleeper', sandbox_pages: '1' });
  emu.oauth.expireAccessTokens();
  const refreshed = await fb.refresh(creds(mine[0]!));
  assert.equal(!refreshed.ok && refreshed.category, 'auth_expired');
  const revoked = await fb.revoke(creds(mine[0]!));
  assert.deepEqual(revoked, { ok: true, revoked: true }, 'the app token still removes the grant');
});
