// Dashboard sessions (API.md section 13): an API key exchanged for an HttpOnly, SameSite=Strict cookie
// that the /v1 API accepts in place of the key, with the cross-origin checks of src/http/session-guard.ts.
//   sign-in                                  → cookie HttpOnly, SameSite=Strict, Path=/, not Secure on http; the key is not in it; only its hash is stored
//   wrong key / another origin signs in       → 401 / 403, no cookie
//   session reads and writes /v1              → 200 / 201 with Origin, Sec-Fetch-Site same-origin and the token
//   a write without token, with a wrong one, from another port, scheme or host of the same machine, without Origin, or same-site → 403 CSRF_REJECTED, nothing created
//   a read that another site or origin sent   → 403
//   another key's post with a session         → 404
//   sign-out                                  → the old cookie is refused (401)
//   the key revoked                           → its sessions are refused at once, in another process on the same database too
//   12 hours idle                             → refused; a session in use stays
//   HERALD_PUBLIC_URL https                   → Secure cookie named __Host-herald_session
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createTestDatabase, startHerald, type TestDatabase, type TestHerald } from '../helpers/herald.ts';
import { testClock, type TestClock } from '../helpers/clock.ts';

let database: TestDatabase;
let h: TestHerald;
let clock: TestClock;

before(async () => {
  database = await createTestDatabase();
  clock = testClock();
  h = await startHerald({ database, clock });
});
after(async () => {
  await h.close();
  await database.drop();
});

interface Session {
  cookie: string;
  csrf: string;
  setCookie: string;
}

async function signIn(herald: TestHerald, key: string, headers: Record<string, string> = {}): Promise<{ status: number; body: any; session?: Session }> {
  const res = await fetch(`${herald.url}/app/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: herald.url, 'sec-fetch-site': 'same-origin', ...headers },
    body: JSON.stringify({ key }),
  });
  const body: any = await res.json();
  const setCookie = res.headers.get('set-cookie');
  if (res.status !== 200 || !setCookie) return { status: res.status, body };
  return { status: res.status, body, session: { cookie: setCookie.split(';')[0]!, csrf: body.csrfToken, setCookie } };
}

/** A request as the dashboard page makes it: cookie, own Origin, Sec-Fetch-Site, the token on writes. */
function asPage(herald: TestHerald, s: Session, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const base: Record<string, string> = { cookie: s.cookie, 'sec-fetch-site': 'same-origin' };
  if (method !== 'GET') Object.assign(base, { origin: herald.url, 'x-herald-csrf': s.csrf });
  const merged = Object.fromEntries(Object.entries({ ...base, ...headers }).filter(([, v]) => v !== ''));
  return herald.request(method, path, { key: null, body, headers: merged });
}

describe('signing in', () => {
  test('a valid key gets an HttpOnly, SameSite=Strict session cookie that is not the key; only its hash is stored', async () => {
    const { status, body, session } = await signIn(h, h.key);
    assert.equal(status, 200, JSON.stringify(body));
    assert.ok(session);
    const attrs = session.setCookie.split(';').map((a) => a.trim());
    assert.ok(session.cookie.startsWith('herald_session='));
    assert.ok(attrs.includes('HttpOnly') && attrs.includes('SameSite=Strict') && attrs.includes('Path=/'), session.setCookie);
    assert.ok(!attrs.includes('Secure'), 'not Secure on plain http');
    const value = session.cookie.split('=')[1]!;
    assert.ok(!session.setCookie.includes(h.key) && !JSON.stringify(body).includes(h.key), 'the key is neither in the cookie nor in the answer');
    assert.deepEqual(body.key, { id: h.keyId, name: 'test', prefix: h.key.slice(0, 11) });
    assert.equal(body.idleTimeoutSeconds, 12 * 60 * 60);
    const rows = await h.runtime.db.kysely.selectFrom('dashboard_sessions').selectAll().execute();
    const row = rows.find((r) => r.id_hash === createHash('sha256').update(value).digest('hex'));
    assert.ok(row, 'the row holds the SHA-256 of the cookie value');
    assert.ok(!rows.some((r) => r.id_hash === value));
    assert.equal(row.api_key_id, h.keyId);
  });

  test('a wrong key → 401 AUTH_INVALID_KEY; a sign-in sent by another origin → 403 CSRF_REJECTED; no cookie either way', async () => {
    const wrong = await signIn(h, `hk_${'A'.repeat(43)}`);
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.code, 'AUTH_INVALID_KEY');
    assert.equal(wrong.session, undefined);
    const port = new URL(h.url).port;
    const forgeries: Record<string, string>[] = [{ origin: 'http://127.0.0.1:1' }, { origin: `https://127.0.0.1:${port}` }, { 'sec-fetch-site': 'same-site' }, { 'sec-fetch-site': 'cross-site' }];
    for (const headers of forgeries) {
      const forged = await signIn(h, h.key, headers);
      assert.equal(forged.status, 403, JSON.stringify(headers));
      assert.equal(forged.body.code, 'CSRF_REJECTED');
      assert.equal(forged.session, undefined);
    }
  });
});

