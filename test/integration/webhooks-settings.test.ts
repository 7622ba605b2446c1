// POST/GET/DELETE /v1/webhooks/settings and the secret: generated once, kept, rotated, validated;
// shape A errors; keys never see each other's. URLs refused by the address rule, and 401 on every route,
// are rows of test/faults/security.test.ts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHerald, type TestHerald } from '../helpers/herald.ts';
import { saveSettings } from '../helpers/webhooks.ts';

let h: TestHerald;
const URL_OK = 'http://127.0.0.1:9/hooks';
const SECRET_SHAPE = /^whsec_[A-Za-z0-9+/]{43}=$/;

before(async () => {
  h = await startHerald();
});
after(async () => {
  await h.close();
});

describe('settings', () => {
  test('the first save generates a secret; later saves keep it; rotate replaces it', async () => {
    const { key } = await h.newKey();
    assert.equal((await h.request('GET', '/v1/webhooks/settings', { key })).status, 404);
    const first = await saveSettings(h, { url: URL_OK, events: ['post.published', 'post.failed'] }, key);
    assert.match(first.secret, SECRET_SHAPE);
    assert.equal(Buffer.from(first.secret.slice(6), 'base64').length, 32);
    assert.deepEqual(first.events, ['post.published', 'post.failed']);
    assert.equal(first.url, URL_OK);
    assert.match(first.updatedAt, /Z$/);

    const second = await saveSettings(h, { url: `${URL_OK}/v2`, events: ['account.disconnected'] }, key);
    assert.equal(second.secret, first.secret, 'a later save keeps the secret');
    assert.equal(second.url, `${URL_OK}/v2`);
    const got = await h.request('GET', '/v1/webhooks/settings', { key });
    assert.equal(got.status, 200);
    assert.deepEqual(got.body, { ...second, disabledAt: null, disabledReason: null });

    const rotated = await h.request('POST', '/v1/webhooks/secret/rotate', { key });
    assert.equal(rotated.status, 200, rotated.text);
    assert.match(rotated.body.secret, SECRET_SHAPE);
    assert.notEqual(rotated.body.secret, first.secret);
    assert.equal((await h.request('GET', '/v1/webhooks/settings', { key })).body.secret, rotated.body.secret);
  });

  test('a caller-supplied secret is used when it is whsec_ + base64 of at least 24 bytes', async () => {
    const { key } = await h.newKey();
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    assert.equal((await saveSettings(h, { url: URL_OK, events: ['post.deleted'], secret }, key)).secret, secret);
    for (const bad of ['MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'whsec_c2hvcnQ=', 'whsec_not base64!!', `whsec_${Buffer.alloc(65).toString('base64')}`]) {
      const res = await h.request('POST', '/v1/webhooks/settings', { key, body: { url: URL_OK, events: ['post.deleted'], secret: bad } });
      assert.equal(res.status, 400, bad);
      assert.equal(res.body.code, 'VALIDATION_ERROR');
      assert.equal(res.body.param, 'secret');
    }
    assert.equal((await h.request('GET', '/v1/webhooks/settings', { key })).body.secret, secret, 'a refused save changes nothing');
  });

  test('the secret is sealed at rest', async () => {
    const { key, id } = await h.newKey();
    const saved = await saveSettings(h, { url: URL_OK, events: ['post.deleted'] }, key);
    const row = await h.runtime.db.writable.selectFrom('webhook_settings').selectAll().where('api_key_id', '=', id).executeTakeFirstOrThrow();
    assert.ok(!row.secret.includes(saved.secret.slice(6, 20)));
    assert.match(row.secret, /^v1\./);
  });

  test('bad bodies are 400 naming the field', async () => {
    const { key } = await h.newKey();
    const cases: [unknown, string][] = [
      [{ events: ['post.deleted'] }, 'url'],
      [{ url: URL_OK }, 'events'],
      [{ url: URL_OK, events: [] }, 'events'],
      [{ url: URL_OK, events: ['post.published', 'post.failed', 'post.exploded'] }, 'events[2]'],
      [{ url: URL_OK, events: 'post.published' }, 'events'],
      [{ url: 'ftp://example.com/x', events: ['post.deleted'] }, 'url'],
      [{ url: 'not a url', events: ['post.deleted'] }, 'url'],
      [{ url: 'https://user:pw@example.com/', events: ['post.deleted'] }, 'url'],
      [{ url: URL_OK, events: ['post.deleted'], extra: 1 }, 'extra'],
    ];
    for (const [body, param] of cases) {
      const res = await h.request('POST', '/v1/webhooks/settings', { key, body });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.deepEqual(Object.keys(res.body).sort(), ['code', 'error', 'param'], 'shape A');
      assert.equal(res.body.code, 'VALIDATION_ERROR');
      assert.equal(res.body.param, param, JSON.stringify(body));
    }
  });

  test('DELETE removes them; a second DELETE and a rotate without settings are 404', async () => {
    const { key } = await h.newKey();
    await saveSettings(h, { url: URL_OK, events: ['post.deleted'] }, key);
    const del = await h.request('DELETE', '/v1/webhooks/settings', { key });
    assert.equal(del.status, 200);
    assert.deepEqual(del.body, { deleted: true });
    for (const [method, path] of [['DELETE', '/v1/webhooks/settings'], ['GET', '/v1/webhooks/settings'], ['POST', '/v1/webhooks/secret/rotate']] as const) {
      const res = await h.request(method, path, { key });
      assert.equal(res.status, 404, `${method} ${path}`);
      assert.equal(res.body.code, 'NOT_FOUND');
    }
  });
});

describe('security', () => {
  const routes: [string, string, unknown?][] = [
    ['POST', '/v1/webhooks/settings', { url: URL_OK, events: ['post.deleted'] }],
    ['GET', '/v1/webhooks/settings'],
    ['DELETE', '/v1/webhooks/settings'],
    ['POST', '/v1/webhooks/secret/rotate'],
    ['GET', '/v1/webhooks/deliveries'],
    ['GET', '/v1/webhooks/deliveries/whd_x'],
    ['POST', '/v1/webhooks/deliveries/whd_x/redeliver'],
    ['POST', '/v1/webhooks/test', { event: 'webhook.test' }],
  ];
  test("one key never sees or changes another key's settings", async () => {
    const a = await h.newKey('a');
    const b = await h.newKey('b');
    const mine = await saveSettings(h, { url: URL_OK, events: ['post.deleted'] }, a.key);
    assert.equal((await h.request('GET', '/v1/webhooks/settings', { key: b.key })).status, 404);
    assert.equal((await h.request('POST', '/v1/webhooks/secret/rotate', { key: b.key })).status, 404);
    assert.equal((await h.request('DELETE', '/v1/webhooks/settings', { key: b.key })).status, 404);
    assert.equal((await h.request('GET', '/v1/webhooks/settings', { key: a.key })).body.secret, mine.secret);
  });

  test('every webhook route is in /openapi.json', async () => {
    const doc = (await h.request('GET', '/openapi.json', { key: null })).body;
    for (const [method, path] of routes) {
      const templ = path.replace('whd_x', '{id}');
      assert.ok(doc.paths[templ]?.[method.toLowerCase()], `${method} ${templ}`);
    }
  });
});
