// Fault matrix: security. Each row is an attack or a mistake and the outcome API.md promises:
//   no key, a malformed, unknown or revoked key, or another scheme  → 401 on every /v1 route (shape B on POST /v1/posts), nothing changed
//   another key's resource, on every /v1 operation of /openapi.json (one row each; a new operation
//   without a row fails the suite), with the intruder's bearer key and with its dashboard session:
//     a route that names it (post, media, delivery, account) → 404 NOT_FOUND, word for word the answer about an id that names nothing
//     a body that names it (target account, mediaId; create, validate, bulk JSON and CSV) → the field's 400 / invalid row, as for none
//     lists, health, queue, webhook settings, deliveries   → the intruder's own (empty, or 404 "no queue/settings"), never the owner's
//     writes to the intruder's own queue, settings, media  → the owner's are unchanged
//   every MCP tool (POST /mcp), bearer and session        → as its route: NOT_FOUND (404) for the owner's post, empty lists
//   the dashboard's calendar with another key's session   → none of the owner's posts
//   (after each row the owner's posts, accounts, settings, queue, deliveries and media, X's calls and the receiver are unchanged)
//   media URL at a private, loopback or link-local address form    → accepted at create, refused at publish: media_rejected, nothing fetched
//   library media of a Herald whose own URL is on loopback          → read from the media store, published; its URL as a URL item refused
//   webhook URL at a private, loopback or link-local address form  → 400 VALIDATION_ERROR param url when saved; blocked when sent
//   media import from a private, loopback or link-local address form → 400 VALIDATION_ERROR param url; nothing stored
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
import { createHash } from 'node:crypto';
import { lookup } from 'node:dns';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createEmulators } from '../../src/sandbox/index.ts';
import type { Emulator } from '../../src/sandbox/kit/emulator.ts';
import { startEmulatorServer, type EmulatorServer } from '../../src/sandbox/server.ts';
import { captureIssuedTokens, findInDatabase, findInFiles } from '../helpers/at-rest.ts';
import { CALLBACK, connectAccount } from '../helpers/connect.ts';
import { calls, posted, publishNow } from '../helpers/e2e.ts';
import { createTestDatabase, startHerald, usingPostgres, type HttpResult, type TestDatabase, type TestHerald } from '../helpers/herald.ts';
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
let ownerState: { state: string; code: string }; // an OAuth state the owner started and has not used yet
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

