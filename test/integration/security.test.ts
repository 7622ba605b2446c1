// The security basics on every /v1 route: no key, a malformed key, an unknown key and a revoked key
// get 401; another key's post or account is a 404, never a 403 and never a leak.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createEmulators } from '../../src/sandbox/index.ts';
import { startEmulatorServer, type EmulatorServer } from '../../src/sandbox/server.ts';
import { connectAccount } from '../helpers/connect.ts';
import { startHerald, type TestHerald } from '../helpers/herald.ts';

let server: EmulatorServer;
let h: TestHerald;
let postId: string;
let accountId: string;
let revokedKey: string;

const ROUTES = (): { method: string; path: string; body?: unknown; shape: 'A' | 'B' }[] => [
  { method: 'POST', path: '/v1/posts', body: { content: 'x', isDraft: true }, shape: 'B' },
  { method: 'GET', path: '/v1/posts', shape: 'A' },
  { method: 'GET', path: `/v1/posts/${postId}`, shape: 'A' },
  { method: 'DELETE', path: `/v1/posts/${postId}`, shape: 'A' },
  { method: 'POST', path: `/v1/posts/${postId}/retry`, shape: 'A' },
  { method: 'POST', path: `/v1/posts/${postId}/edit`, body: { content: 'y' }, shape: 'A' },
  { method: 'GET', path: '/v1/connect/twitter?redirect_url=https%3A%2F%2Fa.example%2Fcb', shape: 'A' },
  { method: 'POST', path: '/v1/connect/twitter', body: { code: 'c', redirect_url: 'https://a.example/cb' }, shape: 'A' },
  { method: 'GET', path: '/v1/accounts', shape: 'A' },
  { method: 'GET', path: '/v1/accounts/health', shape: 'A' },
  { method: 'DELETE', path: `/v1/accounts/twitter/${accountId}`, shape: 'A' },
];

before(async () => {
  server = await startEmulatorServer(createEmulators());
  // The per-address limit on bad keys has its own test; here every bad request must reach the 401.
  h = await startHerald({ emulators: server, env: { HERALD_AUTH_FAILURES_PER_MINUTE: '1000' } });
  accountId = (await connectAccount(h, 'twitter')).accountId;
  const post = await h.request('POST', '/v1/posts', { body: { content: 'mine', isDraft: true, platforms: [{ platform: 'twitter', accountId }] } });
  postId = post.body.id;
  const k = await h.newKey('to-revoke');
  await h.runtime.keys.revoke(k.id);
  revokedKey = k.key;
});
after(async () => {
  await h.close();
  await server.close();
});

describe('401 on every route', () => {
  const cases: [string, string | null, Record<string, string>?][] = [
    ['no key', null],
    ['a malformed key', 'not-a-key'],
    ['an unknown key', `hk_${'A'.repeat(43)}`],
    ['a revoked key', 'REVOKED'],
    ['a key in the wrong scheme', 'BASIC', { authorization: 'Basic aGs6eA==' }],
  ];
  for (const [name, key, headers] of cases) {
    test(`${name} gets 401`, async () => {
      for (const r of ROUTES()) {
        const k = key === 'REVOKED' ? revokedKey : key === 'BASIC' ? null : key;
        const res = await h.request(r.method, r.path, { body: r.body, key: k, headers });
        assert.equal(res.status, 401, `${r.method} ${r.path}: ${res.text}`);
        if (r.shape === 'B') {
          assert.deepEqual(res.body, { error: res.body.error, type: 'authentication_error', code: 'invalid_credentials', param: 'Authorization' });
        } else {
          assert.equal(res.body.code, 'AUTH_INVALID_KEY', `${r.method} ${r.path}`);
          assert.equal(res.body.param, 'Authorization');
        }
        assert.ok(res.headers.get('x-request-id'));
      }
    });
  }
});

describe("another key's resources", () => {
  test('are 404 on every route that names them, and untouched', async () => {
    const other = await h.newKey('intruder');
    for (const r of ROUTES().filter((r) => r.path.includes(postId) || r.path.includes(accountId))) {
      const res = await h.request(r.method, r.path, { body: r.body, key: other.key });
      assert.equal(res.status, 404, `${r.method} ${r.path}: ${res.text}`);
      assert.equal(res.body.code, 'NOT_FOUND');
    }
    const list = await h.request('GET', '/v1/posts', { key: other.key });
    assert.deepEqual(list.body.posts, []);
    assert.deepEqual((await h.request('GET', '/v1/accounts', { key: other.key })).body.accounts, []);
    // Still there for its owner.
    assert.equal((await h.request('GET', `/v1/posts/${postId}`)).status, 200);
    assert.equal((await h.request('GET', '/v1/accounts')).body.accounts.length, 1);
  });

  test("another key cannot post to this key's account", async () => {
    const other = await h.newKey('borrower');
    const res = await h.request('POST', '/v1/posts', {
      key: other.key,
      body: { content: 'x', scheduledFor: new Date(Date.now() + 3_600_000).toISOString(), platforms: [{ platform: 'twitter', accountId }] },
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.param, 'platforms[0].accountId');
  });
});
