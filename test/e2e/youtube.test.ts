// YouTube end to end through Herald's HTTP API: connect by the OAuth round trip, health with permissions,
// create-time rules, publishing once, a hang after the upload completed, token refresh, the daily quota,
// and revoke on disconnect.
import { after, afterEach, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SCOPE } from '../../src/platforms/youtube/info.ts';
import type { YouTubeEmulator } from '../../src/sandbox/youtube/emulator.ts';
import { connectAccount } from '../helpers/connect.ts';
import { calls, posted, publishNow, startWorld, waitFinal, type World } from '../helpers/e2e.ts';

let w: World;
let yt: YouTubeEmulator;
let accountId: string;
before(async () => {
  w = await startWorld();
  yt = w.emu('youtube') as YouTubeEmulator;
});
afterEach(() => {
  yt.faults.clear();
  yt.quota.reset();
});
after(() => w.close());

const target = (extra: Record<string, unknown> = {}) => ({ platform: 'youtube', accountId, platformSpecificData: { title: `Video ${Date.now()}`, madeForKids: false, ...extra } });

test('connect through the consent page; list; health with the granted permissions', async () => {
  const connected = await connectAccount(w.h, 'youtube', { sandbox_user: 'creator' });
  accountId = connected.accountId;
  assert.match(accountId, /^UC[\w-]{22}$/);
  assert.equal(connected.username, '@creator');
  const [account] = (await w.h.request('GET', '/v1/accounts?platform=youtube')).body.accounts;
  assert.equal(account.displayName, 'creator');
  assert.match(account.avatarUrl, /sandbox-avatar/);
  const health = await w.h.request('GET', '/v1/accounts/health');
  const entry = health.body.accounts.find((a: any) => a.platform === 'youtube');
  assert.equal(entry.health, 'healthy', health.text);
  assert.equal(entry.tokenValid, true);
  assert.deepEqual(entry.permissions, [SCOPE.upload, SCOPE.readonly, SCOPE.forceSsl]);
  assert.deepEqual(entry.missingPermissions, []);
});

test('create-time rules answer 422 with the param', async () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ content: 'no video', platforms: [target()] }, 'mediaItems'],
    [{ content: 'd', mediaItems: [{ type: 'image', url: w.media('sample.jpg') }], platforms: [target()] }, 'mediaItems[0].type'],
    [{ content: 'd', mediaItems: [{ type: 'video', url: w.media('sample.mp4') }], platforms: [{ platform: 'youtube', accountId, platformSpecificData: { madeForKids: false } }] }, 'platforms[0].platformSpecificData.title'],
    [{ content: 'd', mediaItems: [{ type: 'video', url: w.media('sample.mp4') }], platforms: [{ platform: 'youtube', accountId, platformSpecificData: { title: 'T' } }] }, 'platforms[0].platformSpecificData.madeForKids'],
    [{ content: 'é'.repeat(2501), mediaItems: [{ type: 'video', url: w.media('sample.mp4') }], platforms: [target()] }, 'content'],
  ];
  for (const [body, param] of cases) {
    const res = await w.h.request('POST', '/v1/posts', { body: { publishNow: true, ...body } });
    assert.equal(res.status, 422, res.text);
    assert.equal(res.body.param, param, res.text);
  }
});

