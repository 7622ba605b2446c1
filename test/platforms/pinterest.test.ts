// The Pinterest adapter against the Pinterest emulator over real HTTP on 127.0.0.1: accounts, every
// media shape, and unpublishing. Faults and reconcile: pinterest-faults.test.ts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { approveConsent } from '../helpers/platform.ts';
import { connectAccount, fileServer, GIF, image, publishRequest, REDIRECT, startHarness, video, type Harness } from './pinterest-helpers.ts';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(() => h.close());

const ledgerOf = (accountId: string) => h.emu.ledger.list({ accountId }).filter((e) => e.kind !== 'delete');
const callCount = (method: string, path: string) => h.emu.calls.filter((c) => c.method === method && c.path.startsWith(path)).length;

describe('accounts', () => {
  test('the consent URL carries client_id, redirect_uri, code, the comma scope list and state (no PKCE)', () => {
    const url = new URL(h.adapter.authorizeUrl({ state: 'abc', redirectUri: REDIRECT }));
    assert.equal(`${url.origin}${url.pathname}`, `${h.root}/oauth/`);
    assert.equal(url.searchParams.get('client_id'), h.deps.app.clientId);
    assert.equal(url.searchParams.get('redirect_uri'), REDIRECT);
    assert.equal(url.searchParams.get('response_type'), 'code');
    assert.ok(url.search.includes('scope=boards:read,boards:write,pins:read,pins:write,user_accounts:read&'), url.search);
    assert.equal(url.searchParams.get('state'), 'abc');
    assert.equal(url.searchParams.get('code_challenge'), null);
    assert.equal(h.adapter.info.usesPkce, false);
  });

  test('connect: the account id, username, business name, avatar, 30/60-day lifetimes, scopes and boards', async () => {
    const started = Date.now();
    const { account } = await connectAccount(h, 'Alice');
    assert.match(account.accountId, /^\d{18,19}$/);
    assert.equal(account.username, 'alice');
    assert.equal(account.displayName, 'Alice');
    assert.match(account.avatarUrl ?? '', /^http:\/\/127\.0\.0\.1:\d+\/pinterest\/sandbox-avatar\//);
    assert.match(account.grant.accessToken, /^pina\./);
    assert.match(account.grant.refreshToken ?? '', /^pinr\./);
    assert.ok(Math.abs(account.grant.expiresAt! - (started + 30 * 86400_000)) < 5000);
    assert.ok(Math.abs(account.grant.refreshExpiresAt! - (started + 60 * 86400_000)) < 5000);
    assert.deepEqual(account.grant.scopes, ['boards:read', 'boards:write', 'pins:read', 'pins:write', 'user_accounts:read']);
    assert.equal(account.meta.accountType, 'BUSINESS');
    // The secret board is not listed without boards:read_secret.
    assert.deepEqual((account.meta.boards as { name: string }[]).map((b) => b.name), ['Ideas', 'Recipes']);
  });

  test('a personal (PINNER) account has no business name: the username stands in', async () => {
    const { account } = await connectAccount(h, 'Bob', { sandbox_pinner: '1' });
    assert.equal(account.displayName, 'bob');
    assert.equal(account.meta.accountType, 'PINNER');
  });

  test('a code used twice is auth_expired (401 code 283); Herald\'s wrong app secret is not the account\'s fault', async () => {
    const { code } = await approveConsent(h.adapter.authorizeUrl({ state: 's', redirectUri: REDIRECT }), { sandbox_user: 'twice' });
    assert.ok((await h.adapter.connect({ code, redirectUri: REDIRECT })).ok);
    const again = await h.adapter.connect({ code, redirectUri: REDIRECT });
    assert.equal(!again.ok && again.category, 'auth_expired');
    assert.equal(!again.ok && again.platformCode, '283');
    const { code: code2 } = await approveConsent(h.adapter.authorizeUrl({ state: 's', redirectUri: REDIRECT }), { sandbox_user: 'twice' });
    const wrongApp = h.adapterWith({ app: { ...h.deps.app, clientSecret: 'wrong' } });
    const r = await wrongApp.connect({ code: code2, redirectUri: REDIRECT });
    assert.equal(!r.ok && r.category, 'platform_unavailable');
    assert.match(!r.ok ? r.message : '', /HERALD_PINTEREST_CLIENT_SECRET/);
  });

  test('without user_accounts:read nothing can be connected; without boards:read it connects and health names the gap', async () => {
    const { code } = await approveConsent(h.adapter.authorizeUrl({ state: 's', redirectUri: REDIRECT }), { sandbox_user: 'nameless', scope: 'pins:read,pins:write' });
    const r = await h.adapter.connect({ code, redirectUri: REDIRECT });
    assert.equal(!r.ok && r.category, 'permission_missing');
    assert.equal(!r.ok && r.platformCode, '3');
    const { account, creds } = await connectAccount(h, 'boardless', { scope: 'user_accounts:read,pins:read,pins:write' });
    assert.equal(account.meta.boards, undefined);
    const health = await h.adapter.health(creds);
    assert.ok(health.ok);
    assert.deepEqual(h.adapter.info.requiredScopes.filter((s) => !health.permissions.includes(s)), ['boards:read', 'boards:write']);
  });

  test('refresh: a new access token and a new continuous refresh token; the one used is dead', async () => {
    const { creds } = await connectAccount(h, 'rotator');
    const r = await h.adapter.refresh(creds);
    assert.ok(r.ok);
    assert.notEqual(r.grant.accessToken, creds.accessToken);
    assert.ok(r.grant.refreshToken && r.grant.refreshToken !== creds.refreshToken);
    assert.ok(r.grant.refreshExpiresAt! > Date.now() + 59 * 86400_000);
    assert.ok((await h.adapter.health({ ...creds, accessToken: r.grant.accessToken })).ok);
    const stale = await h.adapter.refresh(creds);
    assert.equal(!stale.ok && stale.category, 'auth_expired');
    assert.ok(!stale.ok && !stale.message.includes(creds.refreshToken!));
  });

  test('health: the stored scopes and expiry, fresh boards; an expired token is auth_expired', async () => {
    const { creds } = await connectAccount(h, 'healthy');
    const r = await h.adapter.health({ ...creds, meta: {} });
    assert.ok(r.ok);
    assert.deepEqual(r.permissions, creds.scopes);
    assert.equal(r.expiresAt, creds.expiresAt);
    assert.equal((r.meta?.boards as unknown[]).length, 2);
    h.emu.oauth.expireAccessTokens(creds.accountId);
    const expired = await h.adapter.health(creds);
    assert.equal(!expired.ok && expired.category, 'auth_expired');
    assert.equal(!expired.ok && expired.platformCode, '2');
  });

  test('revoke answers revoked: false without calling Pinterest (only system users\' tokens can be revoked)', async () => {
    const { creds } = await connectAccount(h, 'leaver');
    const before = h.emu.calls.length;
    assert.deepEqual(await h.adapter.revoke(creds), { ok: true, revoked: false });
    assert.equal(h.emu.calls.length, before);
    assert.equal(h.adapter.info.supportsRevoke, false);
  });
});

describe('publishing', () => {
  test('one image goes as checked bytes (image_base64) with description, title, link and alt text', async () => {
    const { creds, boardId } = await connectAccount(h, 'imager');
    const req = publishRequest(creds, [image(h, 'sample.jpg', 0, 'A white square')], { boardId, title: 'Square', link: 'https://example.com/square' }, 'A plain white square');
    const r = await h.adapter.publish(req);
    assert.ok(r.ok, r.ok ? '' : r.message);
    assert.match(r.platformPostId, /^\d{19}$/);
    assert.equal(r.platformPostUrl, `https://www.pinterest.com/pin/${r.platformPostId}/`);
    assert.deepEqual(req.saved.map((c) => Object.keys(c).sort()), [['kind', 'pinSentAt']]);
    const [entry] = ledgerOf(creds.accountId);
    assert.equal(entry?.id, r.platformPostId);
    assert.equal(entry?.kind, 'image');
    assert.equal(entry?.text, 'A plain white square');
    assert.deepEqual(entry?.media, [{ type: 'image', url: 'base64:image/jpeg' }]);
    assert.deepEqual(entry?.extra, { boardId, title: 'Square', link: 'https://example.com/square', altText: 'A white square', sourceType: 'image_base64', mediaBytes: [125] });
  });

  test('a GIF goes by URL (image_url): base64 takes only JPEG and PNG, and Pinterest downloads it', async () => {
    const files = await fileServer({ 'anim.gif': { type: 'image/gif', body: GIF } });
    try {
      const { creds, boardId } = await connectAccount(h, 'gifter');
      const r = await h.adapter.publish(publishRequest(creds, [{ type: 'image', url: files.url('anim.gif') }], { boardId }));
      assert.ok(r.ok, r.ok ? '' : r.message);
      const [entry] = ledgerOf(creds.accountId);
      assert.equal(entry?.extra?.sourceType, 'image_url');
      assert.deepEqual(entry?.media, [{ type: 'image', url: files.url('anim.gif') }]);
      assert.deepEqual(entry?.extra?.mediaBytes, [GIF.length]);
    } finally {
      await files.close();
    }
  });

  test('images heavier together than the inline limit go by URL', async () => {
    const { creds, boardId } = await connectAccount(h, 'heavy');
    const small = h.adapterWith({}, { base64MaxTotalBytes: 100 });
    const r = await small.publish(publishRequest(creds, [image(h, 'sample.jpg')], { boardId }));
    assert.ok(r.ok, r.ok ? '' : r.message);
    assert.equal(ledgerOf(creds.accountId)[0]?.extra?.sourceType, 'image_url');
  });

  test('a carousel of 2–5 images: bytes when all are JPEG/PNG, the first image\'s alt text for the Pin', async () => {
    const { creds, boardId } = await connectAccount(h, 'carousel');
    const media = [image(h, 'sample.jpg', 1, 'first'), image(h, 'sample.png', 2, 'second'), image(h, 'sample.jpg', 3)];
    const r = await h.adapter.publish(publishRequest(creds, media, { boardId }, 'Three slides'));
    assert.ok(r.ok, r.ok ? '' : r.message);
    const [entry] = ledgerOf(creds.accountId);
    assert.equal(entry?.kind, 'carousel');
    assert.equal(entry?.extra?.sourceType, 'multiple_image_base64');
    assert.deepEqual(entry?.media.map((m) => m.url), ['base64:image/jpeg', 'base64:image/png', 'base64:image/jpeg']);
    assert.deepEqual(entry?.extra?.mediaBytes, [125, 68, 125]);
    assert.equal(entry?.extra?.altText, 'first');
  });

  test('a carousel with a GIF goes as URLs (multiple_image_urls)', async () => {
    const files = await fileServer({ 'a.gif': { type: 'image/gif', body: GIF } });
    try {
      const { creds, boardId } = await connectAccount(h, 'mixed');
      const r = await h.adapter.publish(publishRequest(creds, [image(h, 'sample.jpg', 4), { type: 'image', url: files.url('a.gif') }], { boardId }));
      assert.ok(r.ok, r.ok ? '' : r.message);
      assert.equal(ledgerOf(creds.accountId)[0]?.extra?.sourceType, 'multiple_image_urls');
    } finally {
      await files.close();
    }
  });

  test('a video: registered, uploaded to the storage host, processed, then pinned with a key-frame cover', async () => {
    const { creds, boardId } = await connectAccount(h, 'filmer');
    const registers = callCount('POST', '/v5/media');
    const req = publishRequest(creds, [video(h, 40_000)], { boardId, title: 'Clip' }, 'A short clip');
    const r = await h.adapter.publish(req);
    assert.ok(r.ok, r.ok ? '' : r.message);
    assert.equal(callCount('POST', '/v5/media'), registers + 1);
    // The media id is saved before the bytes go; the pin time before the Pin is asked for.
    assert.equal(req.saved.length, 2);
    assert.match(String(req.saved[0]!.mediaId), /^\d+$/);
    assert.equal(req.saved[1]!.mediaId, req.saved[0]!.mediaId);
    assert.equal(typeof req.saved[1]!.pinSentAt, 'number');
    const [entry] = ledgerOf(creds.accountId);
    assert.equal(entry?.kind, 'video');
    assert.equal(entry?.extra?.sourceType, 'video_id');
    assert.equal(entry?.extra?.mediaId, req.saved[0]!.mediaId);
    assert.deepEqual(entry?.extra?.mediaBytes, [40_000]);
  });

  test('media Pinterest would refuse is refused before anything is sent', async () => {
    const { creds, boardId } = await connectAccount(h, 'careful');
    const calls = h.emu.calls.length;
    const notVideo = await h.adapter.publish(publishRequest(creds, [{ type: 'video', url: `${h.server.mediaUrl}/sample.jpg` }], { boardId }));
    assert.equal(!notVideo.ok && notVideo.category, 'media_rejected');
    assert.match(!notVideo.ok ? notVideo.message : '', /not an MP4 or MOV/);
    const notImage = await h.adapter.publish(publishRequest(creds, [{ type: 'image', url: `${h.server.mediaUrl}/sample.mp4` }], { boardId }));
    assert.equal(!notImage.ok && notImage.category, 'media_rejected');
    const missing = await h.adapter.publish(publishRequest(creds, [{ type: 'image', url: `${h.server.mediaUrl}/nothing.jpg` }], { boardId }));
    assert.equal(!missing.ok && missing.category, 'media_rejected');
    const noBoard = await h.adapter.publish(publishRequest(creds, [image(h)], {}));
    assert.equal(!noBoard.ok && noBoard.category, 'content_rejected');
    const tooMany = await h.adapter.publish(publishRequest(creds, Array.from({ length: 6 }, (_, i) => image(h, 'sample.jpg', i)), { boardId }));
    assert.equal(!tooMany.ok && tooMany.category, 'content_rejected');
    assert.equal(h.emu.calls.length, calls);
  });

  test('a board the account cannot pin to is content_rejected (404 code 40), nothing posted', async () => {
    const { boardId: othersBoard } = await connectAccount(h, 'owner');
    const { creds } = await connectAccount(h, 'intruder');
    const r = await h.adapter.publish(publishRequest(creds, [image(h)], { boardId: othersBoard }));
    assert.equal(!r.ok && r.category, 'content_rejected');
    assert.equal(!r.ok && r.platformCode, '40');
    assert.equal(ledgerOf(creds.accountId).length, 0);
  });
});

describe('unpublishing', () => {
  test('deletes the Pin; a Pin already gone counts as deleted; a foreign id is refused', async () => {
    const { creds, boardId } = await connectAccount(h, 'remover');
    const r = await h.adapter.publish(publishRequest(creds, [image(h)], { boardId }));
    assert.ok(r.ok);
    const request = { account: creds, platformPostId: r.platformPostId, checkpoint: null };
    assert.deepEqual(await h.adapter.unpublish!(request), { ok: true, deleted: true });
    assert.equal(h.emu.ledger.list({ kind: 'delete' }).filter((e) => e.id === r.platformPostId).length, 1);
    assert.deepEqual(await h.adapter.unpublish!(request), { ok: true, deleted: true });
    const bad = await h.adapter.unpublish!({ ...request, platformPostId: 'urn:li:share:1' });
    assert.equal(!bad.ok && bad.category, 'content_rejected');
  });

  test('Pinterest has no edit for this app and no comment API: the adapter offers neither', () => {
    assert.equal(h.adapter.edit, undefined);
    assert.equal(h.adapter.comment, undefined);
  });
});
