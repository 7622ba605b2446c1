// The HTTP edge: request ids, unknown routes, health and readiness, the OpenAPI document, rate limits,
// a 500 that leaks nothing, and a 503 while the database is unreachable.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDatabase, startHerald, usingPostgres, type TestHerald } from '../helpers/herald.ts';
import { startStallProxy } from '../helpers/stall-proxy.ts';
import { eventually } from '../helpers/webhooks.ts';

let h: TestHerald;

before(async () => {
  h = await startHerald({ env: { HERALD_RATE_LIMIT_PER_MINUTE: '5', HERALD_AUTH_FAILURES_PER_MINUTE: '3' } });
});
after(() => h.close());

describe('edges', () => {
  test('every answer carries X-Request-Id; a sane incoming one is echoed', async () => {
    const mine = await h.request('GET', '/healthz', { headers: { 'x-request-id': 'trace-123' } });
    assert.equal(mine.headers.get('x-request-id'), 'trace-123');
    const made = await h.request('GET', '/healthz', { headers: { 'x-request-id': 'no spaces or <tags> allowed' } });
    assert.match(made.headers.get('x-request-id')!, /^req_/);
    const err = await h.request('GET', '/v1/nothing-here');
    assert.match(err.headers.get('x-request-id')!, /^req_/);
  });

  test('an unknown route is a 404 in shape A', async () => {
    const res = await h.request('GET', '/v1/nothing-here');
    assert.equal(res.status, 404);
    assert.equal(res.body.code, 'NOT_FOUND');
  });

  test('health and readiness answer without a key', async () => {
    assert.deepEqual((await h.request('GET', '/healthz', { key: null })).body, { status: 'ok' });
    assert.deepEqual((await h.request('GET', '/readyz', { key: null })).body, { status: 'ready' });
  });

  test('the OpenAPI document covers every route and the docs page renders', async () => {
    const doc = await h.request('GET', '/openapi.json', { key: null });
    assert.equal(doc.status, 200);
    assert.equal(doc.body.openapi, '3.1.0');
    const ops = Object.entries(doc.body.paths as Record<string, Record<string, unknown>>).flatMap(([p, m]) => Object.keys(m).map((k) => `${k.toUpperCase()} ${p}`));
    for (const op of [
      'POST /v1/posts',
      'GET /v1/posts',
      'GET /v1/posts/{postId}',
      'DELETE /v1/posts/{postId}',
      'POST /v1/posts/{postId}/retry',
      'POST /v1/posts/{postId}/edit',
      'GET /v1/connect/{platform}',
      'POST /v1/connect/{platform}',
      'GET /v1/accounts',
      'GET /v1/accounts/health',
      'DELETE /v1/accounts/{platform}/{accountId}',
    ]) {
      assert.ok(ops.includes(op), `${op} is documented`);
    }
    const page = await fetch(`${h.url}/docs/`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /swagger/i);
  });

  test('metrics are exposed for Prometheus', async () => {
    const res = await fetch(`${h.url}/metrics`);
    const text = await res.text();
    assert.match(text, /herald_http_requests_total/);
    assert.match(text, /herald_publish_outcomes_total/);
  });
});

describe('rate limits', () => {
  test('every authenticated answer carries the limit; the sixth request in a minute is a 429', async () => {
    const { key } = await h.newKey('limited');
    for (let i = 0; i < 5; i++) {
      const res = await h.request('GET', '/v1/posts', { key });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('x-ratelimit-limit'), '5');
      assert.equal(res.headers.get('x-ratelimit-remaining'), String(4 - i));
      assert.ok(Number(res.headers.get('x-ratelimit-reset')) > Date.now() / 1000);
    }
    const over = await h.request('POST', '/v1/posts', { key, body: { content: 'x', isDraft: true } });
    assert.equal(over.status, 429);
    assert.deepEqual(Object.keys(over.body).sort(), ['code', 'error']);
    assert.equal(over.body.code, 'RATE_LIMIT_EXCEEDED', 'shape A even on POST /v1/posts');
    const retryAfter = Number(over.headers.get('retry-after'));
    assert.ok(retryAfter >= 1 && retryAfter <= 60, String(retryAfter));
    // Another key has its own budget.
    const other = await h.newKey('unlimited');
    assert.equal((await h.request('GET', '/v1/posts', { key: other.key })).status, 200);
  });

  test('bad keys are limited per client address', async () => {
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await h.request('GET', '/v1/posts', { key: `hk_${String(i).repeat(43)}` })).status);
    assert.deepEqual(statuses, [401, 401, 401, 429, 429]);
  });
});

describe('failures', () => {
  test('a 500 names the request and nothing internal; readiness reports the database down', async () => {
    const h2 = await startHerald();
    try {
      await h2.runtime.db.close();
      const res = await h2.request('POST', '/v1/posts', { body: { content: 'x', isDraft: true } });
      assert.equal(res.status, 500);
      assert.deepEqual(Object.keys(res.body).sort(), ['code', 'error']);
      assert.equal(res.body.code, 'INTERNAL_ERROR');
      assert.doesNotMatch(res.text, /sqlite|select|insert|at \w+ \(|\.ts:/i);
      const ready = await h2.request('GET', '/readyz', { key: null });
      assert.equal(ready.status, 503);
    } finally {
      await h2.close();
    }
  });

  test('PostgreSQL unreachable: 503 DATABASE_UNAVAILABLE with Retry-After, not a 500; served again once it is back', { skip: !usingPostgres && 'PostgreSQL only (DATABASE_URL)' }, async () => {
    const db = await createTestDatabase();
    // Herald reaches PostgreSQL through a proxy the test can take down (connections cut, new ones refused).
    const proxy = await startStallProxy(db.databaseUrl!);
    const through = new URL(db.databaseUrl!);
    through.port = new URL(proxy.url).port;
    const h2 = await startHerald({ database: { ...db, databaseUrl: through.toString() } });
    try {
      assert.equal((await h2.request('GET', '/v1/posts')).status, 200);
      await proxy.refuse();
      for (const [method, path, body] of [['POST', '/v1/posts', { content: 'while down', isDraft: true }], ['GET', '/v1/posts', undefined]] as const) {
        const res = await h2.request(method, path, { body });
        assert.equal(res.status, 503, res.text);
        assert.deepEqual(Object.keys(res.body).sort(), ['code', 'error']);
        assert.equal(res.body.code, 'DATABASE_UNAVAILABLE');
        assert.equal(res.headers.get('retry-after'), '5');
        assert.doesNotMatch(res.text, /ECONNREFUSED|postgres|127\.0\.0\.1|at \w+ \(/i);
      }
      assert.equal((await h2.request('GET', '/readyz', { key: null })).status, 503);
      await proxy.resume();
      await eventually(async () => ((await h2.request('GET', '/v1/posts')).status === 200 ? true : undefined), 30_000, 'Herald to serve again');
      const created = await h2.request('POST', '/v1/posts', { body: { content: 'after', isDraft: true } });
      assert.equal(created.status, 201, created.text);
    } finally {
      await h2.close();
      await proxy.close();
      await db.drop();
    }
  });
});
