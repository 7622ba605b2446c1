// Fault matrix: security. Each row is an attack or a mistake and the outcome API.md promises:
//   no key, a malformed, unknown or revoked key, or another scheme  → 401 on every /v1 route (shape B on POST /v1/posts), nothing changed
//   another key's post on every route that names it                 → 404 NOT_FOUND; the post and X are untouched
//   another key's account on DELETE /v1/accounts                    → 404 NOT_FOUND; still connected, its token not revoked
//   another key's account named as a target of POST /v1/posts      → 400 invalid_field_value, platforms[0].accountId; nothing posted
//   another key's webhook delivery on get and redeliver             → 404 NOT_FOUND; nothing sent again
//   media URL at a private, loopback or link-local address form    → accepted at create, refused at publish: media_rejected, nothing fetched
//   webhook URL at a private, loopback or link-local address form  → 400 VALIDATION_ERROR param url when saved; blocked when sent
//   media import from a private, loopback or link-local address form → 400 VALIDATION_ERROR param url; nothing stored
//   another key's media on get, PATCH and DELETE, or named in a post → 404 NOT_FOUND / 400 invalid_field_value at the item
//   (control) the same URLs with HERALD_ALLOW_PRIVATE_NETWORKS=true → saved / published: the refusals are the address rule's
//   webhook URL at a loopback form in the sandbox (setting unset)  → saved and delivered: a local receiver is the sandbox's first test
//   webhook URL at a private form in the sandbox (setting unset)   → 400 naming HERALD_ALLOW_PRIVATE_NETWORKS; blocked when sent
//   webhook URL at a loopback form, sandbox, setting false          → 400 naming HERALD_ALLOW_PRIVATE_NETWORKS: an explicit false is kept
//   a reused OAuth state                                           → 400 OAUTH_STATE_INVALID; the first connection stands
//   another key's OAuth state (named, or picked as newest)         → 400 OAUTH_STATE_INVALID; nothing connected; the owner still can
//   tokens at rest                                                 → no access or refresh token the emulators issued is in any column of any table
// Address forms: 127.0.0.1, [::ffff:127.0.0.1], 2130706433, 0x7f.0.0.1, [::1], localhost, a test host name resolving to
// 10.0.0.1, 10.0.0.1, 192.168.1.10, 169.254.169.254. Loopback forms carry the port of a live server, so a guard that let
// them through would visibly succeed.
import { lookup } from 'node:dns';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createEmulators } from '../../src/sandbox/index.ts';
import type { Emulator } from '../../src/sandbox/kit/emulator.ts';
import { startEmulatorServer, type EmulatorServer } from '../../src/sandbox/server.ts';
import { captureIssuedTokens, findInDatabase, findInFiles } from '../helpers/at-rest.ts';
import { CALLBACK, connectAccount } from '../helpers/connect.ts';
import { calls, publishNow } from '../helpers/e2e.ts';
import { createTestDatabase, startHerald, usingPostgres, type TestDatabase, type TestHerald } from '../helpers/herald.ts';
import { approveConsent } from '../helpers/platform.ts';
import { overrideLookup } from '../helpers/resolver.ts';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.ts';
import { deleteADraft, listDeliveries, saveSettings } from '../helpers/webhooks.ts';

const PRIVATE_HOST = 'intranet.herald.test'; // resolved to 10.0.0.1 by the test resolver below

let emulators: Emulator[];
let server: EmulatorServer;
let database: TestDatabase;
let h: TestHerald; // private networks allowed (the owner of everything below is h.key)
let guarded: TestHerald; // HERALD_ALLOW_PRIVATE_NETWORKS=false
let receiver: Receiver;
let restoreLookup: () => void;
const x = () => emulators.find((e) => e.name === 'twitter')!;

// The owner's resources.
let accountId: string;
let published: any; // a published X post
let failed: any; // a post whose X target failed (retry would publish it)
let draftId: string;
let deliveryId: string;
let revokedKey: string;
let mediaId: string; // a library file of the owner's

