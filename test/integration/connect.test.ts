// The connect flow's bad inputs, reconnecting in place, and sealed tokens. A reused or another key's OAuth
// state and tokens in plain text are rows of test/faults/security.test.ts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createEmulators } from '../../src/sandbox/index.ts';
import { startEmulatorServer, type EmulatorServer } from '../../src/sandbox/server.ts';
import { CALLBACK, connectAccount } from '../helpers/connect.ts';
import { testClock } from '../helpers/clock.ts';
import { startHerald, type TestHerald } from '../helpers/herald.ts';
import { approveConsent } from '../helpers/platform.ts';

const clock = testClock();
let server: EmulatorServer;
let h: TestHerald;

before(async () => {
  server = await startEmulatorServer(createEmulators());
  h = await startHerald({ emulators: server, clock });
});
after(async () => {
  await h.close();
  await server.close();
});

const start = (platform: string, redirect: string | null = CALLBACK, key?: string) =>
  h.request('GET', `/v1/connect/${platform}${redirect === null ? '' : `?redirect_url=${encodeURIComponent(redirect)}`}`, { key });

describe('starting', () => {
  test('an unknown platform is a 400', async () => {
    const res = await start('myspace');
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'VALIDATION_ERROR');
    assert.equal(res.body.param, 'platform');
  });

  test('a redirect URL is required unless the key has a default', async () => {
    const { key, id } = await h.newKey('redirects');
    const res = await start('twitter', null, key);
    assert.equal(res.status, 400);
    assert.equal(res.body.param, 'redirect_url');
    await h.runtime.keys.setDefaultRedirectUrl(id, 'https://default.example.com/cb');
    const ok = await start('twitter', null, key);
    assert.equal(ok.status, 200);
    assert.equal(new URL(ok.body.authUrl).searchParams.get('redirect_uri'), 'https://default.example.com/cb');
  });

  test('a redirect URL must be absolute http(s)', async () => {
    for (const bad of ['/relative', 'javascript:alert(1)', 'ftp://x.example/cb']) {
      const res = await start('twitter', bad);
      assert.equal(res.status, 400, bad);
      assert.equal(res.body.param, 'redirect_url');
    }
  });

  test('the URL carries the state and, for X, a PKCE S256 challenge', async () => {
    const res = await start('twitter');
    const url = new URL(res.body.authUrl);
    assert.equal(url.searchParams.get('state'), res.body.state);
    assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
    assert.match(url.searchParams.get('code_challenge')!, /^[A-Za-z0-9_-]{43}$/);
    assert.ok(res.body.state.length >= 32);
  });
});

