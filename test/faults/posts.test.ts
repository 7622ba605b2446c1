// Fault matrix: posts of part two (bulk imports, PATCH, the queue). Each row is a fault and the outcome
// API.md section 12 promises:
//   a CSV of 10,000 rows (and a JSON import of 10,000 posts)     → 400 VALIDATION_ERROR "at most 500 rows per import; this CSV
//                                                                  has 10000" (JSON: "posts must have at most 500 items", param posts), dry run or not; nothing created
//   a CSV with broken quoting: an unterminated quote (last row,    → 400 VALIDATION_ERROR "the CSV could not be read: …" naming
//   or deep inside a long file), a quote inside a bare cell, a       the line; no stack, nothing created, not even the good rows
//   row with more cells than the header
//   a quoted cell holding commas, quotes and a line break         → one row, its content exactly as written
//   queued creates and PATCHes with "queue": true, all at once    → every one answered 2xx, each on a slot of its own
//   a PATCH sent through an API process as a worker process's      → 200 and the post goes out as changed, or 409 POST_NOT_EDITABLE
//   scheduler fires the post (two runtimes, one database)            and it goes out as it was; once, never half of each
// Proved elsewhere:
//   a PATCH racing the scheduler firing the post in one process  → the post goes out once, as it was (409 POST_NOT_EDITABLE)
//                                                                    or as changed, never half of each: test/integration/posts-patch.test.ts
//                                                                    ("a change racing the scheduler", 15 rounds); across processes: above
//   two (twenty) queued creates racing for one slot               → twenty distinct slots: test/integration/queue.test.ts
//   a bulk import cut short by a crash and sent again             → only the missing rows created: test/integration/bulk.test.ts
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connectAccount } from '../helpers/connect.ts';
import { posted, startWorld, waitFinal, type World } from '../helpers/e2e.ts';
import { createTestDatabase, startHerald } from '../helpers/herald.ts';
import { untilPast } from '../helpers/wait.ts';

let w: World;
let x: string;

before(async () => {
  w = await startWorld();
  x = (await connectAccount(w.h, 'twitter', { sandbox_user: 'posts_faults' })).accountId;
});
after(() => w.close());

const csv = (text: string, key?: string, query = '') => w.h.request('POST', `/v1/posts/bulk${query}`, { key, raw: text, headers: { 'content-type': 'text/csv' } });
const LEAKS = [/\n\s+at\s/, /\.ts:\d+/, /node:internal/, /csv-parse/];

async function postsOf(key: string) {
  const res = await w.h.request('GET', '/v1/posts?limit=100', { key });
  assert.equal(res.status, 200, res.text);
  return res.body.posts as { id: string; content: string }[];
}

test('a CSV of 10,000 rows, and a JSON import of 10,000 posts: 400 with the limit and the count, dry run or not; nothing created', async () => {
  const { key } = await w.h.newKey('ten thousand');
  const rows = Array.from({ length: 10_000 }, (_, i) => `row ${i},2030-01-01T09:00:00Z,UTC,twitter:${x},,a;b,,`).join('\n');
  const text = `content,scheduledFor,timezone,platforms,mediaUrls,tags,isDraft,queue\n${rows}\n`;
  for (const query of ['', '?dryRun=true']) {
    const res = await csv(text, key, query);
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.code, 'VALIDATION_ERROR');
    assert.equal(res.body.error, 'at most 500 rows per import; this CSV has 10000');
  }
  const json = await w.h.request('POST', '/v1/posts/bulk', { key, body: { posts: Array.from({ length: 10_000 }, (_, i) => ({ content: `row ${i}`, isDraft: true })) } });
  assert.equal(json.status, 400, json.text);
  assert.equal(json.body.code, 'VALIDATION_ERROR');
  assert.equal(json.body.param, 'posts');
  assert.equal(json.body.error, 'posts must have at most 500 items');
  assert.deepEqual(await postsOf(key), []);
});

test('a CSV with broken quoting: 400 "could not be read" naming the line, no stack; nothing created, not even the good rows', async () => {
  const { key } = await w.h.newKey('quoting');
  const good = Array.from({ length: 400 }, (_, i) => `good ${i},true`);
  const cases: [string, string, RegExp][] = [
    ['an unterminated quote on the last row', `content,isDraft\n${good.slice(0, 3).join('\n')}\n"unterminated,true\n`, /quote/i],
    ['an unterminated quote deep in a long file', `content,isDraft\n${good.slice(0, 350).join('\n')}\n"never closed,true\n${good.slice(350).join('\n')}\n`, /quote/i],
    ['a quote inside a bare cell', `content,isDraft\n${good.slice(0, 3).join('\n')}\nsay "hi" there,true\n`, /line 5/],
    ['a row with more cells than the header', `content,isDraft\n${good.slice(0, 3).join('\n')}\none,true,extra\n`, /line 5|record 5|column/i],
    ['text after a closing quote', `content,isDraft\n"closed" then more,true\n`, /quote/i],
  ];
  for (const [what, text, names] of cases) {
    const res = await csv(text, key);
    assert.equal(res.status, 400, `${what}: ${res.text}`);
    assert.equal(res.body.code, 'VALIDATION_ERROR', what);
    assert.match(res.body.error, /^the CSV could not be read: /, what);
    assert.match(res.body.error, names, `${what}: ${res.body.error}`);
    for (const leak of LEAKS) assert.ok(!leak.test(res.text), `${what}: ${res.text}`);
  }
  assert.deepEqual(await postsOf(key), []);
});

