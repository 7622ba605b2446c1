// Serving the dashboard (API.md section 13):
//   /app and every page address              → the page, no-cache, a strict Content-Security-Policy, no framing, no referrer
//   /app/assets/<hashed name>                → cached for a year (immutable), gzip when asked, 304 on its ETag
//   an unknown asset or /app/api route       → 404 in shape A
//   /app/api/calendar                        → the key's posts placed by published, else scheduled, else created time; drafts without a time left out; another key's never
//   /app/api/calendar with a bad range       → 400 VALIDATION_ERROR
//   the dashboard's routes                   → none in /openapi.json
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { CONTENT_SECURITY_POLICY } from '../../src/http/routes/dashboard.ts';
import { startHerald, type TestHerald } from '../helpers/herald.ts';
import { connectAccount } from '../helpers/connect.ts';
import { startEmulatorServer, type EmulatorServer } from '../../src/sandbox/server.ts';
import { createEmulators } from '../../src/sandbox/index.ts';
import { createCalendarDal } from '../../src/posts/calendar-dal.ts';

let h: TestHerald;
let server: EmulatorServer;
before(async () => {
  server = await startEmulatorServer(createEmulators());
  h = await startHerald({ emulators: server });
});
after(async () => {
  await h.close();
  await server.close();
});

test('/app and its page addresses answer the page with a strict policy; assets are cached for a year', async () => {
  for (const path of ['/app', '/app/', '/app/calendar', '/app/posts/post_x', '/app/accounts/callback/twitter?code=c&state=s']) {
    const res = await fetch(`${h.url}${path}`);
    assert.equal(res.status, 200, path);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    assert.equal(res.headers.get('cache-control'), 'no-cache');
    assert.equal(res.headers.get('content-security-policy'), CONTENT_SECURITY_POLICY);
    assert.equal(res.headers.get('x-frame-options'), 'DENY');
    assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    const html = await res.text();
    assert.match(html, /<div id="root">/);
  }
  assert.match(CONTENT_SECURITY_POLICY, /script-src 'self'(;|$)/);
  assert.doesNotMatch(CONTENT_SECURITY_POLICY, /unsafe-inline|unsafe-eval/);

  const html = await (await fetch(`${h.url}/app`)).text();
  const js = /src="(\/app\/assets\/[^"]+\.js)"/.exec(html)![1]!;
  const plain = await fetch(`${h.url}${js}`, { headers: { 'accept-encoding': 'identity' } });
  assert.equal(plain.status, 200);
  assert.equal(plain.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  assert.match(plain.headers.get('content-type') ?? '', /^text\/javascript/);
  const body = Buffer.from(await plain.arrayBuffer());
  const { request } = await import('node:http');
  const gz = await new Promise<{ encoding: string | undefined; body: Buffer; etag: string }>((resolve, reject) => {
    request(`${h.url}${js}`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(chunks), etag: String(res.headers.etag) }));
    }).on('error', reject).end();
  });
  assert.equal(gz.encoding, 'gzip');
  assert.ok(gunzipSync(gz.body).equals(body));
  const again = await fetch(`${h.url}${js}`, { headers: { 'if-none-match': gz.etag } });
  assert.equal(again.status, 304);
});

test('an unknown asset or dashboard route → 404 in shape A; none of the dashboard routes is in /openapi.json', async () => {
  for (const path of ['/app/assets/nope-12345678.js', '/app/api/nope']) {
    const res = await fetch(`${h.url}${path}`);
    assert.equal(res.status, 404, path);
    assert.equal(((await res.json()) as { code: string }).code, 'NOT_FOUND');
  }
  const doc = (await h.request('GET', '/openapi.json', { key: null })).body;
  assert.deepEqual(Object.keys(doc.paths).filter((p) => p.startsWith('/app')), []);
});

test("the calendar places each post by published, else scheduled, else created time; drafts without a time are left out; another key's never", async () => {
  const { accountId } = await connectAccount(h, 'twitter');
  const soon = new Date(Date.now() + 3 * 86_400_000);
  soon.setUTCHours(12, 0, 0, 0);
  const scheduled = await h.request('POST', '/v1/posts', { body: { content: 'later', scheduledFor: soon.toISOString(), platforms: [{ platform: 'twitter', accountId }] } });
  const published = await h.request('POST', '/v1/posts', { body: { content: 'now', publishNow: true, platforms: [{ platform: 'twitter', accountId }] } });
  const draft = await h.request('POST', '/v1/posts', { body: { content: 'draft', isDraft: true } });
  const other = await h.newKey();
  const theirs = await h.request('POST', '/v1/posts', { key: other.key, body: { content: 'theirs', isDraft: true } });
  assert.equal(published.body.status, 'published');
  const from = new Date(Date.now() - 86_400_000).toISOString();
  const to = new Date(Date.now() + 10 * 86_400_000).toISOString();
  const res = await h.request('GET', `/app/api/calendar?from=${from}&to=${to}`);
  assert.equal(res.status, 200, res.text);
  const placed = Object.fromEntries(res.body.posts.map((p: any) => [p.post.id, p.at]));
  assert.equal(placed[scheduled.body.id], soon.toISOString());
  assert.equal(placed[published.body.id], published.body.publishedAt);
  assert.equal(placed[draft.body.id], undefined);
  assert.equal(placed[theirs.body.id], undefined);
  assert.equal(res.body.truncated, false);
  const narrow = await h.request('GET', `/app/api/calendar?from=${new Date(soon.getTime() + 1).toISOString()}&to=${to}`);
  assert.ok(!narrow.body.posts.some((p: any) => p.post.id === scheduled.body.id), 'the range is [from, to)');

  for (const query of [`from=${to}&to=${from}`, `from=${from}&to=${new Date(Date.now() + 90 * 86_400_000).toISOString()}`, 'from=yesterday&to=today', `from=${from}`]) {
    const bad = await h.request('GET', `/app/api/calendar?${query}`);
    assert.equal(bad.status, 400, query);
    assert.equal(bad.body.code, 'VALIDATION_ERROR');
  }
  assert.equal((await h.request('GET', `/app/api/calendar?from=${from}&to=${to}`, { key: null })).status, 401);
});

test('the calendar read is placed, ordered and cut at its limit by the database: the first posts in time, and truncated', async () => {
  const key = await h.newKey('busy calendar');
  const base = new Date(Date.now() + 20 * 86_400_000);
  base.setUTCHours(9, 0, 0, 0);
  // Created out of time order, so an answer in time order is the read's doing.
  const made: { id: string; at: string }[] = [];
  for (const hours of [5, 1, 4, 2, 3]) {
    const at = new Date(base.getTime() + hours * 3_600_000).toISOString();
    const res = await h.request('POST', '/v1/posts', { key: key.key, body: { content: `at +${hours} h`, isDraft: true, scheduledFor: at } });
    assert.equal(res.status, 201, res.text);
    made.push({ id: res.body.id, at });
  }
  const calendar = createCalendarDal({ db: h.runtime.db.kysely });
  const from = base.getTime();
  const to = base.getTime() + 86_400_000;
  const cut = await calendar.between(key.id, from, to, 3);
  const inTime = [...made].sort((a, b) => a.at.localeCompare(b.at));
  assert.deepEqual(cut.posts.map((p) => [p.post.id, p.at]), inTime.slice(0, 3).map((p) => [p.id, p.at]));
  assert.equal(cut.truncated, true);
  const all = await calendar.between(key.id, from, to, 5);
  assert.equal(all.posts.length, 5);
  assert.equal(all.truncated, false);
});
