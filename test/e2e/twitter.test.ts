// X end to end through Herald's HTTP API: connect, list, health, every media shape, an expired token
// refreshed on the way, and revoke on disconnect.
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
  const connected = await connectAccount(w.h, 'twitter', { sandbox_user: 'herald_x', sandbox_subscription: 'Premium' });
  accountId = connected.accountId;
  assert.equal(connected.username, 'herald_x');
  const list = await w.h.request('GET', '/v1/accounts?platform=twitter');
  assert.equal(list.body.accounts.length, 1);
  assert.equal(list.body.accounts[0].status, 'active');
  const health = await w.h.request('GET', '/v1/accounts/health');
  assert.equal(health.body.accounts[0].health, 'healthy', health.text);
  assert.equal(health.body.accounts[0].tokenValid, true);
  assert.deepEqual(health.body.accounts[0].missingPermissions, []);
});

test('every media shape publishes once', async () => {
  const x = w.emu('twitter');
  const shapes: [string, Record<string, unknown>][] = [
    ['text', {}],
    ['one image', { mediaItems: [{ type: 'image', url: w.media('sample.jpg') }] }],
    ['four images', { mediaItems: Array.from({ length: 4 }, () => ({ type: 'image', url: w.media('sample.jpg') })) }],
    ['a video', { mediaItems: [{ type: 'video', url: `${w.media('sample.mp4')}?bytes=3000000` }] }],
  ];
  for (const [name, extra] of shapes) {
    const content = `X ${name} ${Date.now()}`;
    const post = await publishNow(w.h, { content, platforms: [{ platform: 'twitter', accountId }], ...extra });
    assert.equal(post.status, 'published', `${name}: ${JSON.stringify(post)}`);
    const [target] = post.platforms;
    assert.match(target.platformPostId, /^\d+$/);
    assert.equal(target.platformPostUrl, `https://x.com/herald_x/status/${target.platformPostId}`);
    const entries = posted(x, { text: content });
    assert.equal(entries.length, 1, name);
    assert.equal(entries[0]!.id, target.platformPostId);
  }
  const thread = await publishNow(w.h, {
    content: 'thread head',
    platforms: [{ platform: 'twitter', accountId, platformSpecificData: { threadItems: [{ content: 'second' }, { content: 'third' }], replySettings: 'following' } }],
  });
  assert.equal(thread.status, 'published');
  assert.equal(posted(x, { kind: 'reply' }).filter((e) => ['second', 'third'].includes(e.text)).length, 2);
});

test('an expired token is refreshed and the post goes out', async () => {
  const x = w.emu('twitter');
  const refreshesBefore = calls(x, 'POST', '/2/oauth2/token');
  assert.ok(x.oauth.expireAccessTokens() > 0);
  const post = await publishNow(w.h, { content: `after expiry ${Date.now()}`, platforms: [{ platform: 'twitter', accountId }] });
  assert.equal(post.status, 'published', JSON.stringify(post));
  assert.equal(calls(x, 'POST', '/2/oauth2/token'), refreshesBefore + 1, 'one refresh');
  const health = await w.h.request('GET', '/v1/accounts/health');
  assert.equal(health.body.accounts[0].health, 'healthy');
});

test('disconnect revokes the grant at X and forgets the account', async () => {
  const x = w.emu('twitter');
  const res = await w.h.request('DELETE', `/v1/accounts/twitter/${accountId}`);
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, { deleted: true, revoked: true });
  assert.ok(calls(x, 'POST', '/2/oauth2/revoke') >= 1);
  assert.deepEqual((await w.h.request('GET', '/v1/accounts')).body.accounts, []);
  assert.equal((await w.h.request('DELETE', `/v1/accounts/twitter/${accountId}`)).status, 404);
});