before(async () => {
  restoreLookup = overrideLookup({ [PRIVATE_HOST]: '10.0.0.1' });
  const resolved = await new Promise((res) => lookup(PRIVATE_HOST, { all: true }, (_err, addresses) => res(addresses)));
  assert.deepEqual(resolved, [{ address: '10.0.0.1', family: 4 }], 'the test resolver is what `import { lookup }` sees');
  emulators = createEmulators();
  server = await startEmulatorServer(emulators);
  receiver = await startReceiver();
  // The per-address limit on bad keys has its own test; here every bad request must reach the 401.
  database = await createTestDatabase();
  h = await startHerald({ emulators: server, database, env: { HERALD_AUTH_FAILURES_PER_MINUTE: '1000' } });
  guarded = await startHerald({ emulators: server, env: { HERALD_ALLOW_PRIVATE_NETWORKS: 'false' } });

  accountId = (await connectAccount(h, 'twitter')).accountId;
  published = await publishNow(h, { content: 'published, owned by the first key', platforms: [{ platform: 'twitter', accountId }] });
  assert.equal(published.status, 'published');
  x().faults.add({ kind: 'validation', method: 'POST', path: '/2/tweets' });
  failed = await publishNow(h, { content: 'failed, owned by the first key', platforms: [{ platform: 'twitter', accountId }] });
  assert.equal(failed.status, 'failed');
  draftId = (await h.request('POST', '/v1/posts', { body: { content: 'a draft', isDraft: true, platforms: [{ platform: 'twitter', accountId }] } })).body.id;
  await saveSettings(h, { url: receiver.url, events: ['post.deleted'] });
  await deleteADraft(h);
  await receiver.waitFor(1);
  deliveryId = (await listDeliveries(h))[0].id;
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
  const uploaded = await fetch(`${h.url}/v1/media`, { method: 'POST', headers: { authorization: `Bearer ${h.key}`, 'content-type': 'image/png' }, body: png });
  assert.equal(uploaded.status, 201);
  mediaId = ((await uploaded.json()) as { id: string }).id;
  const k = await h.newKey('to-revoke');
  await h.runtime.keys.revoke(k.id);
  revokedKey = k.key;
});
after(async () => {
  restoreLookup();
  await h.close();
  await database.drop();
  await guarded.close();
  await server.close();
  await receiver.close();
});

