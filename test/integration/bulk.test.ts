// POST /v1/posts/bulk (API.md section 12): JSON and CSV, dry run, per-row results, whole-import
// idempotency, and limits.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { connectAccount } from '../helpers/connect.ts';
import { startWorld, type World } from '../helpers/e2e.ts';

let w: World;
let x: string;
let threads: string;

before(async () => {
  w = await startWorld();
  x = (await connectAccount(w.h, 'twitter')).accountId;
  threads = (await connectAccount(w.h, 'threads')).accountId;
});
after(() => w.close());

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();
const csv = (text: string, headers: Record<string, string> = {}, query = '') =>
  w.h.request('POST', `/v1/posts/bulk${query}`, { raw: text, headers: { 'content-type': 'text/csv', ...headers } });

test('JSON: valid rows are created exactly like single creates, invalid ones report their errors', async () => {
  const res = await w.h.request('POST', '/v1/posts/bulk', {
    body: {
      posts: [
        { content: 'bulk one', scheduledFor: inAnHour(), platforms: [{ platform: 'twitter', accountId: x }] },
        { content: 'x'.repeat(600), scheduledFor: inAnHour(), platforms: [{ platform: 'threads', accountId: threads }] },
        { content: 'bulk draft', isDraft: true },
        { content: 'no mode', platforms: [{ platform: 'twitter', accountId: x }] },
        { contnet: 'typo' },
      ],
    },
  });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.created, 2);
  assert.equal(res.body.failed, 3);
  const [a, b, c, d, e] = res.body.results;
  assert.deepEqual({ index: a.index, valid: a.valid, status: a.status }, { index: 0, valid: true, status: 'scheduled' });
  assert.equal((await w.h.request('GET', `/v1/posts/${a.id}`)).body.content, 'bulk one');
  assert.equal(b.valid, false);
  assert.equal(b.errors[0].param, 'content');
  assert.equal(b.errors[0].code, 'invalid_field_value');
  assert.equal(c.status, 'draft');
  assert.equal(d.errors[0].param, 'publishNow');
  assert.equal(d.errors[0].code, 'missing_required_field');
  assert.equal(e.errors[0].param, 'contnet');
});

test('CSV: header row, platforms as platform:accountId joined by ;, media and tags joined by ;', async () => {
  const when = inAnHour();
  const text = [
    'content,scheduledFor,platforms,mediaUrls,tags,isDraft',
    `"Hello, CSV",${when},twitter:${x};threads:${threads},${w.media('sample.jpg')},a;b,`,
    `"A ""quoted"" draft",,,,,true`,
    `Bad row,${when},twitter:nobody,,,`,
  ].join('\n');
  const res = await csv(text);
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.created, 2);
  const [first, second, third] = res.body.results;
  const post = (await w.h.request('GET', `/v1/posts/${first.id}`)).body;
  assert.equal(post.content, 'Hello, CSV');
  assert.deepEqual(post.platforms.map((p: any) => p.platform), ['twitter', 'threads']);
  assert.deepEqual(post.mediaItems, [{ type: 'image', url: w.media('sample.jpg') }]);
  assert.deepEqual(post.tags, ['a', 'b']);
  assert.equal((await w.h.request('GET', `/v1/posts/${second.id}`)).body.content, 'A "quoted" draft');
  assert.equal(third.valid, false);
  assert.equal(third.errors[0].param, 'platforms[0].accountId');
});

test('dry run (JSON field or ?dryRun=true) checks every row and creates nothing', async () => {
  const before = (await w.h.request('GET', '/v1/posts?limit=100')).body.posts.length;
  const json = await w.h.request('POST', '/v1/posts/bulk', { body: { dryRun: true, posts: [{ content: 'dry', isDraft: true }, { content: 'x'.repeat(300), publishNow: true, platforms: [{ platform: 'twitter', accountId: x }] }] } });
  assert.equal(json.status, 200, json.text);
  assert.equal(json.body.created, 0);
  assert.deepEqual(json.body.results.map((r: any) => r.valid), [true, false]);
  assert.equal(json.body.results[0].id, undefined);
  const viaCsv = await csv('content,isDraft\ndry csv,true\n', {}, '?dryRun=true');
  assert.equal(viaCsv.body.created, 0);
  assert.equal(viaCsv.body.results[0].valid, true);
  assert.equal((await w.h.request('GET', '/v1/posts?limit=100')).body.posts.length, before);
});

