// Mastodon end to end through Herald's HTTP API: connect on the instance the user names (Herald registers
// its app there once), health with permissions, create-time rules from the instance's own limits,
// publishing once per the instance's ledger (a lost answer included), editing, and revoke on disconnect.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { CALLBACK } from '../helpers/connect.ts';
import { calls, posted, publishNow, startWorld, type World } from '../helpers/e2e.ts';
import { approveConsent } from '../helpers/platform.ts';
import type { MastodonEmulator } from '../../src/sandbox/mastodon/emulator.ts';

let w: World;
let instance: string;
let accountId: string;
let domain: string;
before(async () => {
  w = await startWorld();
  instance = w.server.rootOf('mastodon');
  domain = new URL(instance).host;
});
after(() => w.close());

async function connect(user: string): Promise<{ accountId: string; username: string }> {
  const start = await w.h.request('GET', `/v1/connect/mastodon?instance=${encodeURIComponent(instance)}&redirect_url=${encodeURIComponent(CALLBACK)}`);
  assert.equal(start.status, 200, start.text);
  const authUrl = new URL(start.body.authUrl);
  assert.equal(`${authUrl.origin}${authUrl.pathname}`, `${instance}/oauth/authorize`);
  assert.equal(authUrl.searchParams.get('code_challenge_method'), 'S256');
  const { code, state } = await approveConsent(start.body.authUrl, { sandbox_user: user });
  assert.equal(state, start.body.state);
  const done = await w.h.request('POST', '/v1/connect/mastodon', { body: { code, state, redirect_url: CALLBACK } });
  assert.equal(done.status, 200, done.text);
  return done.body;
}

test('connecting needs the instance; it passes the outbound rule and must be a URL', async () => {
  const missing = await w.h.request('GET', `/v1/connect/mastodon?redirect_url=${encodeURIComponent(CALLBACK)}`);
  assert.equal(missing.status, 400);
  assert.equal(missing.body.param, 'instance');
  const bad = await w.h.request('GET', `/v1/connect/mastodon?instance=not-a-url&redirect_url=${encodeURIComponent(CALLBACK)}`);
  assert.equal(bad.status, 400);
  assert.equal(bad.body.param, 'instance');
});

test('connect through the instance\'s OAuth; the app is registered once per instance and redirect URL', async () => {
  const mastodon = w.emu('mastodon');
  const connected = await connect('herald_fan');
  accountId = connected.accountId;
  assert.match(accountId, new RegExp(`^\\d+@${domain.replace(/\./g, '\\.')}$`));
  assert.equal(connected.username, `@herald_fan@${domain}`);
  await connect('second_fan');
  assert.equal(calls(mastodon, 'POST', '/api/v1/apps'), 1, 'one app for this instance and redirect URL');
  const list = await w.h.request('GET', '/v1/accounts?platform=mastodon');
  assert.deepEqual(list.body.accounts.map((a: { username: string }) => a.username).sort(), [`@herald_fan@${domain}`, `@second_fan@${domain}`]);
  assert.equal(list.body.accounts.find((a: { accountId: string }) => a.accountId === accountId).displayName, 'herald_fan');
});

test('health: healthy, a token that does not expire, every permission granted', async () => {
  const health = await w.h.request('GET', '/v1/accounts/health');
  const mine = health.body.accounts.find((a: { accountId: string }) => a.accountId === accountId);
  assert.equal(mine.health, 'healthy', health.text);
  assert.equal(mine.tokenValid, true);
  assert.equal(mine.tokenExpiresAt, null);
  assert.deepEqual(mine.permissions, ['read:accounts', 'read:statuses', 'write:statuses', 'write:media']);
  assert.deepEqual(mine.missingPermissions, []);
});

