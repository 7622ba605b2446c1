// The TikTok adapter against the TikTok emulator over real HTTP on 127.0.0.1.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { REDIRECT, connectAccount, image, publishRequest, startHarness, video, type Harness } from './tiktok-helpers.ts';
import { approveConsent } from '../helpers/platform.ts';
import { createServer } from 'node:http';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(() => h.close());

const initCalls = () => h.emu.calls.filter((c) => c.path.endsWith('/init/'));
const puts = () => h.emu.calls.filter((c) => c.method === 'PUT');

describe('accounts', () => {
  test('the consent URL carries client_key, code, the comma scope list, redirect_uri and state (no PKCE)', () => {
    const url = new URL(h.adapter.authorizeUrl({ state: 'abc', redirectUri: REDIRECT }));
    assert.equal(`${url.origin}${url.pathname}`, `${h.root}/v2/auth/authorize/`);
    assert.equal(url.searchParams.get('client_key'), h.deps.app.clientId);
    assert.equal(url.searchParams.get('response_type'), 'code');
    assert.equal(url.searchParams.get('scope'), 'user.info.basic,user.info.profile,video.publish,video.upload');
    assert.ok(url.search.includes('scope=user.info.basic,user.info.profile,video.publish,video.upload&'), 'commas stay bare, as in TikTok\'s docs');
    assert.equal(url.searchParams.get('redirect_uri'), REDIRECT);
    assert.equal(url.searchParams.get('state'), 'abc');
    assert.equal(url.searchParams.get('code_challenge'), null);
    assert.equal(h.adapter.info.usesPkce, false);
  });

  test('connect exchanges the code and returns the open_id, username, lifetimes and creator options', async () => {
    const started = Date.now();
    const { account } = await connectAccount(h, 'Alice');
    assert.match(account.accountId, /^-000[0-9a-f-]+$/);
    assert.equal(account.username, 'alice');
    assert.equal(account.displayName, 'Alice');
    assert.match(account.avatarUrl ?? '', /^http:\/\/127\.0\.0\.1:\d+\/tiktok\/sandbox-avatar\//);
    assert.deepEqual(account.grant.scopes, ['user.info.basic', 'user.info.profile', 'video.publish', 'video.upload']);
    assert.ok(account.grant.refreshToken);
    // The emulator issues TikTok's 2026 lifetimes: 2 h access, 180 d refresh (whole seconds), counted
    // from the exchange, however long connecting took.
    const by = Date.now();
    const within = (at: number, lifetime: number) => at >= started + lifetime - 1_000 && at <= by + lifetime;
    assert.ok(within(account.grant.expiresAt!, 2 * 3600_000), `expiresAt ${account.grant.expiresAt! - started} ms ahead`);
    assert.ok(within(account.grant.refreshExpiresAt!, 180 * 86400_000), `refreshExpiresAt ${account.grant.refreshExpiresAt! - started} ms ahead`);
    assert.deepEqual(account.meta, {
      privacyLevelOptions: ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'],
      commentDisabled: false,
      duetDisabled: false,
      stitchDisabled: false,
      maxVideoPostDurationSec: 600,
    });
  });

  test('a private creator is not offered PUBLIC_TO_EVERYONE', async () => {
    const { account } = await connectAccount(h, 'Priv', { sandbox_private: '1' });
    assert.deepEqual(account.meta.privacyLevelOptions, ['MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY']);
  });

  test('a user who grants only the basic scopes still connects; health names what is missing', async () => {
    const authUrl = h.adapter.authorizeUrl({ state: 's', redirectUri: REDIRECT });
    const { code } = await approveConsent(authUrl, { sandbox_user: 'minimal', scope: 'user.info.basic' });
    const r = await h.adapter.connect({ code, redirectUri: REDIRECT });
    assert.ok(r.ok, r.ok ? '' : r.message);
    const account = r.accounts[0]!;
    // Without user.info.profile the handle is unknown; the display name stands in.
    assert.equal(account.username, 'minimal');
    assert.deepEqual(account.grant.scopes, ['user.info.basic']);
    assert.deepEqual(account.meta, {}, 'no creator options without video.publish');
    const missing = h.adapter.info.requiredScopes.filter((s) => !account.grant.scopes.includes(s));
    assert.deepEqual(missing, ['user.info.profile', 'video.publish']);
  });

  test('a code used twice is refused as auth_expired', async () => {
    const { code } = await approveConsent(h.adapter.authorizeUrl({ state: 's', redirectUri: REDIRECT }), { sandbox_user: 'twice' });
    assert.equal((await h.adapter.connect({ code, redirectUri: REDIRECT })).ok, true);
    const again = await h.adapter.connect({ code, redirectUri: REDIRECT });
    assert.equal(again.ok, false);
    assert.equal(!again.ok && again.category, 'auth_expired');
    assert.equal(!again.ok && again.platformCode, 'invalid_grant');
  });

  test('health reports the stored scopes, expiry and fresh creator options', async () => {
    const { creds } = await connectAccount(h, 'healthy');
    const r = await h.adapter.health({ ...creds, meta: {} });
    assert.ok(r.ok);
    assert.deepEqual(r.permissions, creds.scopes);
    assert.equal(r.expiresAt, creds.expiresAt);
    assert.equal((r.meta?.privacyLevelOptions as string[]).length, 4);
  });

  test('refresh rotates the refresh token: the new pair works, the old refresh token is dead', async () => {
    const { creds } = await connectAccount(h, 'rotator');
    const r = await h.adapter.refresh(creds);
    assert.ok(r.ok);
    assert.notEqual(r.grant.accessToken, creds.accessToken);
    assert.ok(r.grant.refreshToken && r.grant.refreshToken !== creds.refreshToken);
    assert.ok((await h.adapter.health({ ...creds, accessToken: r.grant.accessToken })).ok);
    const stale = await h.adapter.refresh(creds);
    assert.equal(stale.ok, false);
    assert.equal(!stale.ok && stale.category, 'auth_expired');
    assert.ok(!stale.ok && !stale.message.includes(creds.refreshToken!));
  });

  test('an expired access token gives auth_expired; after refresh publishing works', async () => {
    const { creds } = await connectAccount(h, 'expiring');
    h.emu.oauth.expireAccessTokens(creds.accountId);
    const health = await h.adapter.health(creds);
    assert.equal(!health.ok && health.category, 'auth_expired');
    const failed = await h.adapter.publish(publishRequest(creds, [image(h)]));
    assert.equal(!failed.ok && failed.category, 'auth_expired');
    assert.equal(!failed.ok && failed.platformCode, 'access_token_invalid');
    const renewed = await h.adapter.refresh(creds);
    assert.ok(renewed.ok);
    const ok = await h.adapter.publish(publishRequest({ ...creds, accessToken: renewed.grant.accessToken }, [image(h)]));
    assert.ok(ok.ok, ok.ok ? '' : ok.message);
  });

  test('revoke removes the grant: access and refresh tokens stop working', async () => {
    const { creds } = await connectAccount(h, 'leaver');
    const r = await h.adapter.revoke(creds);
    assert.deepEqual(r, { ok: true, revoked: true });
    assert.equal((await h.adapter.health(creds)).ok, false);
    const refreshed = await h.adapter.refresh(creds);
    assert.equal(!refreshed.ok && refreshed.category, 'auth_expired');
  });

  test('revoke with an expired access token refreshes first, then revokes', async () => {
    const { creds } = await connectAccount(h, 'late-leaver');
    h.emu.oauth.expireAccessTokens(creds.accountId);
    assert.deepEqual(await h.adapter.revoke(creds), { ok: true, revoked: true });
    const revokes = h.emu.calls.filter((c) => c.path === '/v2/oauth/revoke/').slice(-2).map((c) => c.status);
    assert.deepEqual(revokes, [400, 200]);
  });
});

describe('publishing', () => {
  test('a small video goes up in one chunk and gets its int64 post id as a string', async () => {
    const { creds } = await connectAccount(h, 'bob');
    const putsBefore = puts().length;
    const req = publishRequest(creds, [video(h, 100_000)], { privacyLevel: 'FOLLOWER_OF_CREATOR', disableDuet: true, isAigc: true });
    const r = await h.adapter.publish(req);
    assert.ok(r.ok, r.ok ? '' : r.message);
    assert.match(r.platformPostId, /^\d{19}$/);
    assert.ok(BigInt(r.platformPostId) > 2n ** 53n);
    assert.equal(r.platformPostUrl, `https://www.tiktok.com/@bob/video/${r.platformPostId}`);
    assert.deepEqual(puts().slice(putsBefore).map((c) => c.status), [201]);
    assert.equal(req.saved.length, 1);
    assert.match(String(req.saved[0]!.publishId), /^v_pub_file~/);
    const entries = h.emu.ledger.list({ accountId: creds.accountId });
    assert.equal(entries.length, 1);
    assert.equal(entries[0]!.id, r.platformPostId);
    assert.equal(entries[0]!.kind, 'video');
    assert.equal(entries[0]!.text, 'Hello from Herald #sandbox');
    assert.equal(entries[0]!.extra?.privacyLevel, 'FOLLOWER_OF_CREATOR');
    assert.equal(entries[0]!.extra?.disable_duet, true);
    assert.equal(entries[0]!.extra?.is_aigc, true);
    assert.equal(entries[0]!.extra?.videoSize, 100_000);
  });

  test('a larger video goes up in sequential chunks, the last one absorbing the remainder', async () => {
    const { creds } = await connectAccount(h, 'chunky');
    const putsBefore = puts().length;
    const r = await h.adapter.publish(publishRequest(creds, [video(h, 900_000)]));
    assert.ok(r.ok, r.ok ? '' : r.message);
    // 900,000 bytes in 256 KiB chunks: floor(900000 / 262144) = 3, the third 375,712 bytes.
    assert.deepEqual(puts().slice(putsBefore).map((c) => c.status), [206, 206, 201]);
    assert.equal(h.emu.ledger.list({ accountId: creds.accountId })[0]?.extra?.videoSize, 900_000);
  });

  test('a photo post pulls several images, with title and description', async () => {
    const { creds } = await connectAccount(h, 'photographer');
    const photos = [image(h, 'sample.jpg', 1), image(h, 'sample.jpg', 2), image(h, 'sample.jpg', 3)];
    const req = publishRequest(creds, photos, { privacyLevel: 'MUTUAL_FOLLOW_FRIENDS', title: 'Three of a kind', autoAddMusic: true }, 'A longer description');
    const r = await h.adapter.publish(req);
    assert.ok(r.ok, r.ok ? '' : r.message);
    assert.equal(r.platformPostUrl, `https://www.tiktok.com/@photographer/photo/${r.platformPostId}`);
    assert.match(String(req.saved[0]!.publishId), /^p_pub_url~/);
    const [entry] = h.emu.ledger.list({ accountId: creds.accountId });
    assert.equal(entry?.kind, 'photo');
    assert.deepEqual(entry?.media.map((m) => m.url), photos.map((p) => p.url));
    assert.equal(entry?.text, 'A longer description');
    assert.equal(entry?.extra?.title, 'Three of a kind');
    assert.equal(entry?.extra?.auto_add_music, true);
    assert.equal(entry?.extra?.privacyLevel, 'MUTUAL_FOLLOW_FRIENDS');
  });

  test('a privacy level the private creator is not offered is refused before any init', async () => {
    const { creds } = await connectAccount(h, 'shy', { sandbox_private: '1' });
    const before = initCalls().length;
    const r = await h.adapter.publish(publishRequest(creds, [video(h, 1000)], { privacyLevel: 'PUBLIC_TO_EVERYONE' }));
    assert.equal(!r.ok && r.category, 'content_rejected');
    assert.match(!r.ok ? r.message : '', /PUBLIC_TO_EVERYONE.*allowed: MUTUAL_FOLLOW_FRIENDS/);
    assert.equal(initCalls().length, before);
    const ok = await h.adapter.publish(publishRequest(creds, [video(h, 1000)], { privacyLevel: 'SELF_ONLY' }));
    assert.ok(ok.ok);
    assert.equal(h.emu.ledger.list({ accountId: creds.accountId })[0]?.extra?.privacyLevel, 'SELF_ONLY');
  });

  test('a missing privacy level is refused without calling TikTok', async () => {
    const { creds } = await connectAccount(h, 'noprivacy');
    const calls = h.emu.calls.length;
    const r = await h.adapter.publish(publishRequest(creds, [image(h)], {}));
    assert.equal(!r.ok && r.category, 'content_rejected');
    assert.equal(h.emu.calls.length, calls);
  });

  test('a post TikTok fails in processing (PNG photo) is media_rejected with the fail reason', async () => {
    const { creds } = await connectAccount(h, 'pngfan');
    const r = await h.adapter.publish(publishRequest(creds, [image(h, 'sample.png')]));
    assert.equal(!r.ok && r.category, 'media_rejected');
    assert.equal(!r.ok && r.platformCode, 'file_format_check_failed');
    assert.equal(h.emu.ledger.list({ accountId: creds.accountId }).length, 0);
  });

  test('a file that is not a video is refused before anything is sent', async () => {
    const { creds } = await connectAccount(h, 'notvideo');
    const before = initCalls().length;
    const r = await h.adapter.publish(publishRequest(creds, [{ type: 'video', url: `${h.server.mediaUrl}/sample.jpg` }]));
    assert.equal(!r.ok && r.category, 'media_rejected');
    assert.equal(initCalls().length, before);
  });

  test('a video longer than the creator may post is refused before the upload', async () => {
    // An MP4 whose movie header says 700 s; the sandbox creator may post 600 s.
    const mvhd = Buffer.alloc(108);
    mvhd.writeUInt32BE(108);
    mvhd.write('mvhd', 4, 'latin1');
    mvhd.writeUInt32BE(1000, 20);
    mvhd.writeUInt32BE(700_000, 24);
    const moov = Buffer.concat([Buffer.from([0, 0, 0, 116]), Buffer.from('moov', 'latin1'), mvhd]);
    const file = Buffer.concat([Buffer.from('\0\0\0\x10ftypmp42\0\0\0\0', 'latin1'), moov]);
    const host = createServer((_req, res) => res.writeHead(200, { 'content-type': 'video/mp4' }).end(file));
    await new Promise<void>((r) => host.listen(0, '127.0.0.1', r));
    try {
      const { creds } = await connectAccount(h, 'longform');
      const before = initCalls().length;
      const port = (host.address() as { port: number }).port;
      const r = await h.adapter.publish(publishRequest(creds, [{ type: 'video', url: `http://127.0.0.1:${port}/long.mp4` }]));
      assert.equal(!r.ok && r.category, 'media_rejected');
      assert.match(!r.ok ? r.message : '', /700 s.*at most 600 s/);
      assert.equal(initCalls().length, before);
    } finally {
      await new Promise((r) => host.close(r));
    }
  });

  test('when the public id does not come in time, the publish id and profile URL are returned', async () => {
    const { creds } = await connectAccount(h, 'moderated');
    // Processing ends at once and moderation never in the test's time, so the short budget runs out on
    // "complete, no public id yet", however slowly the machine polls.
    const processingMs = h.emu.settings.processingMs;
    h.emu.settings.processingMs = 0;
    h.emu.settings.moderationMs = 60 * 60_000;
    try {
      const quick = h.adapterWith({ timing: { pollIntervalMs: 20, maxProcessingMs: 300 } });
      const req = publishRequest(creds, [image(h)]);
      const r = await quick.publish(req);
      assert.ok(r.ok, r.ok ? '' : r.message);
      assert.equal(r.platformPostId, req.saved[0]!.publishId);
      assert.equal(r.platformPostUrl, 'https://www.tiktok.com/@moderated');
      assert.equal(h.emu.ledger.list({ accountId: creds.accountId }).length, 1);
    } finally {
      h.emu.settings.processingMs = processingMs;
      h.emu.settings.moderationMs = 30;
    }
  });

  test('the emulator answers the 7th init within a minute with 429, mapped to rate_limited', async () => {
    const { creds } = await connectAccount(h, 'busy');
    for (let i = 0; i < 6; i++) assert.ok((await h.adapter.publish(publishRequest(creds, [image(h, 'sample.jpg', i)]))).ok);
    const started = Date.now();
    const r = await h.adapter.publish(publishRequest(creds, [image(h, 'sample.jpg', 7)]));
    assert.equal(!r.ok && r.category, 'rate_limited');
    assert.equal(!r.ok && r.platformCode, 'rate_limit_exceeded');
    assert.ok(!r.ok && r.retryAt! >= started + 59_000 && r.retryAt! <= Date.now() + 60_000);
    assert.equal(h.emu.ledger.list({ accountId: creds.accountId }).length, 6);
  });
});
