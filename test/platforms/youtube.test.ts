// The YouTube adapter against the YouTube emulator over real HTTP on 127.0.0.1: accounts and publishing.
// Faults: youtube-faults.test.ts; edit, unpublish and first comment: youtube-capabilities.test.ts.
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SCOPE } from '../../src/platforms/youtube/info.ts';
import { approveConsent } from '../helpers/platform.ts';
import { GRANULE, REDIRECT, SETTINGS, connectAccount, image, publishRequest, startHarness, video, type Harness } from './youtube-helpers.ts';

let h: Harness;
before(async () => {
  h = await startHarness();
});
afterEach(() => {
  h.emu.faults.clear();
  Object.assign(h.emu.settings, { unverifiedProject: false, completeStatus: 201 });
});
after(() => h.close());

const calls = (method: string, part: string) => h.emu.calls.filter((c) => c.method === method && c.path.includes(part)).length;

describe('accounts', () => {
  test('the consent URL asks for offline access, a consent screen, the three scopes and PKCE S256', () => {
    const url = new URL(h.adapter.authorizeUrl({ state: 'abc', redirectUri: REDIRECT, codeChallenge: 'challenge' }));
    assert.equal(`${url.origin}${url.pathname}`, `${h.root}/o/oauth2/v2/auth`);
    const p = Object.fromEntries(url.searchParams);
    assert.deepEqual(p, {
      client_id: h.deps.app.clientId,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: `${SCOPE.upload} ${SCOPE.readonly} ${SCOPE.forceSsl}`,
      access_type: 'offline',
      prompt: 'consent',
      include_granted_scopes: 'true',
      state: 'abc',
      code_challenge: 'challenge',
      code_challenge_method: 'S256',
    });
    assert.equal(h.adapter.info.usesPkce, true);
  });

  test('connect: the channel id, handle, title, avatar, an hour\'s token with a refresh token, the uploads playlist', async () => {
    const started = Date.now();
    const { account } = await connectAccount(h, 'Alice');
    assert.match(account.accountId, /^UC[\w-]{22}$/);
    assert.equal(account.username, '@alice');
    assert.equal(account.displayName, 'Alice');
    assert.match(account.avatarUrl ?? '', /^http:\/\/127\.0\.0\.1:\d+\/youtube\/sandbox-avatar\//);
    assert.deepEqual(account.grant.scopes, [SCOPE.upload, SCOPE.readonly, SCOPE.forceSsl]);
    assert.ok(account.grant.refreshToken);
    assert.ok(Math.abs(account.grant.expiresAt! - (started + 3599_000)) < 5000);
    assert.deepEqual(account.meta, { uploadsPlaylistId: `UU${account.accountId.slice(2)}`, longUploadsStatus: 'allowed' });
  });

  test('granular consent: without force-ssl the account connects and can publish; without read access it cannot connect', async () => {
    const { account, creds } = await connectAccount(h, 'partial', { sandbox_decline: 'youtube.force-ssl' });
    assert.deepEqual(account.grant.scopes, [SCOPE.upload, SCOPE.readonly]);
    assert.deepEqual(h.adapter.info.requiredScopes.filter((s) => !account.grant.scopes.includes(s)), []);
    const published = await h.adapter.publish(publishRequest(creds, [video(h, 1000)]));
    assert.ok(published.ok, published.ok ? '' : published.message);
    const { code } = await approveConsent(h.adapter.authorizeUrl({ state: 's', redirectUri: REDIRECT }), { sandbox_user: 'uploadonly', sandbox_decline: 'youtube.readonly,youtube.force-ssl' });
    const r = await h.adapter.connect({ code, redirectUri: REDIRECT });
    assert.equal(!r.ok && r.category, 'permission_missing');
    assert.equal(!r.ok && r.platformCode, 'insufficientPermissions');
  });

  test('a Google account without a channel is refused with a reason', async () => {
    const { code } = await approveConsent(h.adapter.authorizeUrl({ state: 's', redirectUri: REDIRECT }), { sandbox_user: 'nochannel', sandbox_no_channel: '1' });
    const r = await h.adapter.connect({ code, redirectUri: REDIRECT });
    assert.equal(!r.ok && r.category, 'permission_missing');
    assert.match(!r.ok ? r.message : '', /no YouTube channel/);
  });

  test('a code used twice: auth_expired (invalid_grant)', async () => {
    const { code } = await approveConsent(h.adapter.authorizeUrl({ state: 's', redirectUri: REDIRECT }), { sandbox_user: 'twice' });
    assert.equal((await h.adapter.connect({ code, redirectUri: REDIRECT })).ok, true);
    const again = await h.adapter.connect({ code, redirectUri: REDIRECT });
    assert.equal(!again.ok && again.category, 'auth_expired');
    assert.equal(!again.ok && again.platformCode, 'invalid_grant');
  });

  test('refresh: a new access token and no new refresh token (the stored one is kept); a revoked grant is auth_expired', async () => {
    const { creds } = await connectAccount(h, 'refresher');
    const r = await h.adapter.refresh(creds);
    assert.ok(r.ok);
    assert.notEqual(r.grant.accessToken, creds.accessToken);
    assert.equal(r.grant.refreshToken, undefined);
    assert.ok((await h.adapter.health({ ...creds, accessToken: r.grant.accessToken })).ok);
    assert.ok((await h.adapter.refresh(creds)).ok, 'the refresh token still works');
    assert.deepEqual(await h.adapter.revoke(creds), { ok: true, revoked: true });
    const dead = await h.adapter.refresh(creds);
    assert.equal(!dead.ok && dead.category, 'auth_expired');
    assert.ok(!dead.ok && !dead.message.includes(creds.refreshToken!));
    assert.equal((await h.adapter.health(creds)).ok, false);
    assert.deepEqual(await h.adapter.revoke(creds), { ok: true, revoked: true }, 'a grant already gone counts as revoked');
  });

  test('health: granted scopes and expiry from tokeninfo, the channel\'s meta, and today\'s uploads against the daily quota', async () => {
    const { creds } = await connectAccount(h, 'healthy');
    let r = await h.adapter.health({ ...creds, meta: {} });
    assert.ok(r.ok, r.ok ? '' : r.message);
    assert.deepEqual(r.permissions, creds.scopes);
    assert.ok(Math.abs(r.expiresAt! - creds.expiresAt!) < 2000);
    assert.deepEqual(r.meta, { uploadsPlaylistId: `UU${creds.accountId.slice(2)}`, longUploadsStatus: 'allowed' });
    assert.deepEqual(r.quota, { used: 0, total: 100 });
    assert.ok((await h.adapter.publish(publishRequest(creds, [video(h, 1000)]))).ok);
    r = await h.adapter.health(creds);
    assert.deepEqual(r.ok && r.quota, { used: 1, total: 100 });
    h.emu.oauth.expireAccessTokens();
    const expired = await h.adapter.health(creds);
    assert.equal(!expired.ok && expired.category, 'auth_expired');
  });
});

describe('publishing', () => {
  test('one chunk: the video with its title, description, privacy, made-for-kids, tags and category', async () => {
    const { creds } = await connectAccount(h, 'one-chunk');
    const settings = { ...SETTINGS, title: 'My first video', privacyStatus: 'unlisted', madeForKids: false, tags: ['herald', 'two words'], categoryId: '28', notifySubscribers: false };
    const req = publishRequest(creds, [video(h, 5000)], settings, 'A description\nwith two lines');
    const r = await h.adapter.publish(req);
    assert.ok(r.ok, r.ok ? '' : r.message);
    assert.equal(r.platformPostUrl, `https://www.youtube.com/watch?v=${r.platformPostId}`);
    const [entry, ...more] = h.emu.ledger.list({ accountId: creds.accountId });
    assert.equal(more.length, 0);
    assert.equal(entry!.id, r.platformPostId);
    assert.equal(entry!.text, 'A description\nwith two lines');
    assert.deepEqual(
      { title: entry!.extra!.title, privacy: entry!.extra!.privacyStatus, kids: entry!.extra!.madeForKids, tags: entry!.extra!.tags, cat: entry!.extra!.categoryId, notify: entry!.extra!.notifySubscribers, bytes: entry!.extra!.bytes },
      { title: 'My first video', privacy: 'unlisted', kids: false, tags: ['herald', 'two words'], cat: '28', notify: false, bytes: 5000 },
    );
    // Checkpoints: the session before the first byte, then the video id.
    assert.equal(req.saved.length, 2);
    assert.ok(req.saved[0]!.sessionUri && !req.saved[0]!.videoId);
    assert.equal(req.saved[1]!.videoId, r.platformPostId);
  });

  test('several chunks, each a multiple of 256 KiB but the last, and YouTube waited for to process', async () => {
    const { creds } = await connectAccount(h, 'chunks');
    const puts = calls('PUT', '/upload/');
    const r = await h.adapter.publish(publishRequest(creds, [video(h, GRANULE * 3 + 123)]));
    assert.ok(r.ok, r.ok ? '' : r.message);
    assert.equal(calls('PUT', '/upload/') - puts, 4);
    assert.equal(h.emu.ledger.get(r.platformPostId)!.extra!.bytes, GRANULE * 3 + 123);
    assert.equal(h.emu.store.processing(h.emu.store.video(r.platformPostId)!).uploadStatus, 'processed');
  });

  test('a completing PUT answered 200 instead of 201 works the same', async () => {
    h.emu.settings.completeStatus = 200;
    const { creds } = await connectAccount(h, 'two-hundred');
    const r = await h.adapter.publish(publishRequest(creds, [video(h, 2000)]));
    assert.ok(r.ok, r.ok ? '' : r.message);
  });

  test('not one video, or no title: content_rejected before anything is sent', async () => {
    const { creds } = await connectAccount(h, 'rules');
    const posts = calls('POST', '/upload/');
    const img = await h.adapter.publish(publishRequest(creds, [image(h)]));
    assert.equal(!img.ok && img.category, 'content_rejected');
    const two = await h.adapter.publish(publishRequest(creds, [video(h, 100), video(h, 100, 1)]));
    assert.equal(!two.ok && two.category, 'content_rejected');
    const untitled = await h.adapter.publish(publishRequest(creds, [video(h, 100)], { madeForKids: false }));
    assert.equal(!untitled.ok && untitled.category, 'content_rejected');
    assert.equal(calls('POST', '/upload/'), posts);
  });

  test('a file that is plainly no video is refused before upload; one YouTube cannot process fails as media_rejected', async () => {
    const { creds } = await connectAccount(h, 'bad-bytes');
    const posts = calls('POST', '/upload/');
    const jpeg = await h.adapter.publish(publishRequest(creds, [{ type: 'video', url: `${h.server.mediaUrl}/sample.jpg` }]));
    assert.equal(!jpeg.ok && jpeg.category, 'media_rejected');
    assert.match(!jpeg.ok ? jpeg.message : '', /image/);
    assert.equal(calls('POST', '/upload/'), posts);
    // Bytes Herald cannot name go up as application/octet-stream; YouTube's processing fails them.
    const zeros = h.adapterWith({ media: { fetch: async () => ({ ok: true, bytes: new Uint8Array(4000), contentType: 'application/octet-stream' }) } });
    const junk = await zeros.publish(publishRequest(creds, [video(h, 4000)]));
    assert.equal(!junk.ok && junk.category, 'media_rejected');
    assert.equal(!junk.ok && junk.platformCode, 'invalidFile');
    assert.equal(h.emu.ledger.list({ accountId: creds.accountId, kind: 'video' }).length, 1, 'the failed upload exists on the channel');
  });

  test('a custom thumbnail is set after the upload; a thumbnail that fails never fails the video', async () => {
    const { creds } = await connectAccount(h, 'thumbs');
    const req = publishRequest(creds, [video(h, 2000)], { ...SETTINGS, thumbnail: image(h) });
    const r = await h.adapter.publish(req);
    assert.ok(r.ok, r.ok ? '' : r.message);
    assert.equal(h.emu.ledger.list({ kind: 'thumbnail' }).filter((e) => e.extra?.videoId === r.platformPostId).length, 1);
    assert.equal(req.saved.at(-1)!.thumbnail, 'set');

    const { creds: unverified } = await connectAccount(h, 'thumbs-unverified', { sandbox_unverified: '1' });
    const bad = publishRequest(unverified, [video(h, 2000)], { ...SETTINGS, thumbnail: image(h) });
    const ok = await h.adapter.publish(bad);
    assert.ok(ok.ok, ok.ok ? '' : ok.message);
    assert.match(String(bad.saved.at(-1)!.thumbnail), /thumbnail was not set.*custom video thumbnails/);
    assert.equal(h.emu.ledger.list({ accountId: unverified.accountId, kind: 'video' }).length, 1);
  });

  test('an unaudited project: the video is published, locked private, and the checkpoint says so', async () => {
    h.emu.settings.unverifiedProject = true;
    const { creds } = await connectAccount(h, 'unaudited');
    const req = publishRequest(creds, [video(h, 1000)]);
    const r = await h.adapter.publish(req);
    assert.ok(r.ok);
    assert.equal(req.saved.at(-1)!.privacyLocked, true);
    assert.equal(h.emu.ledger.get(r.platformPostId)!.extra!.privacyStatus, 'private');
  });
});