test('text, images and a thread publish exactly once each', async () => {
  const mastodon = w.emu('mastodon');
  const stamp = Date.now();
  const text = await publishNow(w.h, { content: `Herald on Mastodon ${stamp}`, platforms: [{ platform: 'mastodon', accountId, platformSpecificData: { visibility: 'unlisted' } }] });
  assert.equal(text.status, 'published', JSON.stringify(text));
  const [target] = text.platforms;
  assert.match(target.platformPostId, /^\d+$/);
  assert.equal(target.platformPostUrl, `https://${domain}/@herald_fan/${target.platformPostId}`);
  const entries = posted(mastodon, { accountId, text: `Herald on Mastodon ${stamp}` });
  assert.equal(entries.length, 1);
  assert.equal(entries[0]!.id, target.platformPostId);
  assert.equal(entries[0]!.extra!.visibility, 'unlisted');

  const images = await publishNow(w.h, {
    content: `two pictures ${stamp}`,
    mediaItems: [{ type: 'image', url: w.media('sample.jpg') }, { type: 'image', url: w.media('sample.png') }],
    platforms: [{ platform: 'mastodon', accountId }],
  });
  assert.equal(images.status, 'published', JSON.stringify(images));
  assert.equal(posted(mastodon, { text: `two pictures ${stamp}` })[0]!.media.length, 2);

  const thread = await publishNow(w.h, {
    content: `thread ${stamp}`,
    platforms: [{ platform: 'mastodon', accountId, platformSpecificData: { threadItems: [{ content: `thread 2 ${stamp}` }], spoilerText: 'long thread' } }],
  });
  assert.equal(thread.status, 'published', JSON.stringify(thread));
  const [reply] = posted(mastodon, { kind: 'reply', text: `thread 2 ${stamp}` });
  assert.equal(reply!.extra!.inReplyToId, thread.platforms[0].platformPostId);
  assert.equal(reply!.extra!.spoilerText, 'long thread');
});

test('an answer lost after the instance made the status: reconciled, exactly one post', async () => {
  const mastodon = w.emu('mastodon');
  const content = `lost answer ${Date.now()}`;
  mastodon.faults.add({ kind: 'accept_then_hang', method: 'POST', path: '/api/v1/statuses' });
  const post = await publishNow(w.h, { content, platforms: [{ platform: 'mastodon', accountId }] });
  assert.equal(post.status, 'published', JSON.stringify(post));
  const entries = posted(mastodon, { text: content });
  assert.equal(entries.length, 1);
  assert.equal(post.platforms[0].platformPostId, entries[0]!.id);
});

test('create-time rules use the instance\'s own limit: 500 by default, more where the instance allows it', async () => {
  const mastodon = w.emu('mastodon') as MastodonEmulator;
  const long = 'a'.repeat(700);
  const refused = await w.h.request('POST', '/v1/posts', { body: { publishNow: true, content: long, platforms: [{ platform: 'mastodon', accountId }] } });
  assert.equal(refused.status, 422, refused.text);
  assert.equal(refused.body.param, 'content');
  assert.match(refused.body.error, /counts 700 characters here; its limit is 500/);
  // The instance raises its limit; the next health check stores it.
  mastodon.settings.maxCharacters = 1000;
  try {
    assert.equal((await w.h.request('GET', '/v1/accounts/health')).status, 200);
    const accepted = await w.h.request('POST', '/v1/posts', { body: { isDraft: true, content: long, platforms: [{ platform: 'mastodon', accountId }] } });
    assert.equal(accepted.status, 201, accepted.text);
  } finally {
    mastodon.settings.maxCharacters = 500;
  }
});

test('a published post is edited in place: same id, the edit recorded by the instance', async () => {
  const mastodon = w.emu('mastodon');
  const post = await publishNow(w.h, { content: `to be edited ${Date.now()}`, platforms: [{ platform: 'mastodon', accountId }] });
  const id = post.platforms[0].platformPostId;
  const res = await w.h.request('POST', `/v1/posts/${post.id}/edit`, { body: { content: 'edited through Herald' } });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual([res.body.platform, res.body.platformPostId, res.body.previousPlatformPostId, res.body.editsRemaining, res.body.editableUntil], ['mastodon', id, id, null, null]);
  assert.deepEqual(mastodon.ledger.list({ kind: 'edit' }).filter((e) => e.id === id).map((e) => e.text), ['edited through Herald']);
});

test('disconnect revokes the token at the instance with Herald\'s app there', async () => {
  const mastodon = w.emu('mastodon');
  const res = await w.h.request('DELETE', `/v1/accounts/mastodon/${encodeURIComponent(accountId)}`);
  assert.deepEqual(res.body, { deleted: true, revoked: true });
  assert.ok(calls(mastodon, 'POST', '/oauth/revoke') >= 1);
  assert.equal((await w.h.request('GET', '/v1/accounts?platform=mastodon')).body.accounts.length, 1);
});
