// LinkedIn end to end through Herald's HTTP API: connect (the member and a Page from one consent), list,
// health, every media shape the API takes, a post whose answer is lost published exactly once, an edit,
// an expired token that cannot be renewed, and disconnect.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connectAccount } from '../helpers/connect.ts';
import { calls, posted, publishNow, startWorld, type World } from '../helpers/e2e.ts';

let w: World;
let member: string;
let page: string;
before(async () => {
  w = await startWorld();
});
after(() => w.close());

test('connect: one consent yields the member and the Page they administer; list and health', async () => {
  const connected = await connectAccount(w.h, 'linkedin', { sandbox_user: 'Ada Lovelace', sandbox_pages: '1' });
  assert.deepEqual(
    connected.accounts.map((a) => a.accountId.replace(/:[^:]+$/, '')),
    ['urn:li:person', 'urn:li:organization'],
  );
  member = connected.accountId;
  page = connected.accounts[1]!.accountId;
  assert.equal(connected.username, 'ada-lovelace');
  const list = await w.h.request('GET', '/v1/accounts?platform=linkedin');
  assert.deepEqual(list.body.accounts.map((a: { username: string; displayName: string }) => [a.username, a.displayName]).sort(), [
    ['ada-lovelace', 'Ada Lovelace'],
    ['ada-lovelace-page-1', 'Ada Page 1'],
  ]);
  const health = await w.h.request('GET', '/v1/accounts/health');
  const entries = health.body.accounts.filter((a: { platform: string }) => a.platform === 'linkedin');
  assert.equal(entries.length, 2);
  for (const entry of entries) {
    assert.equal(entry.health, 'healthy', JSON.stringify(entry));
    assert.equal(entry.tokenValid, true);
    assert.ok(entry.permissions.includes('w_member_social') && entry.permissions.includes('w_organization_social'));
    assert.deepEqual(entry.missingPermissions, []);
  }
});

test('text, images and a video publish once, as the member and as the Page', async () => {
  const li = w.emu('linkedin');
  const shapes: [string, string, Record<string, unknown>][] = [
    ['member text (with parentheses)', member, { platformSpecificData: { visibility: 'CONNECTIONS' } }],
    ['member image', member, { mediaItems: [{ type: 'image', url: w.media('sample.jpg') }] }],
    ['page images', page, { mediaItems: [{ type: 'image', url: w.media('sample.jpg') }, { type: 'image', url: w.media('sample.png') }] }],
    ['page video', page, { mediaItems: [{ type: 'video', url: `${w.media('sample.mp4')}?bytes=100000` }] }],
  ];
  for (const [name, accountId, extra] of shapes) {
    const content = `LinkedIn ${name} ${Date.now()}`;
    const { platformSpecificData, ...rest } = extra as { platformSpecificData?: unknown };
    const post = await publishNow(w.h, { content, platforms: [{ platform: 'linkedin', accountId, ...(platformSpecificData ? { platformSpecificData } : {}) }], ...rest });
    assert.equal(post.status, 'published', `${name}: ${JSON.stringify(post)}`);
    const [target] = post.platforms;
    assert.match(target.platformPostId, /^urn:li:(share|ugcPost):\d{19}$/);
    assert.equal(target.platformPostUrl, `https://www.linkedin.com/feed/update/${target.platformPostId}`);
    const entries = posted(li, { kind: 'post', text: content });
    assert.equal(entries.length, 1, name);
    assert.equal(entries[0]!.id, target.platformPostId);
    assert.equal(entries[0]!.accountId, accountId);
  }
});

