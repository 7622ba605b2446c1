// Instagram (through Facebook Login) end to end through Herald's HTTP API.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connectAccount } from '../helpers/connect.ts';
import { calls, posted, publishNow, startWorld, type World } from '../helpers/e2e.ts';

let w: World;
let accounts: string[];
before(async () => {
  w = await startWorld();
});
after(() => w.close());

test('connect gives the professional accounts of the granted Pages; list and health', async () => {
  const connected = await connectAccount(w.h, 'instagram', { sandbox_user: 'ig_owner', sandbox_pages: '2' });
  accounts = connected.accounts.map((a) => a.accountId);
  assert.equal(accounts.length, 2);
  const health = await w.h.request('GET', '/v1/accounts/health');
  for (const entry of health.body.accounts) {
    assert.equal(entry.health, 'healthy', JSON.stringify(entry));
    assert.ok(Date.parse(entry.tokenExpiresAt) > Date.now() + 50 * 86_400_000, 'long-lived token');
  }
});

test('every media shape publishes once', async () => {
  const meta = w.emu('meta');
  const account = accounts[0]!;
  const img = { type: 'image', url: w.media('sample.jpg') };
  const vid = { type: 'video', url: w.media('sample.mp4') };
  const shapes: [string, Record<string, unknown>, Record<string, unknown>?][] = [
    ['an image', { mediaItems: [img] }],
    ['a carousel', { mediaItems: [img, vid, img] }],
    ['a reel', { mediaItems: [vid] }, { contentType: 'reel', shareToFeed: true }],
    ['a story', { mediaItems: [img] }, { contentType: 'story' }],
  ];
  for (const [name, extra, settings] of shapes) {
    const content = `IG ${name} ${Date.now()}`;
    const before = posted(meta, { accountId: account, kind: 'media' }).length;
    const post = await publishNow(w.h, { content, platforms: [{ platform: 'instagram', accountId: account, ...(settings ? { platformSpecificData: settings } : {}) }], ...extra });
    assert.equal(post.status, 'published', `${name}: ${JSON.stringify(post)}`);
    assert.match(post.platforms[0].platformPostUrl, /^https:\/\/www\.instagram\.com\//);
    assert.equal(posted(meta, { accountId: account, kind: 'media' }).length, before + 1, name);
  }
});

test('an expired-token answer is met with one refresh and the post goes out', async () => {
  const meta = w.emu('meta');
  meta.faults.add({ kind: 'expired_token', method: 'POST', path: '/media', count: 1 });
  const exchanges = calls(meta, 'GET', '/oauth/access_token');
  const post = await publishNow(w.h, { content: `after expiry ${Date.now()}`, mediaItems: [{ type: 'image', url: w.media('sample.jpg') }], platforms: [{ platform: 'instagram', accountId: accounts[1]! }] });
  assert.equal(post.status, 'published', JSON.stringify(post));
  assert.equal(calls(meta, 'GET', '/oauth/access_token'), exchanges + 1, 'one token exchange');
});

test('disconnect revokes the shared grant only with the last account', async () => {
  const meta = w.emu('meta');
  assert.deepEqual((await w.h.request('DELETE', `/v1/accounts/instagram/${accounts[0]}`)).body, { deleted: true, revoked: false });
  assert.deepEqual((await w.h.request('DELETE', `/v1/accounts/instagram/${accounts[1]}`)).body, { deleted: true, revoked: true });
  assert.equal(calls(meta, 'DELETE', '/permissions'), 1);
});
