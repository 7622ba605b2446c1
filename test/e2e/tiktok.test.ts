// TikTok end to end through Herald's HTTP API.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connectAccount } from '../helpers/connect.ts';
import { calls, posted, publishNow, startWorld, type World } from '../helpers/e2e.ts';

let w: World;
let accountId: string;
before(async () => {
  w = await startWorld();
});
after(() => w.close());

test('connect, list and health', async () => {
  const connected = await connectAccount(w.h, 'tiktok', { sandbox_user: 'creator' });
  accountId = connected.accountId;
  assert.equal((await w.h.request('GET', '/v1/accounts?platform=tiktok')).body.accounts[0].username, 'creator');
  const health = await w.h.request('GET', '/v1/accounts/health');
  assert.equal(health.body.accounts[0].health, 'healthy', health.text);
});

test('a video and a photo post publish once', async () => {
  const tiktok = w.emu('tiktok');
  const video = await publishNow(w.h, {
    content: `TikTok video ${Date.now()}`,
    mediaItems: [{ type: 'video', url: w.media('sample.mp4') }],
    tiktokSettings: { privacyLevel: 'PUBLIC_TO_EVERYONE', disableDuet: true },
    platforms: [{ platform: 'tiktok', accountId }],
  });
  assert.equal(video.status, 'published', JSON.stringify(video));
  assert.match(video.platforms[0].platformPostUrl, /^https:\/\/www\.tiktok\.com\/@creator\//);
  assert.match(video.platforms[0].platformPostId, /^\d{17,}$/, 'int64 ids stay exact strings');
  const photos = await publishNow(w.h, {
    content: `TikTok photos ${Date.now()}`,
    mediaItems: [
      { type: 'image', url: w.media('sample.jpg') },
      { type: 'image', url: w.media('sample.jpg') },
    ],
    platforms: [{ platform: 'tiktok', accountId, platformSpecificData: { privacyLevel: 'SELF_ONLY', title: 'two photos' } }],
  });
  assert.equal(photos.status, 'published', JSON.stringify(photos));
  assert.equal(posted(tiktok).length, 2);
});

test('an expired token is refreshed (rotating) and the post goes out', async () => {
  const tiktok = w.emu('tiktok');
  assert.ok(tiktok.oauth.expireAccessTokens() > 0);
  const refreshes = calls(tiktok, 'POST', '/v2/oauth/token/');
  const post = await publishNow(w.h, {
    content: `after expiry ${Date.now()}`,
    mediaItems: [{ type: 'video', url: w.media('sample.mp4') }],
    tiktokSettings: { privacyLevel: 'SELF_ONLY' },
    platforms: [{ platform: 'tiktok', accountId }],
  });
  assert.equal(post.status, 'published', JSON.stringify(post));
  assert.equal(calls(tiktok, 'POST', '/v2/oauth/token/'), refreshes + 1);
  // The rotated refresh token was stored: a second expiry refreshes again.
  tiktok.oauth.expireAccessTokens();
  assert.equal((await w.h.request('GET', '/v1/accounts/health')).body.accounts[0].health, 'healthy');
});

test('disconnect revokes at TikTok', async () => {
  const tiktok = w.emu('tiktok');
  const res = await w.h.request('DELETE', `/v1/accounts/tiktok/${accountId}`);
  assert.deepEqual(res.body, { deleted: true, revoked: true });
  assert.ok(calls(tiktok, 'POST', '/v2/oauth/revoke/') >= 1);
});
