// Crash safety, as an operator would see it: real `herald start` processes publishing 50 publishNow and
// 50 near-future scheduled posts through slowed emulators are killed with SIGKILL mid-way, started again,
// and then every post must end final, every scheduled post must have fired, and no platform may hold a
// post twice. On PostgreSQL the restart is one API process and two worker processes.
import { spawnSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase } from '../../src/db/database.ts';
import { createEmulators } from '../../src/sandbox/index.ts';
import type { Emulator } from '../../src/sandbox/kit/emulator.ts';
import { startEmulatorServer, type EmulatorServer } from '../../src/sandbox/server.ts';
import { approveConsent } from '../helpers/platform.ts';
import { createTestDatabase, emulatorEnv, usingPostgres, type TestDatabase } from '../helpers/herald.ts';
import { HERALD_MAIN, processEnv, startHeraldProcess, type HeraldProcess } from '../helpers/process.ts';
import { until } from '../helpers/wait.ts';

const CALLBACK = 'https://app.example.com/cb';
const POSTS_EACH = 50;

let database: TestDatabase;
let server: EmulatorServer;
let emulators: Emulator[];
let env: Record<string, string>;
let apiKey: string;
const running: HeraldProcess[] = [];

async function startProcess(role: 'all' | 'api' | 'worker'): Promise<HeraldProcess> {
  const proc = await startHeraldProcess(env, role);
  running.push(proc);
  return proc;
}

async function killAll(): Promise<void> {
  await Promise.all(running.splice(0).map((proc) => proc.kill()));
}

async function api(url: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as any };
}

async function connect(url: string, platform: string, user: string): Promise<string> {
  const start = await api(url, 'GET', `/v1/connect/${platform}?redirect_url=${encodeURIComponent(CALLBACK)}`);
  const { code, state } = await approveConsent(start.body.authUrl, { sandbox_user: user, sandbox_pages: '1' });
  const done = await api(url, 'POST', `/v1/connect/${platform}`, { code, state, redirect_url: CALLBACK });
  assert.equal(done.status, 200, JSON.stringify(done.body));
  return done.body.accountId;
}

before(async () => {
  database = await createTestDatabase();
  emulators = createEmulators({ processingMs: 100 });
  server = await startEmulatorServer(emulators);
  env = processEnv(database, {
    ...emulatorEnv(server),
    HERALD_ALLOW_PRIVATE_NETWORKS: 'true',
    HERALD_PUBLISH_WAIT_MS: '0',
    HERALD_PUBLISH_LEASE_MS: '3000',
    HERALD_PLATFORM_TIMEOUT_MS: '5000',
    HERALD_RATE_LIMIT_PER_MINUTE: '100000',
  });
  const created = spawnSync(process.execPath, [HERALD_MAIN, 'keys', 'create', '--name', 'crash', '--json'], { env, encoding: 'utf8' });
  assert.equal(created.status, 0, created.stderr);
  apiKey = JSON.parse(created.stdout).key;
});

after(async () => {
  await killAll();
  await server.close();
  await database.drop();
});