test('create-time rules: 3,000 characters, no mixing, no CONNECTIONS for a Page', async () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ content: 'x'.repeat(3001), platforms: [{ platform: 'linkedin', accountId: member }] }, 'content'],
    [
      { content: 'mixed', mediaItems: [{ type: 'image', url: w.media('sample.jpg') }, { type: 'video', url: w.media('sample.mp4') }], platforms: [{ platform: 'linkedin', accountId: member }] },
      'mediaItems',
    ],
    [{ content: 'page', platforms: [{ platform: 'linkedin', accountId: page, platformSpecificData: { visibility: 'CONNECTIONS' } }] }, 'platforms[0].platformSpecificData.visibility'],
  ];
  for (const [body, param] of cases) {
    const res = await w.h.request('POST', '/v1/posts', { body: { publishNow: true, ...body } });
    assert.equal(res.status, 422, res.text);
    assert.equal(res.body.param, param, res.text);
  }
});

for (const who of ['member', 'page'] as const) {
  test(`a ${who} post LinkedIn made but never answered is published exactly once`, async () => {
    const li = w.emu('linkedin');
    li.faults.add({ kind: 'accept_then_hang', method: 'POST', path: '/rest/posts' });
    const content = `hang after commit (${who}) ${Date.now()}`;
    const post = await publishNow(w.h, { content, platforms: [{ platform: 'linkedin', accountId: who === 'member' ? member : page }] });
    assert.equal(post.status, 'published', JSON.stringify(post));
    const entries = posted(li, { kind: 'post', text: content });
    assert.equal(entries.length, 1);
    assert.equal(entries[0]!.id, post.platforms[0].platformPostId);
  });
}

test('an edit keeps the post\'s URN', async () => {
  const li = w.emu('linkedin');
  const post = await publishNow(w.h, { content: `to edit ${Date.now()}`, platforms: [{ platform: 'linkedin', accountId: member }] });
  assert.equal(post.status, 'published');
  const urn = post.platforms[0].platformPostId;
  const res = await w.h.request('POST', `/v1/posts/${post.id}/edit`, { body: { content: 'edited (once)', platform: 'linkedin' } });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.platformPostId, urn);
  assert.equal(res.body.previousPlatformPostId, urn);
  assert.equal(res.body.editsRemaining, null);
  assert.deepEqual(li.ledger.list({ kind: 'edit' }).filter((e) => e.id === urn).map((e) => e.text), ['edited (once)']);
});

test('an expired token LinkedIn gave no refresh token for: the target fails, the account needs reconnecting', async () => {
  const li = w.emu('linkedin');
  li.oauth.expireAccessTokens();
  const refreshes = calls(li, 'POST', '/accessToken');
  const post = await publishNow(w.h, { content: `after expiry ${Date.now()}`, platforms: [{ platform: 'linkedin', accountId: member }] });
  assert.equal(post.status, 'failed', JSON.stringify(post));
  assert.equal(post.platforms[0].errorCode, 'auth_expired');
  assert.equal(calls(li, 'POST', '/accessToken'), refreshes, 'nothing to refresh with');
  const list = await w.h.request('GET', '/v1/accounts?platform=linkedin');
  assert.equal(list.body.accounts.find((a: { accountId: string }) => a.accountId === member).status, 'needs_reconnect');
  const health = await w.h.request('GET', '/v1/accounts/health');
  const entry = health.body.accounts.find((a: { accountId: string }) => a.accountId === member);
  assert.equal(entry.health, 'error');
  assert.equal(entry.recommendations[0].code, 'RECONNECT');
});

test('connecting again revives both accounts; disconnect revokes only with the last account of the grant', async () => {
  const li = w.emu('linkedin');
  await connectAccount(w.h, 'linkedin', { sandbox_user: 'Ada Lovelace', sandbox_pages: '1' });
  const revokes = calls(li, 'POST', '/revoke');
  const first = await w.h.request('DELETE', `/v1/accounts/linkedin/${encodeURIComponent(page)}`);
  assert.deepEqual(first.body, { deleted: true, revoked: false });
  assert.equal(calls(li, 'POST', '/revoke'), revokes, 'the member still uses the grant');
  const last = await w.h.request('DELETE', `/v1/accounts/linkedin/${encodeURIComponent(member)}`);
  assert.deepEqual(last.body, { deleted: true, revoked: true });
  assert.equal(calls(li, 'POST', '/revoke'), revokes + 1);
});