/** Every /v1 operation, with the owner's real ids in its path. */
const ROUTES = (): { method: string; template: string; path: string; body?: unknown }[] => [
  { method: 'POST', template: '/v1/posts', path: '/v1/posts', body: { content: 'x', isDraft: true } },
  { method: 'GET', template: '/v1/posts', path: '/v1/posts' },
  { method: 'GET', template: '/v1/posts/{postId}', path: `/v1/posts/${published.id}` },
  { method: 'DELETE', template: '/v1/posts/{postId}', path: `/v1/posts/${draftId}` },
  { method: 'POST', template: '/v1/posts/{postId}/retry', path: `/v1/posts/${failed.id}/retry` },
  { method: 'POST', template: '/v1/posts/{postId}/edit', path: `/v1/posts/${published.id}/edit`, body: { content: 'edited' } },
  { method: 'PATCH', template: '/v1/posts/{postId}', path: `/v1/posts/${draftId}`, body: { content: 'changed' } },
  { method: 'POST', template: '/v1/posts/{postId}/unpublish', path: `/v1/posts/${published.id}/unpublish`, body: {} },
  { method: 'POST', template: '/v1/posts/validate', path: '/v1/posts/validate', body: { content: 'x', publishNow: true, platforms: [{ platform: 'twitter', accountId }] } },
  { method: 'POST', template: '/v1/posts/bulk', path: '/v1/posts/bulk', body: { posts: [{ content: 'x', isDraft: true }] } },
  { method: 'PUT', template: '/v1/queue', path: '/v1/queue', body: { timezone: 'UTC', slots: [{ day: 'mon', time: '09:00' }] } },
  { method: 'GET', template: '/v1/queue', path: '/v1/queue' },
  { method: 'DELETE', template: '/v1/queue', path: '/v1/queue' },
  { method: 'GET', template: '/v1/connect/{platform}', path: `/v1/connect/twitter?redirect_url=${encodeURIComponent(CALLBACK)}` },
  { method: 'POST', template: '/v1/connect/{platform}', path: '/v1/connect/twitter', body: { code: 'c', redirect_url: CALLBACK } },
  { method: 'GET', template: '/v1/accounts', path: '/v1/accounts' },
  { method: 'GET', template: '/v1/accounts/health', path: '/v1/accounts/health' },
  { method: 'DELETE', template: '/v1/accounts/{platform}/{accountId}', path: `/v1/accounts/twitter/${accountId}` },
  { method: 'POST', template: '/v1/webhooks/settings', path: '/v1/webhooks/settings', body: { url: 'https://1.1.1.1/hooks', events: ['post.deleted'] } },
  { method: 'GET', template: '/v1/webhooks/settings', path: '/v1/webhooks/settings' },
  { method: 'DELETE', template: '/v1/webhooks/settings', path: '/v1/webhooks/settings' },
  { method: 'POST', template: '/v1/webhooks/secret/rotate', path: '/v1/webhooks/secret/rotate' },
  { method: 'GET', template: '/v1/webhooks/deliveries', path: '/v1/webhooks/deliveries' },
  { method: 'GET', template: '/v1/webhooks/deliveries/{id}', path: `/v1/webhooks/deliveries/${deliveryId}` },
  { method: 'POST', template: '/v1/webhooks/deliveries/{id}/redeliver', path: `/v1/webhooks/deliveries/${deliveryId}/redeliver` },
  { method: 'POST', template: '/v1/webhooks/test', path: '/v1/webhooks/test', body: { event: 'webhook.test' } },
  { method: 'POST', template: '/v1/media', path: '/v1/media' },
  { method: 'POST', template: '/v1/media/import', path: '/v1/media/import', body: { url: 'https://1.1.1.1/photo.jpg' } },
  { method: 'GET', template: '/v1/media', path: '/v1/media' },
  { method: 'GET', template: '/v1/media/{id}', path: `/v1/media/${mediaId}` },
  { method: 'PATCH', template: '/v1/media/{id}', path: `/v1/media/${mediaId}`, body: { altText: 'changed' } },
  { method: 'DELETE', template: '/v1/media/{id}', path: `/v1/media/${mediaId}` },
];

/** What the owner has, as the owner sees it: compared before and after an attack. */
async function ownerView() {
  const get = async (path: string) => {
    const res = await h.request('GET', path);
    return { status: res.status, body: res.body };
  };
  return {
    published: await get(`/v1/posts/${published.id}`),
    failed: await get(`/v1/posts/${failed.id}`),
    draft: await get(`/v1/posts/${draftId}`),
    accounts: await get('/v1/accounts'),
    settings: await get('/v1/webhooks/settings'),
    delivery: await get(`/v1/webhooks/deliveries/${deliveryId}`),
    media: await get('/v1/media'),
    tweets: x().ledger.list().map((e) => `${e.id}:${e.text}`),
    xCalls: x().calls.length,
    received: receiver.received.length,
  };
}