before(async () => {
  restoreLookup = overrideLookup({ [PRIVATE_HOST]: '10.0.0.1' });
  const resolved = await new Promise((res) => lookup(PRIVATE_HOST, { all: true }, (_err, addresses) => res(addresses)));
  assert.deepEqual(resolved, [{ address: '10.0.0.1', family: 4 }], 'the test resolver is what `import { lookup }` sees');
  emulators = createEmulators();
  server = await startEmulatorServer(emulators);
  receiver = await startReceiver();
  // The per-address limit on bad keys, and the per-key limit, have their own tests; here every request must
  // reach its route (the cross-key rows read the owner's view hundreds of times).
  database = await createTestDatabase();
  h = await startHerald({ emulators: server, database, env: { HERALD_AUTH_FAILURES_PER_MINUTE: '1000', HERALD_RATE_LIMIT_PER_MINUTE: '100000' } });
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
  const uploaded = await fetch(`${h.url}/v1/media`, { method: 'POST', headers: { authorization: `Bearer ${h.key}`, 'content-type': 'image/png' }, body: PNG });
  assert.equal(uploaded.status, 201);
  mediaId = ((await uploaded.json()) as { id: string }).id;
  const queue = await h.request('PUT', '/v1/queue', { body: { timezone: 'Europe/Paris', slots: [{ day: 'mon', time: '09:00' }, { day: 'thu', time: '18:30' }] } });
  assert.equal(queue.status, 200, queue.text);
  const queued = await h.request('POST', '/v1/posts', { body: { content: 'queued, owned by the first key', queue: true, platforms: [{ platform: 'twitter', accountId }] } });
  assert.equal(queued.status, 201, queued.text);
  const start = await h.request('GET', `/v1/connect/twitter?redirect_url=${encodeURIComponent(CALLBACK)}`);
  ownerState = { state: start.body.state, code: (await approveConsent(start.body.authUrl)).code };
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
    queue: await get('/v1/queue'),
    posts: await get('/v1/posts?limit=100'),
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

// Another key's resources, operation by operation. Every /v1 operation of /openapi.json has a row (the
// first test fails when one has none), and so do the MCP tools and the dashboard's own reads. Each row runs
// twice: with the intruder's bearer key and with the intruder's dashboard session (cookie, Origin, token).
// What the intruder gets about the owner's resource must be exactly what it gets about one that does not
// exist (the ids aside): a 404 in shape A where the route names it, the field's 400 where a body names it,
// never a 403 and never a word more. The owner's view, the X emulator's calls and the webhook receiver are
// compared before and after every row.

type Reply = HttpResult;
interface Intruder {
  key: string;
  /** A request as the intruder, with its key or its dashboard session (cookie, Origin, Sec-Fetch-Site, token). */
  call(method: string, path: string, options?: { body?: unknown; raw?: string | Uint8Array; contentType?: string }): Promise<Reply>;
  /** One MCP tool called over POST /mcp with the same credentials. */
  tool(name: string, args?: Record<string, unknown>): Promise<{ isError?: boolean; structuredContent?: any; content: { type: string; text: string }[] }>;
}

async function newIntruder(via: 'bearer' | 'session'): Promise<Intruder> {
  const { key } = await h.newKey(`intruder (${via})`);
  let auth: (method: string) => Record<string, string> = () => ({ authorization: `Bearer ${key}` });
  if (via === 'session') {
    const res = await fetch(`${h.url}/app/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: h.url, 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify({ key }),
    });
    assert.equal(res.status, 200, await res.clone().text());
    const csrf = ((await res.json()) as { csrfToken: string }).csrfToken;
    const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
    auth = (method) => ({ cookie, 'sec-fetch-site': 'same-origin', ...(method === 'GET' ? {} : { origin: h.url, 'x-herald-csrf': csrf }) });
  }
  const call: Intruder['call'] = async (method, path, options = {}) => {
    const headers = auth(method);
    let body: string | Uint8Array | undefined = options.raw;
    if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined) headers['content-type'] = options.contentType ?? 'application/json';
    const res = await fetch(`${h.url}${path}`, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: kept as text
    }
    return { status: res.status, headers: res.headers, body: parsed as any, text };
  };
  return {
    key,
    call,
    async tool(name, args = {}) {
      const res = await fetch(`${h.url}/mcp`, {
        method: 'POST',
        headers: { ...auth('POST'), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
      });
      const text = await res.text();
      assert.equal(res.status, 200, `${name}: ${text}`);
      const answer = JSON.parse(text);
      assert.ok(answer.result, `${name}: ${text}`);
      return answer.result;
    },
  };
}

/** An id of the same form as `id` that names nothing. */
const missingLike = (id: string) => `${id.slice(0, -6)}${id.endsWith('zzzzzz') ? 'yyyyyy' : 'zzzzzz'}`;
const ID = '{id}';

/** The body with the ids (and request ids, which differ per request) taken out, to compare two answers. */
function redacted(body: unknown, id: string): string {
  return JSON.stringify(body, (k, v) => (k === 'requestId' ? '<request>' : v)).replaceAll(id, '<id>');
}

/**
 * The intruder's answer about the owner's `ownerId` in `template` (`{id}` in the path or body) against its
 * answer about an id like it that names nothing: the same status and the same words.
 */
async function sameAsMissing(i: Intruder, method: string, template: string, ownerId: string, body?: unknown, contentType?: string): Promise<Reply> {
  const missing = missingLike(ownerId);
  const fill = (id: string) => ({ path: template.replace(ID, encodeURIComponent(id)), body: body === undefined ? undefined : JSON.parse(JSON.stringify(body).replaceAll(ID, id)) });
  const send = (id: string) => {
    const f = fill(id);
    return typeof f.body === 'string' ? i.call(method, f.path, { raw: f.body, contentType }) : i.call(method, f.path, { body: f.body });
  };
  const theirs = await send(ownerId);
  const none = await send(missing);
  const where = `${method} ${template} with ${ownerId}: ${theirs.text.slice(0, 300)}`;
  assert.equal(theirs.status, none.status, where);
  assert.equal(redacted(theirs.body, ownerId), redacted(none.body, missing), `the answer about another key's resource is the answer about none: ${where}`);
  assert.notEqual(theirs.status, 403, where);
  return theirs;
}

function assertNotFound(res: Reply, where: string) {
  assert.equal(res.status, 404, `${where}: ${res.text}`);
  assert.deepEqual(Object.keys(res.body).sort(), ['code', 'error'], `${where}: shape A, nothing about the resource`);
  assert.equal(res.body.code, 'NOT_FOUND');
}

const postIds = () => [published.id, failed.id, draftId];
const onePost = (method: string, suffix = '', body?: unknown) => async (i: Intruder) => {
  for (const postId of postIds()) assertNotFound(await sameAsMissing(i, method, `/v1/posts/{id}${suffix}`, postId, body), `${method} /v1/posts/${postId}${suffix}`);
};
const oneMedia = (method: string, body?: unknown) => async (i: Intruder) => assertNotFound(await sameAsMissing(i, method, '/v1/media/{id}', mediaId, body), `${method} /v1/media`);
const emptyList = (path: string, field: string) => async (i: Intruder) => {
  const res = await i.call('GET', path);
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body[field], [], `${path} shows the intruder nothing of the owner's`);
};
const inAWhile = () => new Date(Date.now() + 3_600_000).toISOString();
const ownersTarget = { platform: 'twitter', accountId: ID };

/** One row per operation of /openapi.json (METHOD /template), and what another key gets there. */
const CROSS_KEY: Record<string, (i: Intruder) => Promise<void>> = {
  'POST /v1/posts': async (i) => {
    for (const body of [
      { content: 'x', scheduledFor: inAWhile(), platforms: [ownersTarget] },
      { content: 'x', publishNow: true, platforms: [ownersTarget] },
    ]) {
      const res = await sameAsMissing(i, 'POST', '/v1/posts', accountId, body);
      assert.equal(res.status, 400, res.text);
      assert.deepEqual({ type: res.body.type, code: res.body.code, param: res.body.param }, { type: 'invalid_request_error', code: 'invalid_field_value', param: 'platforms[0].accountId' });
    }
    const media = await sameAsMissing(i, 'POST', '/v1/posts', mediaId, { isDraft: true, content: 'x', mediaItems: [{ mediaId: ID }] });
    assert.equal(media.status, 400, media.text);
    assert.equal(media.body.param, 'mediaItems[0].mediaId');
    await emptyList('/v1/posts', 'posts')(i);
  },
  'GET /v1/posts': async (i) => {
    for (const q of ['', '?platform=twitter', '?status=published', '?status=draft', '?status=failed']) await emptyList(`/v1/posts${q}`, 'posts')(i);
  },
  'GET /v1/posts/{postId}': onePost('GET'),
  'DELETE /v1/posts/{postId}': onePost('DELETE'),
  'POST /v1/posts/{postId}/retry': onePost('POST', '/retry'),
  'POST /v1/posts/{postId}/edit': onePost('POST', '/edit', { content: 'edited' }),
  'PATCH /v1/posts/{postId}': onePost('PATCH', '', { content: 'changed' }),
  'POST /v1/posts/{postId}/unpublish': async (i) => {
    await onePost('POST', '/unpublish', {})(i);
    await onePost('POST', '/unpublish', { platforms: [{ platform: 'twitter', accountId }] })(i);
  },
  'POST /v1/posts/validate': async (i) => {
    const account = await sameAsMissing(i, 'POST', '/v1/posts/validate', accountId, { content: 'x', publishNow: true, platforms: [ownersTarget] });
    assert.equal(account.status, 200, account.text);
    assert.equal(account.body.valid, false);
    assert.deepEqual(account.body.errors.map((e: any) => e.param), ['platforms[0].accountId']);
    const media = await sameAsMissing(i, 'POST', '/v1/posts/validate', mediaId, { isDraft: true, content: 'x', mediaItems: [{ mediaId: ID }] });
    assert.equal(media.body.valid, false, media.text);
    assert.deepEqual(media.body.errors.map((e: any) => e.param), ['mediaItems[0].mediaId']);
  },
  'POST /v1/posts/bulk': async (i) => {
    const json = await sameAsMissing(i, 'POST', '/v1/posts/bulk', accountId, {
      posts: [
        { content: 'x', scheduledFor: inAWhile(), platforms: [ownersTarget] },
        { content: 'x', publishNow: true, platforms: [ownersTarget] },
      ],
    });
    assert.equal(json.status, 200, json.text);
    assert.deepEqual([json.body.created, json.body.failed], [0, 2]);
    const media = await sameAsMissing(i, 'POST', '/v1/posts/bulk', mediaId, { posts: [{ isDraft: true, content: 'x', mediaItems: [{ mediaId: ID }] }] });
    assert.deepEqual([media.body.created, media.body.results[0].errors[0].param], [0, 'mediaItems[0].mediaId'], media.text);
    const csv = await sameAsMissing(i, 'POST', '/v1/posts/bulk', accountId, `content,scheduledFor,platforms\nx,${inAWhile()},twitter:${ID}\n`, 'text/csv');
    assert.deepEqual([csv.body.created, csv.body.results[0].errors[0].param], [0, 'platforms[0].accountId'], csv.text);
    await emptyList('/v1/posts', 'posts')(i);
  },
  'PUT /v1/queue': async (i) => {
    const res = await i.call('PUT', '/v1/queue', { body: { timezone: 'Asia/Tokyo', slots: [{ day: 'sun', time: '23:45' }] } });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.slots, [{ day: 'sun', time: '23:45' }], "the intruder's own queue, not merged with the owner's");
  },
  'GET /v1/queue': async (i) => {
    assertNotFound(await i.call('GET', '/v1/queue'), 'GET /v1/queue of a key without one');
  },
  'DELETE /v1/queue': async (i) => {
    assertNotFound(await i.call('DELETE', '/v1/queue'), 'DELETE /v1/queue of a key without one');
  },
  'GET /v1/connect/{platform}': async (i) => {
    const res = await i.call('GET', `/v1/connect/twitter?redirect_url=${encodeURIComponent(CALLBACK)}`);
    assert.equal(res.status, 200, res.text);
  },
  'POST /v1/connect/{platform}': async (i) => {
    const res = await sameAsMissing(i, 'POST', '/v1/connect/twitter', ownerState.state, { code: ownerState.code, state: ID, redirect_url: CALLBACK });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.code, 'OAUTH_STATE_INVALID');
  },
  'GET /v1/accounts': emptyList('/v1/accounts', 'accounts'),
  'GET /v1/accounts/health': emptyList('/v1/accounts/health', 'accounts'),
  'DELETE /v1/accounts/{platform}/{accountId}': async (i) => {
    const revokes = calls(x(), 'POST', '/oauth2/revoke');
    assertNotFound(await sameAsMissing(i, 'DELETE', '/v1/accounts/twitter/{id}', accountId), 'DELETE /v1/accounts');
    assert.equal(calls(x(), 'POST', '/oauth2/revoke'), revokes, 'no revoke call reached X');
  },
  'POST /v1/webhooks/settings': async (i) => {
    const res = await i.call('POST', '/v1/webhooks/settings', { body: { url: 'https://1.1.1.1/intruder', events: ['post.deleted'] } });
    assert.equal(res.status, 200, res.text);
  },
  'GET /v1/webhooks/settings': async (i) => {
    assertNotFound(await i.call('GET', '/v1/webhooks/settings'), 'GET /v1/webhooks/settings of a key without any');
  },
  'DELETE /v1/webhooks/settings': async (i) => {
    assertNotFound(await i.call('DELETE', '/v1/webhooks/settings'), 'DELETE /v1/webhooks/settings of a key without any');
  },
  'POST /v1/webhooks/secret/rotate': async (i) => {
    assertNotFound(await i.call('POST', '/v1/webhooks/secret/rotate'), 'rotate for a key without settings');
  },
  'GET /v1/webhooks/deliveries': emptyList('/v1/webhooks/deliveries', 'deliveries'),
  'GET /v1/webhooks/deliveries/{id}': async (i) => assertNotFound(await sameAsMissing(i, 'GET', '/v1/webhooks/deliveries/{id}', deliveryId), 'GET delivery'),
  // A redelivery is sent before its answer, never later: after the 404 nothing is on its way.
  'POST /v1/webhooks/deliveries/{id}/redeliver': async (i) => assertNotFound(await sameAsMissing(i, 'POST', '/v1/webhooks/deliveries/{id}/redeliver', deliveryId), 'redeliver'),
  'POST /v1/webhooks/test': async (i) => {
    const res = await i.call('POST', '/v1/webhooks/test', { body: { event: 'webhook.test' } });
    assert.ok(res.status === 400 || res.status === 404, res.text);
  },
  'POST /v1/media': async (i) => {
    const res = await i.call('POST', '/v1/media', { raw: PNG, contentType: 'image/png' });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual((await i.call('GET', '/v1/media')).body.media.map((m: any) => m.id), [res.body.id], "the intruder's library holds its own file only");
  },
  'POST /v1/media/import': async (i) => {
    const res = await i.call('POST', '/v1/media/import', { body: { url: `${server.mediaUrl}/sample.jpg` } });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual((await i.call('GET', '/v1/media')).body.media.map((m: any) => m.id), [res.body.id]);
  },
  'GET /v1/media': emptyList('/v1/media', 'media'),
  'GET /v1/media/{id}': oneMedia('GET'),
  'PATCH /v1/media/{id}': oneMedia('PATCH', { altText: 'changed' }),
  'DELETE /v1/media/{id}': oneMedia('DELETE'),
};

/** The MCP tools (POST /mcp, hidden from /openapi.json), each with what another key gets from it. */
const CROSS_KEY_TOOLS: Record<string, (i: Intruder) => Promise<void>> = {
  list_accounts: async (i) => assert.deepEqual((await i.tool('list_accounts')).structuredContent.accounts, []),
  accounts_health: async (i) => assert.deepEqual((await i.tool('accounts_health')).structuredContent.accounts, []),
  create_post: async (i) => {
    const res = await sameAsMissingTool(i, 'create_post', accountId, { content: 'x', scheduledFor: inAWhile(), platforms: [ownersTarget] });
    assert.equal(res.isError, true);
    assert.deepEqual([res.structuredContent.code, res.structuredContent.param], ['invalid_field_value', 'platforms[0].accountId']);
  },
  validate_post: async (i) => {
    const res = await sameAsMissingTool(i, 'validate_post', mediaId, { isDraft: true, content: 'x', mediaItems: [{ mediaId: ID }] });
    assert.equal(res.structuredContent.valid, false);
  },
  update_post: async (i) => toolNotFound(i, 'update_post', { content: 'changed' }),
  list_posts: async (i) => assert.deepEqual((await i.tool('list_posts')).structuredContent.posts, []),
  get_post: async (i) => toolNotFound(i, 'get_post'),
  delete_post: async (i) => toolNotFound(i, 'delete_post'),
  retry_post: async (i) => toolNotFound(i, 'retry_post'),
  unpublish_post: async (i) => toolNotFound(i, 'unpublish_post'),
  import_media: async (i) => {
    const res = await i.tool('import_media', { url: `${server.mediaUrl}/sample.png` });
    assert.equal(res.isError, undefined, JSON.stringify(res));
    assert.deepEqual((await i.tool('list_media')).structuredContent.media.map((m: any) => m.id), [res.structuredContent.id]);
  },
  list_media: async (i) => assert.deepEqual((await i.tool('list_media')).structuredContent.media, []),
  get_queue: async (i) => {
    const res = await i.tool('get_queue');
    assert.equal(res.isError, true);
    assert.equal(res.structuredContent.code, 'NOT_FOUND');
  },
};

async function sameAsMissingTool(i: Intruder, name: string, ownerId: string, args: Record<string, unknown>) {
  const fill = (id: string) => JSON.parse(JSON.stringify(args).replaceAll(ID, id));
  const missing = missingLike(ownerId);
  const theirs = await i.tool(name, fill(ownerId));
  const none = await i.tool(name, fill(missing));
  assert.equal(redacted(theirs.structuredContent, ownerId), redacted(none.structuredContent, missing), `${name}: the answer about another key's resource is the answer about none`);
  return theirs;
}

async function toolNotFound(i: Intruder, name: string, extra: Record<string, unknown> = {}) {
  for (const postId of postIds()) {
    const res = await sameAsMissingTool(i, name, postId, { postId: ID, ...extra });
    assert.equal(res.isError, true, JSON.stringify(res));
    assert.equal(res.structuredContent.code, 'NOT_FOUND');
    assert.equal(res.structuredContent.status, 404);
  }
}

describe("another key's resources, operation by operation", () => {
  test('every /v1 operation of /openapi.json has a cross-key row, and every MCP tool', async () => {
    const doc = (await h.request('GET', '/openapi.json', { key: null })).body;
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .filter(([p]) => p.startsWith('/v1/'))
      .flatMap(([p, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${p}`))
      .sort();
    assert.deepEqual(Object.keys(CROSS_KEY).sort(), documented, 'a new operation needs a row in CROSS_KEY');
    const listed = await fetch(`${h.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    const tools = ((await listed.json()) as any).result.tools.map((t: { name: string }) => t.name).sort();
    assert.deepEqual(Object.keys(CROSS_KEY_TOOLS).sort(), tools, 'a new MCP tool needs a row in CROSS_KEY_TOOLS');
  });

  for (const via of ['bearer', 'session'] as const) {
    for (const [operation, row] of Object.entries(CROSS_KEY)) {
      test(`${operation} with another key's ${via === 'bearer' ? 'bearer key' : 'dashboard session'}: nothing of the owner's, nothing changed`, async () => {
        const before = await ownerView();
        await row(await newIntruder(via));
        assert.deepEqual(await ownerView(), before);
      });
    }
    test(`MCP tools (POST /mcp) with another key's ${via === 'bearer' ? 'bearer key' : 'dashboard session'}: each tool as its route, nothing changed`, async () => {
      for (const [name, row] of Object.entries(CROSS_KEY_TOOLS)) {
        const before = await ownerView();
        await row(await newIntruder(via));
        assert.deepEqual(await ownerView(), before, name);
      }
    });
  }

  test("the dashboard's calendar with another key's session shows none of the owner's posts", async () => {
    const i = await newIntruder('session');
    const from = new Date(Date.now() - 86_400_000).toISOString();
    const to = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const mine = await fetch(`${h.url}/app/api/calendar?from=${from}&to=${to}`, { headers: { authorization: `Bearer ${h.key}` } });
    assert.ok(((await mine.json()) as any).posts.length > 0, "the owner's calendar shows its posts");
    const res = await i.call('GET', `/app/api/calendar?from=${from}&to=${to}`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.posts, []);
  });

  test("another key's account named as a target, scheduled or now: nothing posted at X", async () => {
    const before = await ownerView();
    const i = await newIntruder('bearer');
    await i.call('POST', '/v1/posts', { body: { content: 'borrowed', publishNow: true, platforms: [{ platform: 'twitter', accountId }] } });
    assert.deepEqual(await ownerView(), before, 'nothing reached X');
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

  test("library media on a Herald whose own URL is on loopback: read from the media store, so it publishes; the file's URL named as a URL item is refused", async () => {
    const up = await fetch(`${guarded.url}/v1/media`, { method: 'POST', headers: { authorization: `Bearer ${guarded.key}`, 'content-type': 'image/png' }, body: PNG });
    assert.equal(up.status, 201);
    const m = (await up.json()) as { id: string; url: string };
    assert.equal(new URL(m.url).hostname, '127.0.0.1', 'the public URL is one the guard refuses to download');
    const content = `library media, guarded ${Date.now()}`;
    const post = await publishNow(guarded, { content, mediaItems: [{ mediaId: m.id }], platforms: [{ platform: 'twitter', accountId: guardedAccount }] });
    assert.equal(post.status, 'published', JSON.stringify(post));
    const [tweet] = posted(x(), { text: content });
    assert.equal(tweet!.media[0]!.sha256, createHash('sha256').update(PNG).digest('hex'), 'X received the very bytes');

    const byUrl = await publishNow(guarded, { content: `${content} by URL`, mediaItems: [{ type: 'image', url: m.url }], platforms: [{ platform: 'twitter', accountId: guardedAccount }] });
    assert.equal(byUrl.status, 'failed', JSON.stringify(byUrl));
    assert.equal(byUrl.platforms[0].errorCode, 'media_rejected');
    assert.match(byUrl.platforms[0].error, /private, loopback or reserved address/);

    // The store's place of a file is Herald's to set: a body naming one is refused.
    const forged = await guarded.request('POST', '/v1/posts', {
      body: { content: `${content} forged`, publishNow: true, mediaItems: [{ type: 'image', url: 'https://cdn.example.com/a.jpg', stored: { key: `${m.id}/original`, contentType: 'image/png' } }], platforms: [{ platform: 'twitter', accountId: guardedAccount }] },
    });
    assert.equal(forged.status, 400, forged.text);
    assert.match(forged.text, /stored/);
  });

  test('(control) with private networks allowed, the loopback media URL publishes: the refusals are the address rule', async () => {
    const post = await publishNow(h, { content: 'loopback media allowed', mediaItems: [{ type: 'image', url: mediaUrlAt(FORMS[0]!) }], platforms: [{ platform: 'twitter', accountId }] });
    assert.equal(post.status, 'published', JSON.stringify(post));
  });
});

describe('SSRF: media imports (POST /v1/media/import, fetched at once, API.md section 10)', () => {
  for (const form of FORMS) {
    test(`import from ${form.label} → 400 VALIDATION_ERROR param url; nothing fetched, nothing stored`, async () => {
      const before = (await guarded.request('GET', '/v1/media')).body.media;
      const res = await guarded.request('POST', '/v1/media/import', { body: { url: mediaUrlAt(form) } });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.code, 'VALIDATION_ERROR');
      assert.equal(res.body.param, 'url');
      assert.match(res.body.error, /private, loopback or reserved/);
      assert.deepEqual((await guarded.request('GET', '/v1/media')).body.media, before);
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