describe('the API with a session', () => {
  test('reads and writes /v1 from the dashboard page: GET 200, POST 201 with the token', async () => {
    const { session } = await signIn(h, h.key);
    const list = await asPage(h, session!, 'GET', '/v1/posts');
    assert.equal(list.status, 200, list.text);
    assert.ok(list.headers.get('x-ratelimit-limit'), 'the key\'s rate limit applies');
    const created = await asPage(h, session!, 'POST', '/v1/posts', { content: 'from the dashboard', isDraft: true });
    assert.equal(created.status, 201, created.text);
    const mine = await h.request('GET', `/v1/posts/${created.body.id}`);
    assert.equal(mine.status, 200, 'the session wrote as its key');
  });

  test('a write without the token, with a wrong one, from another port, scheme or host, without Origin, or same-site → 403 CSRF_REJECTED; nothing created', async () => {
    const { session } = await signIn(h, h.key);
    const port = new URL(h.url).port;
    const before = (await h.request('GET', '/v1/posts?limit=100')).body.posts.length;
    const forgeries: [string, Record<string, string>][] = [
      ['no token', { 'x-herald-csrf': '' }],
      ['a wrong token', { 'x-herald-csrf': 'A'.repeat(43) }],
      ['another port of the same host', { origin: 'http://127.0.0.1:1' }],
      ['another scheme of the same host and port', { origin: `https://127.0.0.1:${port}` }],
      ['another host name of the same machine', { origin: `http://localhost:${port}` }],
      ['no Origin', { origin: '' }],
      ['an opaque Origin', { origin: 'null' }],
      ['Sec-Fetch-Site same-site', { 'sec-fetch-site': 'same-site' }],
      ['Sec-Fetch-Site cross-site', { 'sec-fetch-site': 'cross-site' }],
    ];
    for (const [what, headers] of forgeries) {
      for (const [method, path, body] of [
        ['POST', '/v1/posts', { content: `forged: ${what}`, isDraft: true }],
        ['PUT', '/v1/queue', { timezone: 'UTC', slots: [] }],
        ['POST', '/v1/webhooks/settings', { url: 'https://1.1.1.1/hook', events: ['post.failed'] }],
      ] as const) {
        const res = await asPage(h, session!, method, path, body, headers);
        assert.equal(res.status, 403, `${what}, ${method} ${path}: ${res.text}`);
        assert.equal(res.body.code, 'CSRF_REJECTED');
      }
    }
    assert.equal((await h.request('GET', '/v1/posts?limit=100')).body.posts.length, before);
    assert.equal((await h.request('GET', '/v1/webhooks/settings')).status, 404, 'no settings were saved');
  });

  test('a read that another site or origin sent → 403; a typed address (Sec-Fetch-Site none) reads', async () => {
    const { session } = await signIn(h, h.key);
    for (const site of ['cross-site', 'same-site']) {
      const res = await asPage(h, session!, 'GET', '/v1/accounts', undefined, { 'sec-fetch-site': site });
      assert.equal(res.status, 403, site);
    }
    assert.equal((await asPage(h, session!, 'GET', '/v1/accounts', undefined, { 'sec-fetch-site': 'none' })).status, 200);
  });

  test("another key's post → 404 with a session, as with its key", async () => {
    const other = await h.newKey('other');
    const theirs = await h.request('POST', '/v1/posts', { key: other.key, body: { content: 'theirs', isDraft: true } });
    const { session } = await signIn(h, h.key);
    for (const [method, path] of [['GET', `/v1/posts/${theirs.body.id}`], ['DELETE', `/v1/posts/${theirs.body.id}`]] as const) {
      const res = await asPage(h, session!, method, path);
      assert.equal(res.status, 404, res.text);
      assert.equal(res.body.code, 'NOT_FOUND');
    }
    assert.equal((await h.request('GET', `/v1/posts/${theirs.body.id}`, { key: other.key })).status, 200);
  });

  test('a bearer key is used as before when both are sent; a session cookie of nothing → 401', async () => {
    const other = await h.newKey('bearer');
    const { session } = await signIn(h, h.key);
    const res = await h.request('GET', '/v1/posts', { key: other.key, headers: { cookie: session!.cookie } });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.posts, [], "the bearer key's view, not the session's");
    const bogus = await h.request('GET', '/v1/posts', { key: null, headers: { cookie: `herald_session=${'x'.repeat(43)}` } });
    assert.equal(bogus.status, 401);
    assert.equal(bogus.body.code, 'AUTH_INVALID_KEY');
  });
});

