// Fault matrix: the database. Each row is a fault and the outcome Herald must show:
//   PostgreSQL stopped (every connection cut at once) while posts are at X and others come due, then started
//   again on the same address, Herald left running:
//     requests while it is down        → 503 DATABASE_UNAVAILABLE with Retry-After (shape A), no stack, nothing half-made; the process
//                                        lives on (a pooled connection in use when the server went away ended it: fixed)
//     once it is back                  → the API answers again without a restart of Herald; the post X took while the
//                                        database was down is recorded (reconciled, not sent again); the posts that
//                                        came due while it was down are published; every post on X exactly once
//     after that                       → a new publish and a new scheduled post go out (the pool and the job
//                                        notifications reconnected)
// PostgreSQL only: the test starts a server of its own (test/helpers/postgres-server.ts) and restarts that one.
// On SQLite the database is a file inside the process: there is no server to lose (a process killed with its
// database is scheduling.test.ts and crash/crash.test.ts).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connectAccount } from '../helpers/connect.ts';
import { posted, publishNow, startWorld, waitAllFinal, type World } from '../helpers/e2e.ts';
import { usingPostgres, type TestDatabase } from '../helpers/herald.ts';
import { startPostgresServer, type PostgresServer } from '../helpers/postgres-server.ts';
import { until, untilPast } from '../helpers/wait.ts';

const skip = usingPostgres ? false : 'PostgreSQL only (set DATABASE_URL): on SQLite the database is a file in the process, with no server to restart';

let server: PostgresServer;
let database: TestDatabase;
let w: World;
let x: string;

before(async () => {
  if (skip) return;
  server = await startPostgresServer();
  database = await server.createDatabase();
  // X's answer may take 20 s here: the slow answer below must outlast the database's stop.
  w = await startWorld({ database, env: { HERALD_PUBLISH_WAIT_MS: '0', HERALD_PLATFORM_TIMEOUT_MS: '20000' } });
  x = (await connectAccount(w.h, 'twitter', { sandbox_user: 'pg_restart' })).accountId;
});
after(async () => {
  if (skip) return;
  await w?.close();
  await database?.drop();
  await server?.close();
});

const unique = (what: string) => `${what} ${Date.now()} ${Math.random().toString(36).slice(2, 8)}`;
const LEAKS = [/\n\s+at\s/, /\.ts:\d+/, /node:internal/];

test('PostgreSQL stopped mid-flight and started again: errors in API.md shape while it is down; then every post on X exactly once, and Herald works on without a restart', { skip, timeout: 180_000 }, async () => {
  const target = [{ platform: 'twitter', accountId: x }];
  // X takes its time over the first post, so that the database goes away while Herald waits for X.
  w.emu('twitter').faults.add({ kind: 'slow', method: 'POST', path: '/2/tweets', delayMs: 4_000 });
  const inFlight = await publishNow(w.h, { content: unique('in flight'), platforms: target });
  const dueAt = Date.now() + 2_000;
  const due: string[] = [];
  for (let i = 0; i < 3; i++) {
    const res = await w.h.request('POST', '/v1/posts', { body: { content: unique(`due ${i}`), scheduledFor: new Date(dueAt).toISOString(), platforms: target } });
    assert.equal(res.status, 201, res.text);
    due.push(res.body.id);
  }
  await until('X to receive the first post', () => w.emu('twitter').calls.some((c) => c.method === 'POST' && c.path.includes('/2/tweets')));

  server.stop('immediate');
  try {
    // While it is down: errors in API.md's shapes, no stack, no detail of the driver.
    const list = await w.h.request('GET', '/v1/posts');
    assert.equal(list.status, 503, list.text);
    assert.equal(list.body.code, 'DATABASE_UNAVAILABLE', list.text);
    assert.equal(list.headers.get('retry-after'), '5');
    assert.equal(typeof list.body.error, 'string');
    const create = await w.h.request('POST', '/v1/posts', { body: { content: unique('while down'), isDraft: true } });
    assert.equal(create.status, 503, create.text);
    assert.equal(create.body.code, 'DATABASE_UNAVAILABLE', `shape A, on POST /v1/posts too: ${create.text}`);
    for (const text of [list.text, create.text]) for (const leak of LEAKS) assert.ok(!leak.test(text), text);
    // X answers the first post while there is nowhere to record it; the scheduled ones come due.
    await until('X to have published the first post', () => posted(w.emu('twitter'), { text: inFlight.content }).length === 1, { capMs: 60_000 });
    await untilPast(dueAt);
  } finally {
    server.start();
  }

  const final = await waitAllFinal(w.h, [inFlight.id, ...due], 150_000);
  for (const p of final) {
    assert.equal(p.status, 'published', JSON.stringify(p));
    const entries = posted(w.emu('twitter'), { text: p.content });
    assert.equal(entries.length, 1, `${p.content} once on X`);
    assert.equal(p.platforms[0].platformPostId, entries[0]!.id, 'the post X made is the one recorded');
  }
  // Nothing was made of the create refused while the database was down.
  const drafts = (await w.h.request('GET', '/v1/posts?status=draft')).body.posts;
  assert.deepEqual(drafts.filter((p: { content: string }) => p.content.startsWith('while down')), []);

  // The pool and the notification connection are back: a new publish and a new scheduled post go out.
  const after = await publishNow(w.h, { content: unique('after'), platforms: target });
  const later = await w.h.request('POST', '/v1/posts', { body: { content: unique('later'), scheduledFor: new Date(Date.now() + 1_000).toISOString(), platforms: target } });
  assert.equal(later.status, 201, later.text);
  for (const p of await waitAllFinal(w.h, [after.id, later.body.id])) {
    assert.equal(p.status, 'published', JSON.stringify(p));
    assert.equal(posted(w.emu('twitter'), { text: p.content }).length, 1);
  }
});
