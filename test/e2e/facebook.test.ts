// Facebook Pages end to end through Herald's HTTP API.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connectAccount } from '../helpers/connect.ts';
import { calls, posted, publishNow, startWorld, type World } from '../helpers/e2e.ts';

let w: World;
let pages: string[];
before(async () => {
  w = await startWorld();
});
after(() => w.close());

test('connect gives every granted Page; list and health', async () => {
  const connected = await connectAccount(w.h, 'facebook', { sandbox_user: 'fb_owner', sandbox_pages: '2' });
  pages = connected.accounts.map((a) => a.accountId);
  assert.equal(pages.length, 2);
  assert.equal(connected.accountId, pages[0]);
  const list = await w.h.request('GET', '/v1/accounts?platform=facebook');
  assert.deepEqual(list.body.accounts.map((a: { accountId: string }) => a.accountId).sort(), [...pages].sort());
  const health = await w.h.request('GET', '/v1/accounts/health');
  for (const entry of health.body.accounts) {
    assert.equal(entry.health, 'healthy', JSON.stringify(entry));
    assert.equal(entry.tokenExpiresAt, null, 'Page tokens do not expire');
  }
});

test('every media shape publishes once', async () => {
  const meta = w.emu('meta');
  const page = pages[0]!;
  const img = { type: 'image', url: w.media('sample.jpg') };
  const vid = { type: 'video', url: w.media('sample.mp4') };
  const shapes: [string, Record<string, unknown>, string][] = [
    ['text', {}, 'post'],
    ['link', { facebookSettings: { link: 'https://example.com/article' } }, 'post'],
    ['one photo', { mediaItems: [img] }, 'photo'],
    ['three photos', { mediaItems: [img, img, img] }, 'post'],
    ['a video', { mediaItems: [vid] }, 'video'],
    ['a reel', { mediaItems: [vid], facebookSettings: { contentType: 'reel' } }, 'reel'],
    ['a photo story', { mediaItems: [img], facebookSettings: { contentType: 'story' } }, 'story'],
  ];
  for (const [name, extra, kind] of shapes) {
    const content = `FB ${name} ${Date.now()}`;
    const post = await publishNow(w.h, { content, platforms: [{ platform: 'facebook', accountId: page }], ...extra });
    assert.equal(post.status, 'published', `${name}: ${JSON.stringify(post)}`);
    assert.ok(post.platforms[0].platformPostUrl.startsWith('https://www.facebook.com/'), post.platforms[0].platformPostUrl);
    const entries = posted(meta, { accountId: page, kind }).filter((e) => kind === 'story' || e.text === content);
    assert.ok(entries.length >= 1, `${name}: ledger has the ${kind}`);
    if (kind !== 'story') assert.equal(entries.length, 1, name);
  }
});

test("an expired Page token is re-minted from the user's grant and the post goes out", async () => {
  const meta = w.emu('meta');
  const page = pages[1]!;
  assert.ok(meta.oauth.expireAccessTokens(page) > 0);
  const before = calls(meta, 'GET', '/me/accounts');
  const content = `after expiry ${Date.now()}`;
  const post = await publishNow(w.h, { content, platforms: [{ platform: 'facebook', accountId: page }] });
  assert.equal(post.status, 'published', JSON.stringify(post));
  assert.ok(calls(meta, 'GET', '/me/accounts') > before, 'Page token re-read');
  assert.equal(posted(meta, { accountId: page, text: content }).length, 1);
});

test('disconnect revokes the grant only with the last Page that uses it', async () => {
  const meta = w.emu('meta');
  const first = await w.h.request('DELETE', `/v1/accounts/facebook/${pages[0]}`);
  assert.deepEqual(first.body, { deleted: true, revoked: false }, 'the other Page still needs the grant');
  assert.equal(calls(meta, 'DELETE', '/permissions'), 0);
  const last = await w.h.request('DELETE', `/v1/accounts/facebook/${pages[1]}`);
  assert.deepEqual(last.body, { deleted: true, revoked: true });
  assert.equal(calls(meta, 'DELETE', '/permissions'), 1);
  assert.deepEqual((await w.h.request('GET', '/v1/accounts')).body.accounts, []);
});
