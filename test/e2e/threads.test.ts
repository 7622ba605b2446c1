// Threads end to end through Herald's HTTP API.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createMetaEmulator } from '../../src/sandbox/meta/emulator.ts';
import { createThreadsEmulator } from '../../src/sandbox/threads/emulator.ts';
import { createTikTokEmulator } from '../../src/sandbox/tiktok/emulator.ts';
import { createTwitterEmulator } from '../../src/sandbox/twitter/emulator.ts';
import { connectAccount } from '../helpers/connect.ts';
import { calls, posted, publishNow, startWorld, type World } from '../helpers/e2e.ts';

let w: World;
let accountId: string;
before(async () => {
  // Threads refreshes only tokens at least a day old; this test's token is new, so the rule is lifted.
  const options = { processingMs: 30 };
  w = await startWorld({
    emulatorList: [createTwitterEmulator(options), createMetaEmulator(options), createThreadsEmulator({ ...options, refreshMinAgeMs: 0 }), createTikTokEmulator(options)],
  });
});
after(() => w.close());

test('connect, list and health', async () => {
  const connected = await connectAccount(w.h, 'threads', { sandbox_user: 'threads_user' });
  accountId = connected.accountId;
  assert.match(accountId, /^\d+$/);
  assert.equal((await w.h.request('GET', '/v1/accounts?platform=threads')).body.accounts.length, 1);
  const health = await w.h.request('GET', '/v1/accounts/health');
  assert.equal(health.body.accounts[0].health, 'healthy', health.text);
});

test('every media shape publishes once', async () => {
  const threads = w.emu('threads');
  const img = { type: 'image', url: w.media('sample.jpg') };
  const vid = { type: 'video', url: w.media('sample.mp4') };
  const shapes: [string, Record<string, unknown>][] = [
    ['text', {}],
    ['an image', { mediaItems: [img] }],
    ['a video', { mediaItems: [vid] }],
    ['a carousel', { mediaItems: [img, img, vid] }],
  ];
  for (const [name, extra] of shapes) {
    const content = `Threads ${name} ${Date.now()}`;
    const post = await publishNow(w.h, { content, platforms: [{ platform: 'threads', accountId, platformSpecificData: { replyControl: 'accounts_you_follow' } }], ...extra });
    assert.equal(post.status, 'published', `${name}: ${JSON.stringify(post)}`);
    assert.match(post.platforms[0].platformPostUrl, /threads\.(net|com)/);
    assert.equal(posted(threads, { text: content }).length, 1, name);
  }
});

test('an expired-token answer is met with one refresh and the post goes out', async () => {
  const threads = w.emu('threads');
  threads.faults.add({ kind: 'expired_token', method: 'POST', path: '/threads', count: 1 });
  const refreshes = calls(threads, 'GET', '/refresh_access_token');
  const content = `after expiry ${Date.now()}`;
  const post = await publishNow(w.h, { content, platforms: [{ platform: 'threads', accountId }] });
  assert.equal(post.status, 'published', JSON.stringify(post));
  assert.equal(calls(threads, 'GET', '/refresh_access_token'), refreshes + 1);
  assert.equal(posted(threads, { text: content }).length, 1);
});

test('disconnect forgets the account (Threads has no revoke call)', async () => {
  const res = await w.h.request('DELETE', `/v1/accounts/threads/${accountId}`);
  assert.deepEqual(res.body, { deleted: true, revoked: false });
  assert.deepEqual((await w.h.request('GET', '/v1/accounts')).body.accounts, []);
});
