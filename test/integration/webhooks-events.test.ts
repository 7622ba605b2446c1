// Every event of API.md section 7, end to end: real actions against the platform emulators, received by
// a real receiver, with exactly the data fields the contract lists.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createEmulators } from '../../src/sandbox/index.ts';
import type { Emulator } from '../../src/sandbox/kit/emulator.ts';
import { startEmulatorServer, type EmulatorServer } from '../../src/sandbox/server.ts';
import { EVENT_NAMES } from '../../src/events/catalog.ts';
import { connectAccount } from '../helpers/connect.ts';
import { startHerald, type TestHerald } from '../helpers/herald.ts';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.ts';
import { assertSigned, eventually, saveSettings } from '../helpers/webhooks.ts';

let server: EmulatorServer;
let x: Emulator;
let h: TestHerald;
let r: Receiver;
let secret: string;

before(async () => {
  const emulators = createEmulators();
  x = emulators.find((e) => e.name === 'twitter')!;
  server = await startEmulatorServer(emulators);
  h = await startHerald({ emulators: server });
  r = await startReceiver();
  secret = (await saveSettings(h, { url: r.url, events: EVENT_NAMES.filter((e) => e !== 'webhook.test') })).secret;
});
after(async () => {
  await h.close();
  await r.close();
  await server.close();
});

/** The data of the events named, once they all arrived (in order of arrival per event name). */
async function received(match: (json: any) => boolean, events: string[]) {
  return eventually(async () => {
    const got = r.received.filter((g) => match(g.json));
    const byEvent = events.map((e) => got.find((g) => g.json.event === e));
    if (byEvent.some((g) => !g)) return undefined;
    for (const g of byEvent) assertSigned(g!, secret);
    return byEvent.map((g) => g!.json.data);
  }, 10_000, `events ${events.join(', ')}`);
}

const keys = (o: object) => Object.keys(o).sort();

async function publishNow(accountId: string, content: string) {
  const res = await h.request('POST', '/v1/posts', { body: { content, publishNow: true, platforms: [{ platform: 'twitter', accountId }] } });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

test('connect, publish now: account.connected, post.published and post.completed', async () => {
  const account = await connectAccount(h, 'twitter', { sandbox_user: 'alice' });
  const [connected] = await received((j) => j.data.accountId === account.accountId, ['account.connected']);
  assert.deepEqual(connected, { platform: 'twitter', accountId: account.accountId, username: account.username });

  const post = await publishNow(account.accountId, 'hello from Herald');
  assert.equal(post.status, 'published');
  const [published, completed] = await received((j) => j.data.postId === post.id, ['post.published', 'post.completed']);
  const target = post.platforms[0];
  assert.deepEqual(published, {
    postId: post.id,
    platform: 'twitter',
    accountId: account.accountId,
    platformPostId: target.platformPostId,
    platformPostUrl: target.platformPostUrl,
    status: 'published',
  });
  assert.deepEqual(keys(completed), ['platforms', 'postId', 'status']);
  assert.equal(completed.status, 'published');
  assert.equal(completed.platforms.length, 1);
  assert.equal(completed.platforms[0].platformPostId, target.platformPostId);
  assert.equal(completed.platforms[0].status, 'published');
});

test('a refused post: post.failed and post.completed with status failed', async () => {
  const account = await connectAccount(h, 'twitter', { sandbox_user: 'bob' });
  x.faults.add({ kind: 'validation', method: 'POST', path: '/2/tweets', message: 'Text contains a banned phrase.' });
  const post = await publishNow(account.accountId, 'refuse me');
  assert.equal(post.status, 'failed');
  const [failed, completed] = await received((j) => j.data.postId === post.id, ['post.failed', 'post.completed']);
  assert.deepEqual(keys(failed), ['accountId', 'error', 'errorCode', 'platform', 'postId', 'status']);
  assert.equal(failed.status, 'failed');
  assert.equal(failed.errorCode, post.platforms[0].errorCode);
  assert.equal(failed.error, post.platforms[0].error);
  assert.equal(failed.accountId, account.accountId);
  assert.equal(completed.status, 'failed');
});

test('schedule then delete: post.scheduled and post.deleted', async () => {
  const account = await connectAccount(h, 'twitter', { sandbox_user: 'carol' });
  const at = new Date(Date.now() + 3_600_000).toISOString();
  const post = await h.request('POST', '/v1/posts', { body: { content: 'later', scheduledFor: at, platforms: [{ platform: 'twitter', accountId: account.accountId }] } });
  assert.equal(post.status, 201, post.text);
  assert.equal((await h.request('DELETE', `/v1/posts/${post.body.id}`)).status, 200);
  const [scheduled, deleted] = await received((j) => j.data.postId === post.body.id, ['post.scheduled', 'post.deleted']);
  assert.deepEqual(scheduled, { postId: post.body.id, scheduledFor: post.body.scheduledFor });
  assert.deepEqual(deleted, { postId: post.body.id });
});

test('an edited tweet: post.edited', async () => {
  const account = await connectAccount(h, 'twitter', { sandbox_user: 'dora', sandbox_subscription: 'Premium' });
  const post = await publishNow(account.accountId, 'typo hre');
  const edit = await h.request('POST', `/v1/posts/${post.id}/edit`, { body: { content: 'typo here' } });
  assert.equal(edit.status, 200, edit.text);
  const [edited] = await received((j) => j.event === 'post.edited' && j.data.postId === post.id, ['post.edited']);
  assert.deepEqual(edited, {
    postId: post.id,
    platform: 'twitter',
    accountId: account.accountId,
    platformPostId: edit.body.platformPostId,
    previousPlatformPostId: post.platforms[0].platformPostId,
  });
});

test('account.disconnected: by the user, and when the token cannot be renewed', async () => {
  const gone = await connectAccount(h, 'twitter', { sandbox_user: 'erin' });
  assert.equal((await h.request('DELETE', `/v1/accounts/twitter/${gone.accountId}`)).status, 200);
  const [byUser] = await received((j) => j.event === 'account.disconnected' && j.data.accountId === gone.accountId, ['account.disconnected']);
  assert.deepEqual(byUser, { platform: 'twitter', accountId: gone.accountId, username: gone.username, reason: 'user' });

  const stale = await connectAccount(h, 'twitter', { sandbox_user: 'fred' });
  x.oauth.expireAccessTokens(stale.accountId);
  x.faults.add({ kind: 'expired_token', method: 'POST', path: '/2/oauth2/token' });
  const post = await publishNow(stale.accountId, 'with a dead token');
  assert.equal(post.status, 'failed');
  const [expired] = await received((j) => j.event === 'account.disconnected' && j.data.accountId === stale.accountId, ['account.disconnected']);
  assert.deepEqual(keys(expired), ['accountId', 'platform', 'reason', 'username']);
  assert.equal(expired.reason, 'token_expired');
  assert.equal(expired.username, stale.username);
});