test('a quoted cell holding commas, doubled quotes and a line break is one row, its content exactly as written', async () => {
  const { key } = await w.h.newKey('quoted');
  const res = await csv('content,isDraft\r\n"one, two ""three""\r\nfour",true\r\n', key);
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.created, 1, res.text);
  const [post] = await postsOf(key);
  assert.equal(post!.content, 'one, two "three"\r\nfour');
});

test('queued creates and PATCHes with "queue": true, all at once: every one answered 2xx, each on a slot of its own', async () => {
  const { key } = await w.h.newKey('queue race');
  const mine = (await connectAccount(w.h, 'twitter', { sandbox_user: 'queue_race' }, key)).accountId;
  const target = [{ platform: 'twitter', accountId: mine }];
  const everyDay = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].flatMap((day) => ['08:00', '12:00', '18:00'].map((time) => ({ day, time })));
  assert.equal((await w.h.request('PUT', '/v1/queue', { key, body: { timezone: 'UTC', slots: everyDay } })).status, 200);
  const drafts: string[] = [];
  for (let i = 0; i < 8; i++) drafts.push((await w.h.request('POST', '/v1/posts', { key, body: { content: `draft ${i}`, isDraft: true, platforms: target } })).body.id);
  const answers = await Promise.all([
    ...drafts.map((id) => w.h.request('PATCH', `/v1/posts/${id}`, { key, body: { queue: true } })),
    ...Array.from({ length: 8 }, (_, i) => w.h.request('POST', '/v1/posts', { key, body: { content: `queued ${i}`, queue: true, platforms: target } })),
  ]);
  for (const a of answers) {
    assert.ok(a.status === 200 || a.status === 201, a.text);
    assert.equal(a.body.status, 'scheduled', a.text);
  }
  const slots = answers.map((a) => a.body.scheduledFor);
  assert.equal(new Set(slots).size, answers.length, `one slot each: ${slots.sort().join(', ')}`);
});

test('a PATCH through an API process as a worker process fires the post: once, as it was or as changed, never half of each', { timeout: 300_000 }, async (t) => {
  const database = await createTestDatabase();
  const api = await startHerald({ role: 'api', database, emulators: w.server });
  const worker = await startHerald({ role: 'worker', database, emulators: w.server });
  try {
    const targets = [
      { platform: 'twitter', accountId: (await connectAccount(api, 'twitter', { sandbox_user: 'patch_race_x' })).accountId },
      { platform: 'threads', accountId: (await connectAccount(api, 'threads', { sandbox_user: 'patch_race_t' })).accountId },
    ];
    const outcomes = { changed: 0, refused: 0 };
    for (let i = 0; i < 10; i++) {
      const tag = `patch race ${Date.now()} ${i}`;
      const due = Date.now() + 1_000;
      const created = await api.request('POST', '/v1/posts', { body: { content: `${tag} before`, scheduledFor: new Date(due).toISOString(), platforms: targets } });
      assert.equal(created.status, 201, created.text);
      // Sent as the post comes due, a little before or after: who wins is the race's business.
      await untilPast(due - 20 + (i % 5) * 10);
      const change = await api.request('PATCH', `/v1/posts/${created.body.id}`, { body: { content: `${tag} after` } });
      const final = await waitFinal(api, created.body.id);
      assert.equal(final.status, 'published', JSON.stringify(final));
      const texts = ['twitter', 'threads'].flatMap((name) => posted(w.emu(name)).filter((e) => e.text?.startsWith(tag)).map((e) => e.text));
      assert.equal(texts.length, 2, `one post per target: ${texts.join(' | ')}`);
      if (change.status === 200) {
        outcomes.changed++;
        assert.deepEqual(texts, [`${tag} after`, `${tag} after`], 'the change won: both targets publish it');
      } else {
        outcomes.refused++;
        assert.equal(change.status, 409, change.text);
        assert.equal(change.body.code, 'POST_NOT_EDITABLE', change.text);
        assert.deepEqual(texts, [`${tag} before`, `${tag} before`], 'the scheduler won: the post as it was');
      }
    }
    assert.equal(outcomes.changed + outcomes.refused, 10);
    t.diagnostic(`the change won ${outcomes.changed} times, the scheduler ${outcomes.refused}`);
  } finally {
    await worker.close();
    await api.close();
    await database.drop();
  }
});