describe('completing', () => {
  test('a state expires after 15 minutes', async () => {
    const s = await start('twitter');
    const { code } = await approveConsent(s.body.authUrl);
    clock.advance(16 * 60_000);
    const res = await h.request('POST', '/v1/connect/twitter', { body: { code, state: s.body.state, redirect_url: CALLBACK } });
    assert.equal(res.body.code, 'OAUTH_STATE_INVALID');
  });

  test('a state is bound to its platform and redirect URL (to its key: test/faults/security.test.ts)', async () => {
    const s = await start('twitter');
    const { code } = await approveConsent(s.body.authUrl);
    const cases: [string, unknown][] = [
      ['tiktok', { code, state: s.body.state, redirect_url: CALLBACK }],
      ['twitter', { code, state: s.body.state, redirect_url: 'https://elsewhere.example/cb' }],
      ['twitter', { code, state: 'made-up-state', redirect_url: CALLBACK }],
    ];
    for (const [platform, body] of cases) {
      const res = await h.request('POST', `/v1/connect/${platform}`, { body });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.code, 'OAUTH_STATE_INVALID', JSON.stringify(body));
    }
    // Still usable by its owner after those attempts.
    const ok = await h.request('POST', '/v1/connect/twitter', { body: { code, state: s.body.state, redirect_url: CALLBACK } });
    assert.equal(ok.status, 200, ok.text);
  });

  test('without state, the newest unused state of the key, platform and redirect URL is used', async () => {
    const s = await start('tiktok');
    const { code } = await approveConsent(s.body.authUrl);
    const res = await h.request('POST', '/v1/connect/tiktok', { body: { code, redirect_url: CALLBACK } });
    assert.equal(res.status, 200, res.text);
  });

  test('a code the platform refuses is OAUTH_CODE_INVALID', async () => {
    const s = await start('twitter');
    const res = await h.request('POST', '/v1/connect/twitter', { body: { code: 'not-a-code', state: s.body.state, redirect_url: CALLBACK } });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'OAUTH_CODE_INVALID');
    assert.equal(res.body.param, 'code');
  });

  test('a grant that gives nothing to publish to is a 422', async () => {
    const s = await start('facebook');
    const { code } = await approveConsent(s.body.authUrl, { sandbox_user: 'no_pages', sandbox_pages: '0' });
    const res = await h.request('POST', '/v1/connect/facebook', { body: { code, state: s.body.state, redirect_url: CALLBACK } });
    assert.equal(res.status, 422, res.text);
    assert.equal(res.body.code, 'PERMISSION_MISSING');
  });

  test('a platform outage during the exchange is a 502', async () => {
    const s = await start('twitter');
    const { code } = await approveConsent(s.body.authUrl);
    await fetch(`${server.rootOf('twitter')}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'server_error', path: '/2/oauth2/token', count: 1 }),
    });
    const res = await h.request('POST', '/v1/connect/twitter', { body: { code, state: s.body.state, redirect_url: CALLBACK } });
    assert.equal(res.status, 502, res.text);
    assert.equal(res.body.code, 'PLATFORM_ERROR');
  });
});

describe('reconnecting and tokens at rest', () => {
  test('reconnecting updates the account in place and keeps a refresh token the new grant lacks', async () => {
    const { key } = await h.newKey('reconnect');
    const first = await connectAccount(h, 'twitter', { sandbox_user: 'same_person' }, key);
    const rowBefore = await h.runtime.db.writable.selectFrom('accounts').selectAll().where('account_id', '=', first.accountId).where('api_key_id', '!=', h.keyId).executeTakeFirstOrThrow();
    const second = await connectAccount(h, 'twitter', { sandbox_user: 'same_person' }, key);
    assert.equal(second.accountId, first.accountId);
    const rows = await h.runtime.db.writable.selectFrom('accounts').selectAll().where('account_id', '=', first.accountId).where('api_key_id', '=', rowBefore.api_key_id).execute();
    assert.equal(rows.length, 1, 'one account, updated in place');
    assert.equal(rows[0]!.id, rowBefore.id);
    assert.notEqual(rows[0]!.access_token, rowBefore.access_token);

    // A grant without a refresh token keeps the stored one.
    const { sealGrant } = await import('../../src/accounts/credentials.ts');
    const sealed = sealGrant(h.runtime.box, rowBefore.id, { accessToken: 'new-access', expiresAt: null, scopes: [] }, rows[0]!.refresh_token);
    assert.equal(sealed.refresh_token, rows[0]!.refresh_token);
  });

  test('a token is sealed, and a sealed token cannot be moved to another row (no token in plain text: test/faults/security.test.ts)', async () => {
    const x = await connectAccount(h, 'twitter', { sandbox_user: 'secretive' });
    const rows = await h.runtime.db.writable.selectFrom('accounts').selectAll().execute();
    const row = rows.find((r) => r.account_id === x.accountId)!;
    const { openCredentials } = await import('../../src/accounts/credentials.ts');
    const creds = openCredentials(h.runtime.box, row);
    assert.ok(creds.accessToken.length > 20 && creds.refreshToken);
    assert.match(row.access_token, /^v1\./);
    assert.ok(!row.access_token.includes(creds.accessToken));

    // Bound to its row: the same ciphertext does not open as another account's token.
    const other = rows.find((r) => r.id !== row.id)!;
    assert.throws(() => openCredentials(h.runtime.box, { ...other, access_token: row.access_token }));
  });
});