describe('ending a session', () => {
  test('sign-out ends it: the old cookie is refused, the cookie is cleared', async () => {
    const { session } = await signIn(h, h.key);
    const forged = await fetch(`${h.url}/app/api/session`, { method: 'DELETE', headers: { cookie: session!.cookie, origin: 'http://127.0.0.1:1' } });
    assert.equal(forged.status, 403, 'another origin cannot sign the user out');
    const out = await fetch(`${h.url}/app/api/session`, {
      method: 'DELETE',
      headers: { cookie: session!.cookie, origin: h.url, 'x-herald-csrf': session!.csrf, 'sec-fetch-site': 'same-origin' },
    });
    assert.equal(out.status, 200);
    assert.match(out.headers.get('set-cookie') ?? '', /^herald_session=;.*Max-Age=0/);
    const after = await asPage(h, session!, 'GET', '/v1/posts');
    assert.equal(after.status, 401);
    assert.match(after.body.error, /session has ended/);
  });

  test("revoking the key ends its sessions at once, in another process on the same database too", async () => {
    const k = await h.newKey('to-revoke');
    const { session } = await signIn(h, k.key);
    const second = await startHerald({ database });
    try {
      assert.equal((await asPage(second, session!, 'GET', '/v1/posts')).status, 200, 'another process accepts the session');
      await second.runtime.keys.revoke(k.id);
      assert.equal((await asPage(h, session!, 'GET', '/v1/posts')).status, 401);
      assert.equal((await asPage(second, session!, 'GET', '/v1/posts')).status, 401);
      await h.runtime.maintenance();
      const left = await h.runtime.db.kysely.selectFrom('dashboard_sessions').select('id_hash').where('api_key_id', '=', k.id).execute();
      assert.deepEqual(left, [], 'maintenance drops the sessions of revoked keys');
    } finally {
      await second.close();
    }
  });

  test('12 hours idle ends a session; one in use stays', async () => {
    const idle = (await signIn(h, h.key)).session!;
    const busy = (await signIn(h, h.key)).session!;
    clock.advance(11 * 60 * 60_000);
    assert.equal((await asPage(h, busy, 'GET', '/v1/posts')).status, 200);
    clock.advance(2 * 60 * 60_000);
    assert.equal((await asPage(h, busy, 'GET', '/v1/posts')).status, 200, 'used 2 hours ago');
    const res = await asPage(h, idle, 'GET', '/v1/posts');
    assert.equal(res.status, 401, 'idle for 13 hours');
    const me = await fetch(`${h.url}/app/api/session`, { headers: { cookie: idle.cookie } });
    assert.equal(me.status, 401);
  });
});

test('HERALD_PUBLIC_URL on https: the cookie is Secure and named __Host-herald_session; that origin may write', async () => {
  const secure = await startHerald({ env: { HERALD_PUBLIC_URL: 'https://herald.example.com' } });
  try {
    const { status, session } = await signIn(secure, secure.key, { origin: 'https://herald.example.com' });
    assert.equal(status, 200);
    assert.ok(session!.cookie.startsWith('__Host-herald_session='));
    assert.ok(session!.setCookie.split(';').map((a) => a.trim()).includes('Secure'));
    const created = await asPage(secure, session!, 'POST', '/v1/posts', { content: 'x', isDraft: true }, { origin: 'https://herald.example.com' });
    assert.equal(created.status, 201, created.text);
    const downgraded = await asPage(secure, session!, 'POST', '/v1/posts', { content: 'x', isDraft: true }, { origin: 'http://herald.example.com' });
    assert.equal(downgraded.status, 403);
  } finally {
    await secure.close();
  }
});