test('Idempotency-Key covers the whole import: a repeat answers the first import and creates nothing', async () => {
  const key = randomUUID();
  const body = { posts: [{ content: 'once 1', isDraft: true }, { content: 'once 2', isDraft: true }] };
  const first = await w.h.request('POST', '/v1/posts/bulk', { body, headers: { 'idempotency-key': key } });
  const second = await w.h.request('POST', '/v1/posts/bulk', { body, headers: { 'idempotency-key': key } });
  assert.equal(second.headers.get('idempotent-replayed'), 'true');
  assert.equal(second.text, first.text);
  const drafts = (await w.h.request('GET', '/v1/posts?status=draft&limit=100')).body.posts.filter((p: any) => p.content?.startsWith('once '));
  assert.equal(drafts.length, 2);
});

test('an import cut short and sent again with its key creates only the rows the first one did not', async () => {
  const key = randomUUID();
  const rows = Array.from({ length: 6 }, (_, i) => ({ content: `resumed ${i}`, isDraft: true }));
  const first = await w.h.request('POST', '/v1/posts/bulk', { body: { posts: rows.slice(0, 3) }, headers: { 'idempotency-key': key } });
  assert.equal(first.body.created, 3);
  // As if that import had died before its answer was stored: its own record is gone, its rows' are not.
  await w.h.runtime.db.write((trx) => trx.deleteFrom('idempotency_keys').where('key', '=', key).execute());
  const again = await w.h.request('POST', '/v1/posts/bulk', { body: { posts: rows }, headers: { 'idempotency-key': key } });
  assert.equal(again.status, 200, again.text);
  assert.deepEqual(
    again.body.results.slice(0, 3).map((r: any) => r.id),
    first.body.results.map((r: any) => r.id),
    'the first three rows are the posts made the first time',
  );
  const made = (await w.h.request('GET', '/v1/posts?status=draft&limit=100')).body.posts.filter((p: any) => p.content?.startsWith('resumed '));
  assert.equal(made.length, 6);
});

test('limits and broken input: over 500 rows, broken CSV quoting, an unknown column, nothing to import', async () => {
  const many = await w.h.request('POST', '/v1/posts/bulk', { body: { posts: Array.from({ length: 501 }, () => ({ content: 'x', isDraft: true })) } });
  assert.equal(many.status, 400, many.text);
  const rows = Array.from({ length: 501 }, (_, i) => `row ${i},true`).join('\n');
  assert.equal((await csv(`content,isDraft\n${rows}`)).status, 400);
  const quoting = await csv('content,isDraft\n"unterminated,true\n');
  assert.equal(quoting.status, 400);
  assert.match(quoting.body.error, /CSV/);
  // Over 5 MiB: 413 naming that limit (not the 1 MiB of other routes); 2 MiB passes the size check.
  const big = await csv(`content,isDraft\n${'x'.repeat(5 * 1024 * 1024)},true\n`);
  assert.equal(big.status, 413, big.text);
  assert.equal(big.body.code, 'PAYLOAD_TOO_LARGE');
  assert.match(big.body.error, /5242880/);
  assert.notEqual((await csv(`content,isDraft\n${'x'.repeat(2 * 1024 * 1024)},true\n`)).status, 413);
  const twice = await csv('content,isDraft,content\na,true,b\n');
  assert.equal(twice.status, 400, twice.text);
  assert.equal(twice.body.param, 'content');
  assert.match(twice.body.error, /appears twice/);
  const column = await csv('content,colour\nx,red\n');
  assert.equal(column.status, 400);
  assert.equal(column.body.param, 'colour');
  assert.equal((await w.h.request('POST', '/v1/posts/bulk', { body: { posts: [] } })).status, 400);
  assert.equal((await csv('')).status, 400);
});