test(`kill -9 mid-way: every post ends final, nothing is posted twice (${usingPostgres ? 'PostgreSQL, API + 2 workers' : 'SQLite'})`, { timeout: 240_000 }, async () => {
  const first = await startProcess('all');
  const targets = [
    { platform: 'twitter', accountId: await connect(first.url, 'twitter', 'crash_a') },
    { platform: 'twitter', accountId: await connect(first.url, 'twitter', 'crash_b') },
    { platform: 'threads', accountId: await connect(first.url, 'threads', 'crash_t') },
    { platform: 'facebook', accountId: await connect(first.url, 'facebook', 'crash_f') },
  ];
  // Slow platforms keep many attempts in flight when the kill comes.
  for (const e of emulators) e.latencyMs = 400;

  const ids: { id: string; scheduled: boolean }[] = [];
  const create = async (i: number, scheduled: boolean) => {
    const body = {
      content: `crash ${scheduled ? 'scheduled' : 'now'} ${i}`,
      platforms: [targets[i % 2]!, targets[2 + (i % 2)]!],
      // Due a few seconds after this very request is sent: its own time, so that however late a loaded
      // machine delivers it, it names a future time (the scheduled posts are created one at a time).
      ...(scheduled ? { scheduledFor: new Date(Date.now() + 3_000 + (i % 10) * 300).toISOString() } : { publishNow: true }),
    };
    const res = await api(first.url, 'POST', '/v1/posts', body);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    ids.push({ id: res.body.id, scheduled });
  };
  for (let i = 0; i < POSTS_EACH; i++) await create(i, true);
  await Promise.all(Array.from({ length: POSTS_EACH }, (_, i) => create(i, false)));
  // Kill while attempts are in flight: watch the database (a second connection) for targets mid-call.
  const watcher = openDatabase({ dataDir: database.dataDir, databaseUrl: database.databaseUrl });
  await until(
    'targets in flight to kill',
    async () => {
      const mid = await watcher.kysely.selectFrom('post_targets').select((eb) => eb.fn.countAll<number>().as('n')).where('status', '=', 'publishing').executeTakeFirstOrThrow();
      return Number(mid.n) >= 3;
    },
    { everyMs: 10 },
  ).catch(() => {}); // the assertions below say what the kill found
  await killAll();
  await watcher.close();

  const made = emulators.reduce((n, e) => n + e.ledger.list().length, 0);
  assert.ok(made < POSTS_EACH * 4, `the kill came mid-way (${made} of ${POSTS_EACH * 4} target posts made)`);
  // Attempts were cut off mid-call: their targets are left `publishing`, to be reconciled.
  const db = openDatabase({ dataDir: database.dataDir, databaseUrl: database.databaseUrl });
  const states = await db.kysely.selectFrom('post_targets').select(['status', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('status').execute();
  await db.close();
  const count = (s: string) => Number(states.find((r) => r.status === s)?.n ?? 0);
  assert.ok(count('publishing') > 0, `targets in flight at the kill: ${JSON.stringify(states)}`);

  const restarted = usingPostgres ? await Promise.all([startProcess('api'), startProcess('worker'), startProcess('worker')]) : [await startProcess('all')];
  const url = restarted[0]!.url;
  const deadline = Date.now() + 150_000;
  let posts: any[] = [];
  for (;;) {
    const page = await api(url, 'GET', '/v1/posts?limit=100');
    posts = page.body.posts;
    if (posts.length === 2 * POSTS_EACH && posts.every((p) => ['published', 'partial', 'failed'].includes(p.status))) break;
    if (Date.now() > deadline) {
      const open = posts.filter((p) => !['published', 'partial', 'failed'].includes(p.status));
      assert.fail(`${open.length} posts not final: ${JSON.stringify(open.slice(0, 3))}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }

  const byId = new Map(posts.map((p) => [p.id, p]));
  for (const { id, scheduled } of ids) {
    const post = byId.get(id);
    assert.ok(post, `post ${id} still exists`);
    for (const t of post.platforms) {
      assert.equal(t.status, 'published', `${scheduled ? 'scheduled' : 'publishNow'} ${post.content} on ${t.platform}: ${JSON.stringify(t)}`);
    }
  }
  // No platform holds any post twice, and every published target names the post the platform made.
  for (const e of emulators) {
    const seen = new Map<string, number>();
    for (const entry of e.ledger.list()) {
      if (!entry.text.startsWith('crash ')) continue;
      const k = `${entry.accountId}|${entry.text}`;
      seen.set(k, (seen.get(k) ?? 0) + 1);
    }
    const dupes = [...seen].filter(([, n]) => n > 1);
    assert.deepEqual(dupes, [], `${e.name} holds duplicates`);
  }
  const platformIds = new Set(emulators.flatMap((e) => e.ledger.list().map((entry) => entry.id)));
  for (const p of posts) for (const t of p.platforms) assert.ok(platformIds.has(t.platformPostId), `${t.platform} ${t.platformPostId} exists on the platform`);
});