test('a video publishes once, with its title, description and privacy; an edit changes the description', async () => {
  const description = `Described ${Date.now()}`;
  const post = await publishNow(w.h, {
    content: description,
    mediaItems: [{ type: 'video', url: w.media('sample.mp4') }],
    platforms: [target({ title: 'Herald on YouTube', privacyStatus: 'unlisted', tags: ['herald'] })],
  });
  assert.equal(post.status, 'published', JSON.stringify(post));
  const [t] = post.platforms;
  assert.equal(t.platformPostUrl, `https://www.youtube.com/watch?v=${t.platformPostId}`);
  const entries = posted(yt, { text: description });
  assert.equal(entries.length, 1);
  assert.equal(entries[0]!.id, t.platformPostId);
  assert.deepEqual([entries[0]!.extra!.title, entries[0]!.extra!.privacyStatus, entries[0]!.extra!.madeForKids], ['Herald on YouTube', 'unlisted', false]);

  // An edit changes the description in place: same video, title and tags kept.
  const edited = await w.h.request('POST', `/v1/posts/${post.id}/edit`, { body: { content: `${description} (edited)` } });
  assert.equal(edited.status, 200, edited.text);
  assert.deepEqual([edited.body.platform, edited.body.platformPostId, edited.body.previousPlatformPostId, edited.body.editableUntil], ['youtube', t.platformPostId, t.platformPostId, null]);
  const [edit] = yt.ledger.list({ kind: 'edit' }).filter((e) => e.extra?.videoId === t.platformPostId);
  assert.deepEqual([edit!.text, edit!.extra!.title, edit!.extra!.tags], [`${description} (edited)`, 'Herald on YouTube', ['herald']]);
});

test('the upload completes but neither it nor the status query is answered: reconciled, exactly one video', async () => {
  yt.faults.add({ kind: 'accept_then_hang', method: 'PUT', path: '/upload/youtube/v3/videos', count: 2 });
  const opened = calls(yt, 'POST', '/upload/youtube/v3/videos');
  const description = `Hung ${Date.now()}`;
  const created = await w.h.request('POST', '/v1/posts', {
    body: { publishNow: true, content: description, mediaItems: [{ type: 'video', url: w.media('sample.mp4') }], platforms: [target()] },
  });
  assert.equal(created.status, 201, created.text);
  const post = await waitFinal(w.h, created.body.id, 30_000);
  assert.equal(post.status, 'published', JSON.stringify(post));
  const entries = posted(yt, { text: description });
  assert.equal(entries.length, 1, 'published exactly once');
  assert.equal(post.platforms[0].platformPostId, entries[0]!.id);
  assert.equal(post.platforms[0].attempts, 2, 'the unknown outcome was settled by a reconcile, not a second upload');
  assert.equal(calls(yt, 'POST', '/upload/youtube/v3/videos') - opened, 1, 'one session opened');
});

test('an expired token is refreshed (Google sends no new refresh token; the stored one is kept)', async () => {
  const refreshes = calls(yt, 'POST', '/token');
  assert.ok(yt.oauth.expireAccessTokens() > 0);
  const post = await publishNow(w.h, { content: `after expiry ${Date.now()}`, mediaItems: [{ type: 'video', url: w.media('sample.mp4') }], platforms: [target()] });
  assert.equal(post.status, 'published', JSON.stringify(post));
  assert.equal(calls(yt, 'POST', '/token'), refreshes + 1);
  yt.oauth.expireAccessTokens();
  const health = await w.h.request('GET', '/v1/accounts/health');
  assert.equal(health.body.accounts.find((a: any) => a.platform === 'youtube').health, 'healthy', 'refreshed again with the kept refresh token');
});

test('the project\'s daily quota used up: quota_exceeded, and health warns', async () => {
  yt.quota.set({ uploads: 100 });
  const post = await publishNow(w.h, { content: `over quota ${Date.now()}`, mediaItems: [{ type: 'video', url: w.media('sample.mp4') }], platforms: [target()] });
  const final = post.status === 'failed' ? post : await waitFinal(w.h, post.id);
  assert.equal(final.status, 'failed', JSON.stringify(final));
  assert.equal(final.platforms[0].errorCode, 'quota_exceeded');
  const health = await w.h.request('GET', '/v1/accounts/health');
  const entry = health.body.accounts.find((a: any) => a.platform === 'youtube');
  assert.equal(entry.health, 'warning', health.text);
  assert.equal(entry.recommendations[0].code, 'QUOTA_NEARLY_USED');
});

test('disconnect revokes the grant at Google', async () => {
  const res = await w.h.request('DELETE', `/v1/accounts/youtube/${accountId}`);
  assert.deepEqual(res.body, { deleted: true, revoked: true });
  assert.ok(calls(yt, 'POST', '/revoke') >= 1);
});
