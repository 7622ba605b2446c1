// Pinterest end to end through Herald's HTTP API: connect by the OAuth round trip, health, every media
// shape published once, the create-time rules, a hang after the Pin was made, token refresh, disconnect.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { PinterestEmulator } from '../../src/sandbox/pinterest/emulator.ts';
import { connectAccount } from '../helpers/connect.ts';
import { calls, posted, publishNow, startWorld, waitFinal, type World } from '../helpers/e2e.ts';

let w: World;
let accountId: string;
let boardId: string;
before(async () => {
  w = await startWorld();
});
after(() => w.close());

const pinterest = () => w.emu('pinterest') as PinterestEmulator;
const target = (extra: Record<string, unknown> = {}) => [{ platform: 'pinterest', accountId, platformSpecificData: { boardId, ...extra } }];

test('connect through the consent page, list, and health with permissions', async () => {
  const connected = await connectAccount(w.h, 'pinterest', { sandbox_user: 'Pin Maker' });
  accountId = connected.accountId;
  assert.match(accountId, /^\d{18,19}$/);
  assert.equal(connected.username, 'pin_maker');
  const listed = (await w.h.request('GET', '/v1/accounts?platform=pinterest')).body.accounts[0];
  assert.equal(listed.displayName, 'Pin Maker');
  assert.match(listed.avatarUrl, /sandbox-avatar/);
  const health = (await w.h.request('GET', '/v1/accounts/health')).body.accounts.find((a: { platform: string }) => a.platform === 'pinterest');
  assert.equal(health.health, 'healthy', JSON.stringify(health));
  assert.equal(health.tokenValid, true);
  assert.deepEqual(health.permissions, ['boards:read', 'boards:write', 'pins:read', 'pins:write', 'user_accounts:read']);
  assert.deepEqual(health.missingPermissions, []);
  boardId = pinterest().store.users.get(accountId)!.boards[0]!.id;
});

test('create-time rules answer 422 naming the field, the limit and the value; a missing board names the boards', async () => {
  const img = [{ type: 'image', url: w.media('sample.jpg') }];
  const cases: [Record<string, unknown>, string, RegExp][] = [
    [{ content: 'no board', mediaItems: img, platforms: [{ platform: 'pinterest', accountId }] }, 'platforms[0].platformSpecificData.boardId', new RegExp(`${boardId} \\(Ideas\\)`)],
    [{ content: 'long title', mediaItems: img, platforms: target({ title: 't'.repeat(101) }) }, 'platforms[0].platformSpecificData.title', /at most 100 characters \(this one has 101\)/],
    [{ content: 'd'.repeat(801), mediaItems: img, platforms: target() }, 'content', /at most 800 characters \(this one has 801\)/],
    [{ content: 'text only', platforms: target() }, 'mediaItems', /one image, one video, or 2–5 images/],
    [{ content: 'six', mediaItems: Array(6).fill(img[0]), platforms: target() }, 'mediaItems', /at most 5 images \(6 given\)/],
  ];
  for (const [body, param, message] of cases) {
    const res = await w.h.request('POST', '/v1/posts', { body: { publishNow: true, ...body } });
    assert.equal(res.status, 422, res.text);
    assert.equal(res.body.param, param);
    assert.match(res.body.error, message);
  }
  const badBoard = await w.h.request('POST', '/v1/posts', { body: { publishNow: true, content: 'x', mediaItems: img, platforms: target({ boardId: 'ideas' }) } });
  assert.equal(badBoard.status, 400, badBoard.text);
  assert.equal(posted(pinterest()).length, 0);
});

test('an image, a carousel and a video each publish exactly once', async () => {
  const img = { type: 'image', url: w.media('sample.jpg') };
  const shapes: [string, Record<string, unknown>[]][] = [
    ['an image', [img]],
    ['a carousel', [img, { type: 'image', url: w.media('sample.png') }]],
    ['a video', [{ type: 'video', url: w.media('sample.mp4') }]],
  ];
  for (const [name, mediaItems] of shapes) {
    const content = `Pinterest ${name} ${Date.now()}`;
    const post = await publishNow(w.h, { content, mediaItems, platforms: target({ title: name, link: 'https://example.com/herald' }) });
    assert.equal(post.status, 'published', `${name}: ${JSON.stringify(post)}`);
    const [pin] = posted(pinterest(), { text: content });
    assert.equal(posted(pinterest(), { text: content }).length, 1, name);
    assert.equal(post.platforms[0].platformPostId, pin!.id);
    assert.equal(post.platforms[0].platformPostUrl, `https://www.pinterest.com/pin/${pin!.id}/`);
    assert.equal(pin!.extra?.title, name);
    assert.equal(pin!.extra?.boardId, boardId);
  }
});

test('a hang after Pinterest made the Pin: Herald reconciles from the board and the Pin exists once', async () => {
  pinterest().faults.add({ kind: 'accept_then_hang', method: 'POST', path: '/v5/pins', count: 1 });
  const content = `hung pin ${Date.now()}`;
  const created = await publishNow(w.h, { content, mediaItems: [{ type: 'image', url: w.media('sample.jpg') }], platforms: target() });
  const post = created.status === 'published' ? created : await waitFinal(w.h, created.id, 20_000);
  assert.equal(post.status, 'published', JSON.stringify(post));
  const pins = posted(pinterest(), { text: content });
  assert.equal(pins.length, 1);
  assert.equal(post.platforms[0].platformPostId, pins[0]!.id);
  assert.ok(calls(pinterest(), 'GET', `/v5/boards/${boardId}/pins`) >= 1, 'Herald asked the board');
});

test('an expired token is refreshed once (continuous refresh) and the Pin goes out', async () => {
  assert.ok(pinterest().oauth.expireAccessTokens() > 0);
  const refreshes = calls(pinterest(), 'POST', '/v5/oauth/token');
  const content = `after expiry ${Date.now()}`;
  const post = await publishNow(w.h, { content, mediaItems: [{ type: 'image', url: w.media('sample.jpg') }], platforms: target() });
  assert.equal(post.status, 'published', JSON.stringify(post));
  assert.equal(calls(pinterest(), 'POST', '/v5/oauth/token'), refreshes + 1);
  assert.equal(posted(pinterest(), { text: content }).length, 1);
  // The new refresh token was stored: the account stays healthy after another expiry.
  pinterest().oauth.expireAccessTokens();
  const health = (await w.h.request('GET', '/v1/accounts/health')).body.accounts.find((a: { platform: string }) => a.platform === 'pinterest');
  assert.equal(health.health, 'healthy');
});

test('disconnect forgets the account; Pinterest cannot revoke a person\'s grant', async () => {
  const res = await w.h.request('DELETE', `/v1/accounts/pinterest/${accountId}`);
  assert.deepEqual(res.body, { deleted: true, revoked: false });
  assert.equal(calls(pinterest(), 'POST', '/v5/oauth/token/revoke'), 0);
});