describe('authentication', () => {
  test('the 401 rows below cover every /v1 operation of /openapi.json', async () => {
    const doc = (await h.request('GET', '/openapi.json', { key: null })).body;
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .filter(([p]) => p.startsWith('/v1/'))
      .flatMap(([p, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${p}`))
      .sort();
    assert.deepEqual(ROUTES().map((r) => `${r.method} ${r.template}`).sort(), documented);
  });

  const cases: [string, string | null, Record<string, string>?][] = [
    ['no key', null],
    ['a malformed key', 'not-a-key'],
    ['an unknown key', `hk_${'A'.repeat(43)}`],
    ['a revoked key', 'REVOKED'],
    ['a key in the wrong scheme (Basic)', null, { authorization: 'Basic aGs6eA==' }],
  ];
  for (const [name, key, headers] of cases) {
    test(`${name} → 401 on every /v1 route (shape B invalid_credentials on POST /v1/posts, AUTH_INVALID_KEY elsewhere), nothing changed`, async () => {
      const before = await ownerView();
      for (const r of ROUTES()) {
        const res = await h.request(r.method, r.path, { body: r.body, key: key === 'REVOKED' ? revokedKey : key, headers });
        assert.equal(res.status, 401, `${r.method} ${r.path}: ${res.text}`);
        if (r.method === 'POST' && r.template === '/v1/posts') {
          assert.deepEqual(res.body, { error: res.body.error, type: 'authentication_error', code: 'invalid_credentials', param: 'Authorization' });
        } else {
          assert.deepEqual(Object.keys(res.body).sort(), ['code', 'error', 'param'], `${r.method} ${r.path}`);
          assert.equal(res.body.code, 'AUTH_INVALID_KEY', `${r.method} ${r.path}`);
          assert.equal(res.body.param, 'Authorization');
        }
        assert.ok(res.headers.get('x-request-id'));
      }
      assert.deepEqual(await ownerView(), before);
    });
  }
});

describe("another key's resources", () => {
  test("another key's post → 404 NOT_FOUND on get, delete, retry and edit; the post and X are untouched", async () => {
    const intruder = await h.newKey('intruder');
    const before = await ownerView();
    const routes = ROUTES().filter((r) => r.template.startsWith('/v1/posts/{postId}'));
    assert.equal(routes.length, 6);
    for (const postId of [published.id, failed.id, draftId]) {
      for (const r of routes) {
        const path = r.template.replace('{postId}', postId);
        const res = await h.request(r.method, path, { body: r.body, key: intruder.key });
        assert.equal(res.status, 404, `${r.method} ${path}: ${res.text}`);
        assert.deepEqual(Object.keys(res.body).sort(), ['code', 'error'], 'shape A, nothing about the post');
        assert.equal(res.body.code, 'NOT_FOUND');
      }
    }
    assert.deepEqual((await h.request('GET', '/v1/posts', { key: intruder.key })).body.posts, []);
    assert.deepEqual(await ownerView(), before, 'no post changed, nothing reached X');
  });

  test("another key's account → 404 NOT_FOUND on DELETE /v1/accounts; still connected and its token not revoked", async () => {
    const intruder = await h.newKey('intruder');
    const before = await ownerView();
    const revokes = calls(x(), 'POST', '/oauth2/revoke');
    const res = await h.request('DELETE', `/v1/accounts/twitter/${accountId}`, { key: intruder.key });
    assert.equal(res.status, 404, res.text);
    assert.equal(res.body.code, 'NOT_FOUND');
    assert.deepEqual((await h.request('GET', '/v1/accounts', { key: intruder.key })).body.accounts, []);
    assert.deepEqual((await h.request('GET', '/v1/accounts/health', { key: intruder.key })).body.accounts, []);
    assert.deepEqual(await ownerView(), before);
    assert.equal(calls(x(), 'POST', '/oauth2/revoke'), revokes, 'no revoke call reached X');
    const health = await h.request('GET', '/v1/accounts/health');
    const mine = health.body.accounts.find((a: any) => a.accountId === accountId);
    assert.equal(mine.tokenValid, true, 'the token still works at X');
  });

  test("another key's account named as a target → 400 invalid_field_value, param platforms[0].accountId; nothing posted", async () => {
    const intruder = await h.newKey('borrower');
    const before = await ownerView();
    const bodies = [
      { content: 'x', scheduledFor: new Date(Date.now() + 3_600_000).toISOString(), platforms: [{ platform: 'twitter', accountId }] },
      { content: 'x', publishNow: true, platforms: [{ platform: 'twitter', accountId }] },
    ];
    for (const body of bodies) {
      const res = await h.request('POST', '/v1/posts', { key: intruder.key, body });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.type, 'invalid_request_error');
      assert.equal(res.body.code, 'invalid_field_value');
      assert.equal(res.body.param, 'platforms[0].accountId');
    }
    assert.deepEqual((await h.request('GET', '/v1/posts', { key: intruder.key })).body.posts, []);
    assert.deepEqual(await ownerView(), before, 'nothing reached X');
  });

  test("another key's media → 404 NOT_FOUND on get, PATCH and DELETE; named in a post → 400 invalid_field_value at the item", async () => {
    const intruder = await h.newKey('borrower of media');
    const before = await ownerView();
    for (const r of ROUTES().filter((r) => r.template === '/v1/media/{id}')) {
      const res = await h.request(r.method, r.path, { body: r.body, key: intruder.key });
      assert.equal(res.status, 404, `${r.method} ${r.path}: ${res.text}`);
      assert.deepEqual(Object.keys(res.body).sort(), ['code', 'error']);
    }
    const post = await h.request('POST', '/v1/posts', { key: intruder.key, body: { isDraft: true, content: 'x', mediaItems: [{ mediaId }] } });
    assert.equal(post.status, 400, post.text);
    assert.deepEqual({ type: post.body.type, code: post.body.code, param: post.body.param }, { type: 'invalid_request_error', code: 'invalid_field_value', param: 'mediaItems[0].mediaId' });
    assert.deepEqual((await h.request('GET', '/v1/media', { key: intruder.key })).body.media, []);
    assert.deepEqual(await ownerView(), before);
  });

  test("another key's webhook delivery → 404 NOT_FOUND on get and redeliver; nothing is sent again", async () => {
    const intruder = await h.newKey('snoop');
    const before = await ownerView();
    for (const [method, path] of [['GET', `/v1/webhooks/deliveries/${deliveryId}`], ['POST', `/v1/webhooks/deliveries/${deliveryId}/redeliver`]] as const) {
      const res = await h.request(method, path, { key: intruder.key });
      assert.equal(res.status, 404, `${method} ${path}: ${res.text}`);
      assert.equal(res.body.code, 'NOT_FOUND');
    }
    assert.deepEqual(await listDeliveries(h, intruder.key), []);
    // A redelivery is sent before its answer, never later in the background: after the 404s there is
    // nothing on its way to wait for.
    assert.deepEqual(await ownerView(), before, 'the receiver heard nothing more');
  });
});

/** Address forms of §9; `port` is a live server's, for the forms that reach this machine. */
const FORMS: { label: string; host: (port: string) => string }[] = [
  { label: '127.0.0.1', host: (port) => `127.0.0.1:${port}` },
  { label: '[::ffff:127.0.0.1] (IPv4-mapped IPv6)', host: (port) => `[::ffff:127.0.0.1]:${port}` },
  { label: '2130706433 (127.0.0.1 as one decimal number)', host: (port) => `2130706433:${port}` },
  { label: '0x7f.0.0.1 (hexadecimal)', host: (port) => `0x7f.0.0.1:${port}` },
  { label: '[::1]', host: (port) => `[::1]:${port}` },
  { label: 'localhost (a host name resolving to 127.0.0.1)', host: (port) => `localhost:${port}` },
  { label: `${PRIVATE_HOST} (a host name resolving to 10.0.0.1)`, host: () => PRIVATE_HOST },
  { label: '10.0.0.1', host: () => '10.0.0.1' },
  { label: '192.168.1.10', host: () => '192.168.1.10' },
  { label: '169.254.169.254 (cloud metadata)', host: () => '169.254.169.254' },
];
const mediaPort = () => new URL(server.mediaUrl).port;
const mediaUrlAt = (form: (typeof FORMS)[number]) => `http://${form.host(mediaPort())}/media/sample.jpg`;
const hookUrlAt = (form: (typeof FORMS)[number]) => `http://${form.host(new URL(receiver.url).port)}/hooks`;

describe('SSRF: media URLs (fetched only when a target publishes, API.md section 5)', () => {
  let guardedAccount: string;
  before(async () => {
    guardedAccount = (await connectAccount(guarded, 'twitter')).accountId;
  });

  for (const form of FORMS) {
    test(`media URL at ${form.label} → accepted at create, refused at publish: target failed media_rejected, nothing uploaded or posted`, async () => {
      const url = mediaUrlAt(form);
      const uploads = calls(x(), 'POST', '/2/media/upload');
      const tweets = calls(x(), 'POST', '/2/tweets');
      const post = await publishNow(guarded, { content: `ssrf ${form.label}`, mediaItems: [{ type: 'image', url }], platforms: [{ platform: 'twitter', accountId: guardedAccount }] });
      assert.equal(post.status, 'failed', JSON.stringify(post));
      const [t] = post.platforms;
      assert.equal(t.status, 'failed');
      assert.equal(t.errorCode, 'media_rejected');
      assert.match(t.error, /private, loopback or reserved address/);
      assert.equal(calls(x(), 'POST', '/2/media/upload'), uploads, 'nothing was uploaded to X');
      assert.equal(calls(x(), 'POST', '/2/tweets'), tweets, 'nothing was posted');
    });
  }

  test('(control) with private networks allowed, the loopback media URL publishes: the refusals are the address rule', async () => {
    const post = await publishNow(h, { content: 'loopback media allowed', mediaItems: [{ type: 'image', url: mediaUrlAt(FORMS[0]!) }], platforms: [{ platform: 'twitter', accountId }] });
    assert.equal(post.status, 'published', JSON.stringify(post));
  });
});

describe('SSRF: media imports (POST /v1/media/import, fetched at once, API.md section 10)', () => {
  for (const form of FORMS) {
    test(`import from ${form.label} → 400 VALIDATION_ERROR param url; nothing fetched, nothing stored`, async () => {
      const res = await guarded.request('POST', '/v1/media/import', { body: { url: mediaUrlAt(form) } });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.code, 'VALIDATION_ERROR');
      assert.equal(res.body.param, 'url');
      assert.match(res.body.error, /private, loopback or reserved/);
      assert.deepEqual((await guarded.request('GET', '/v1/media')).body.media, []);
    });
  }

  test('(control) with private networks allowed, the loopback sample imports: the refusals are the address rule', async () => {
    const res = await h.request('POST', '/v1/media/import', { body: { url: mediaUrlAt(FORMS[0]!) } });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.contentType, 'image/jpeg');
  });
});

describe('SSRF: webhook URLs (checked when saved, and again when sent)', () => {
  const PUBLIC = 'http://1.1.1.1/hooks';
  before(async () => {
    await saveSettings(guarded, { url: PUBLIC, events: ['post.deleted'] });
  });

  for (const form of FORMS) {
    test(`webhook URL at ${form.label} → 400 VALIDATION_ERROR param url when saved; blocked when sent`, async () => {
      const url = hookUrlAt(form);
      const heard = receiver.received.length;
      const res = await guarded.request('POST', '/v1/webhooks/settings', { body: { url, events: ['post.deleted'] } });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.code, 'VALIDATION_ERROR');
      assert.equal(res.body.param, 'url');
      assert.match(res.body.error, /private, loopback or reserved/);
      assert.match(res.body.error, /HERALD_ALLOW_PRIVATE_NETWORKS=true/, 'the refusal names the setting that lifts it');
      assert.equal((await guarded.request('GET', '/v1/webhooks/settings')).body.url, PUBLIC, 'the stored settings are unchanged');

      // Stored anyway (saved while allowed, or edited in the database): the send is refused all the same.
      await guarded.runtime.db.writable.updateTable('webhook_settings').set({ url }).where('api_key_id', '=', guarded.keyId).execute();
      try {
        const sent = await guarded.request('POST', '/v1/webhooks/test', { body: { event: 'webhook.test' } });
        assert.equal(sent.status, 200, sent.text);
        assert.equal(sent.body.delivered, false);
        assert.equal(sent.body.statusCode, null);
        assert.match(sent.body.error, /^blocked: .*private, loopback or reserved/);
        assert.equal(receiver.received.length, heard, 'nothing reached the receiver');
      } finally {
        await guarded.runtime.db.writable.updateTable('webhook_settings').set({ url: PUBLIC }).where('api_key_id', '=', guarded.keyId).execute();
      }
    });
  }

  test('(control) with private networks allowed, every one of these webhook URLs is saved: the refusals are the address rule', async () => {
    const { key } = await h.newKey('open');
    for (const form of FORMS) {
      const saved = await saveSettings(h, { url: hookUrlAt(form), events: ['post.deleted'] }, key);
      assert.equal(saved.url, hookUrlAt(form));
    }
  });
});

describe('SSRF: webhook URLs in the sandbox (loopback allowed unless the setting says otherwise)', () => {
  const LOOPBACK = FORMS.slice(0, 6);
  const PRIVATE = FORMS.slice(6);
  let sandbox: TestHerald; // the built-in sandbox, HERALD_ALLOW_PRIVATE_NETWORKS unset
  let strict: TestHerald; // the built-in sandbox, HERALD_ALLOW_PRIVATE_NETWORKS=false
  before(async () => {
    sandbox = await startHerald({ env: { HERALD_ALLOW_PRIVATE_NETWORKS: '' } });
    strict = await startHerald({ env: { HERALD_ALLOW_PRIVATE_NETWORKS: 'false' } });
    assert.ok(sandbox.runtime.config.sandbox && strict.runtime.config.sandbox);
  });
  after(async () => {
    await sandbox.close();
    await strict.close();
  });

  test('a loopback receiver, every loopback form → saved; a test send and a real event reach it', async () => {
    const { key } = await sandbox.newKey('local receiver');
    for (const form of LOOPBACK) {
      const saved = await saveSettings(sandbox, { url: hookUrlAt(form), events: ['post.deleted'] }, key);
      assert.equal(saved.url, hookUrlAt(form));
    }
    const url = hookUrlAt(FORMS[0]!);
    await saveSettings(sandbox, { url, events: ['post.deleted'] }, key);
    const heard = receiver.received.length;
    const sent = await sandbox.request('POST', '/v1/webhooks/test', { key, body: { event: 'webhook.test' } });
    assert.equal(sent.status, 200, sent.text);
    assert.equal(sent.body.delivered, true, sent.text);
    const postId = await deleteADraft(sandbox, key);
    const got = await receiver.waitFor(heard + 2);
    assert.ok(got.slice(heard).some((r) => r.json?.event === 'post.deleted' && r.json.data.postId === postId), 'the event was delivered');
  });

  test('a private receiver → 400 VALIDATION_ERROR naming HERALD_ALLOW_PRIVATE_NETWORKS; blocked when sent all the same', async () => {
    const { key, id } = await sandbox.newKey('private receiver');
    await saveSettings(sandbox, { url: hookUrlAt(FORMS[0]!), events: ['post.deleted'] }, key);
    for (const form of PRIVATE) {
      const res = await sandbox.request('POST', '/v1/webhooks/settings', { key, body: { url: hookUrlAt(form), events: ['post.deleted'] } });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.param, 'url');
      assert.match(res.body.error, /allows loopback receivers here .* set HERALD_ALLOW_PRIVATE_NETWORKS=true/);
      await sandbox.runtime.db.writable.updateTable('webhook_settings').set({ url: hookUrlAt(form) }).where('api_key_id', '=', id).execute();
      const sent = await sandbox.request('POST', '/v1/webhooks/test', { key, body: { event: 'webhook.test' } });
      assert.equal(sent.body.delivered, false, sent.text);
      assert.match(sent.body.error, /^blocked: .*private, loopback or reserved/);
    }
  });

  test('HERALD_ALLOW_PRIVATE_NETWORKS=false in the sandbox → loopback refused too, naming the setting', async () => {
    for (const form of LOOPBACK) {
      const res = await strict.request('POST', '/v1/webhooks/settings', { body: { url: hookUrlAt(form), events: ['post.deleted'] } });
      assert.equal(res.status, 400, `${form.label}: ${res.text}`);
      assert.match(res.body.error, /HERALD_ALLOW_PRIVATE_NETWORKS=true/);
    }
  });
});

describe('OAuth state', () => {
  test('a reused OAuth state → 400 OAUTH_STATE_INVALID; the first connection stands and no second is made', async () => {
    const { key } = await h.newKey('reuser');
    const start = await h.request('GET', `/v1/connect/twitter?redirect_url=${encodeURIComponent(CALLBACK)}`, { key });
    const { code } = await approveConsent(start.body.authUrl);
    const body = { code, state: start.body.state, redirect_url: CALLBACK };
    const first = await h.request('POST', '/v1/connect/twitter', { key, body });
    assert.equal(first.status, 200, first.text);
    for (const again of [body, { ...body, code: (await approveConsent(start.body.authUrl)).code }]) {
      const res = await h.request('POST', '/v1/connect/twitter', { key, body: again });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.code, 'OAUTH_STATE_INVALID');
      assert.equal(res.body.param, 'state');
    }
    const accounts = (await h.request('GET', '/v1/accounts', { key })).body.accounts;
    assert.deepEqual(accounts.map((a: any) => a.accountId), [first.body.accountId]);
  });

  test("another key's OAuth state (named, or picked as the newest without one) → 400 OAUTH_STATE_INVALID; nothing connected; the owner still can", async () => {
    const owner = await h.newKey('owner');
    const thief = await h.newKey('thief');
    const start = await h.request('GET', `/v1/connect/twitter?redirect_url=${encodeURIComponent(CALLBACK)}`, { key: owner.key });
    const { code } = await approveConsent(start.body.authUrl);
    for (const body of [{ code, state: start.body.state, redirect_url: CALLBACK }, { code, redirect_url: CALLBACK }]) {
      const res = await h.request('POST', '/v1/connect/twitter', { key: thief.key, body });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.code, 'OAUTH_STATE_INVALID');
    }
    assert.deepEqual((await h.request('GET', '/v1/accounts', { key: thief.key })).body.accounts, []);
    const ok = await h.request('POST', '/v1/connect/twitter', { key: owner.key, body: { code, state: start.body.state, redirect_url: CALLBACK } });
    assert.equal(ok.status, 200, ok.text);
    assert.equal((await h.request('GET', '/v1/accounts', { key: owner.key })).body.accounts.length, 1);
  });
});

describe('tokens at rest', () => {
  test('no access or refresh token the emulators issued is in any column of any table (nor, on SQLite, in any file)', async () => {
    const { key } = await h.newKey('at-rest');
    const capture = captureIssuedTokens(emulators);
    const connected: string[] = [];
    try {
      for (const platform of ['twitter', 'tiktok', 'facebook', 'threads'] as const) {
        connected.push(...(await connectAccount(h, platform, { sandbox_user: `at_rest_${platform}` }, key)).accounts.map((a) => a.accountId));
      }
    } finally {
      capture.stop();
    }
    const tokens = capture.tokens();
    assert.ok(tokens.length >= 8, `the emulators issued access and refresh tokens (${tokens.length})`);
    // The accounts work with those tokens: they are the live ones, not leftovers.
    const health = (await h.request('GET', '/v1/accounts/health', { key })).body.accounts;
    assert.equal(health.length, connected.length);
    assert.ok(health.every((a: any) => a.tokenValid), JSON.stringify(health));

    const scan = await findInDatabase(h.runtime.db, [...tokens, ...connected]);
    assert.ok(scan.tables.includes('accounts') && scan.tables.includes('oauth_states'), `scanned ${scan.tables.join(', ')}`);
    assert.ok(
      connected.every((id) => scan.found.some((f) => f.table === 'accounts' && f.needle === id)),
      'the scan does see what is stored (the account ids)',
    );
    assert.deepEqual(scan.found.filter((f) => tokens.includes(f.needle)), [], 'a token is stored in plain text');
    if (!usingPostgres) assert.deepEqual(findInFiles(database.dataDir, tokens), []);
  });
});
