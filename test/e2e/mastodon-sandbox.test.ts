// Mastodon in Herald's built-in sandbox, with the outbound address rule on: the emulator's root below
// Herald's own URL is a valid instance (GET /v1/connect/mastodon?instance=<HERALD_PUBLIC_URL>/sandbox/mastodon),
// while any other loopback server is refused as an instance.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { CALLBACK } from '../helpers/connect.ts';
import { posted, publishNow } from '../helpers/e2e.ts';
import { startHerald, type TestHerald } from '../helpers/herald.ts';
import { approveConsent } from '../helpers/platform.ts';

let h: TestHerald;
before(async () => {
  h = await startHerald({ env: { HERALD_ALLOW_PRIVATE_NETWORKS: 'false' } });
});
after(() => h.close());

test('connect to the sandbox instance and publish a picture from the sandbox media', async () => {
  const instance = `${h.url}/sandbox/mastodon`;
  const start = await h.request('GET', `/v1/connect/mastodon?instance=${encodeURIComponent(`${instance}/`)}&redirect_url=${encodeURIComponent(CALLBACK)}`);
  assert.equal(start.status, 200, start.text);
  assert.ok(start.body.authUrl.startsWith(`${instance}/oauth/authorize?`), 'the trailing slash is dropped, the path kept');
  const { code, state } = await approveConsent(start.body.authUrl, { sandbox_user: 'sandboxer' });
  const done = await h.request('POST', '/v1/connect/mastodon', { body: { code, state, redirect_url: CALLBACK } });
  assert.equal(done.status, 200, done.text);
  const content = `sandbox picture ${Date.now()}`;
  const post = await publishNow(h, { content, mediaItems: [{ type: 'image', url: `${h.url}/sandbox/media/sample.jpg` }], platforms: [{ platform: 'mastodon', accountId: done.body.accountId }] });
  assert.equal(post.status, 'published', JSON.stringify(post));
  const emu = h.runtime.emulators.find((e) => e.name === 'mastodon')!;
  assert.equal(posted(emu, { text: content }).length, 1);
});

test('a loopback server that is not Herald\'s sandbox is refused as an instance', async () => {
  const res = await h.request('GET', `/v1/connect/mastodon?instance=${encodeURIComponent('http://127.0.0.1:9/mastodon')}&redirect_url=${encodeURIComponent(CALLBACK)}`);
  assert.equal(res.status, 400, res.text);
  assert.equal(res.body.param, 'instance');
});
