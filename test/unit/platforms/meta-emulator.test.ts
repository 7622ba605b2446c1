// The Meta emulator mounted the way Herald's sandbox mounts it (under a prefix) and at the root.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { createFacebookAdapter } from '../../../src/platforms/facebook/adapter.ts';
import { createMetaEmulator } from '../../../src/sandbox/meta/emulator.ts';
import { mediaRoutes } from '../../../src/sandbox/media.ts';
import { adapterDeps, approveConsent } from '../../helpers/platform.ts';

async function mount(prefix: string) {
  const emu = createMetaEmulator();
  const app = Fastify({ logger: false, forceCloseConnections: true });
  await app.register(emu.plugin, { prefix });
  await app.register(mediaRoutes, { prefix: '/files' });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return { emu, app, origin, root: `${origin}${prefix}` };
}

for (const prefix of ['/sandbox/meta', '']) {
  test(`mounted at "${prefix || '/'}": connect and a reel (upload URL points back at the mount)`, async () => {
    const { emu, app, origin, root } = await mount(prefix);
    try {
      const fb = createFacebookAdapter(adapterDeps({ apiUrl: root, authUrl: `${root}/dialog/oauth` }));
      const redirect = 'https://app.example.com/cb';
      const { code, location } = await approveConsent(fb.authorizeUrl({ state: 's1', redirectUri: redirect }), { sandbox_pages: '1' });
      assert.equal(location.searchParams.get('state'), 's1');
      const connected = await fb.connect({ code, redirectUri: redirect });
      assert.ok(connected.ok, JSON.stringify(connected));
      const page = connected.accounts[0]!;
      const out = await fb.publish({
        account: { accountId: page.accountId, username: page.username, accessToken: page.grant.accessToken, refreshToken: page.grant.refreshToken ?? null, expiresAt: null, scopes: page.grant.scopes, meta: page.meta },
        content: 'reel under a prefix',
        media: [{ type: 'video', url: `${origin}/files/sample.mp4` }],
        settings: { contentType: 'reel' },
        checkpoint: null,
        saveCheckpoint: async () => {},
        attemptStartedAt: Date.now(),
      });
      assert.ok(out.ok, JSON.stringify(out));
      assert.ok(emu.calls.some((c) => c.path.startsWith('/video-upload/v21.0/')), 'the upload went to the emulator under its own prefix');
    } finally {
      await app.close();
    }
  });
}

test('any vNN.N version works; other segments, unknown paths and bad bodies answer in the Graph envelope', async () => {
  const { app, root } = await mount('/m');
  try {
    const v = await fetch(`${root}/v25.0/me`);
    assert.equal(((await v.json()) as { error: { code: number } }).error.code, 104, 'a versioned path that needs a token');
    const bad = await fetch(`${root}/latest/me`);
    assert.equal(((await bad.json()) as { error: { code: number } }).error.code, 2500);
    const none = await fetch(`${root}/nothing`);
    assert.equal(((await none.json()) as { error: { code: number } }).error.code, 2500);
    const json = await fetch(`${root}/v21.0/123/feed`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{not json' });
    assert.equal(json.status, 400);
    assert.equal(((await json.json()) as { error: { code: number } }).error.code, 100);
  } finally {
    await app.close();
  }
});

test('errorFor renders throttles with estimated_time_to_regain_access in minutes', () => {
  const emu = createMetaEmulator();
  const page = emu.errorFor('rate_limited', { kind: 'rate_limited', path: '/1234567890/feed', resetSeconds: 150 });
  assert.equal((page.body as { error: { code: number } }).error.code, 32);
  const usage = JSON.parse(page.headers!['x-business-use-case-usage']!) as Record<string, Array<{ estimated_time_to_regain_access: number; type: string }>>;
  assert.deepEqual(usage['1234567890']?.[0]?.estimated_time_to_regain_access, 3);
  const insta = emu.errorFor('rate_limited', { kind: 'rate_limited', path: '/media_publish' });
  assert.equal((insta.body as { error: { code: number } }).error.code, 80002);
  assert.equal((emu.errorFor('expired_token', { kind: 'expired_token' }).body as { error: { error_subcode: number } }).error.error_subcode, 463);
  assert.equal(emu.errorFor('server_error', { kind: 'server_error' }).status, 500);
  assert.equal((emu.errorFor('permission', { kind: 'permission', path: '/feed' }).body as { error: { code: number } }).error.code, 200);
  assert.equal((emu.errorFor('validation', { kind: 'validation' }).body as { error: { code: number } }).error.code, 100);
});
