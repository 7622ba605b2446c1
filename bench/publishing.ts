// Publishing figures: publishNow to every registered platform at once against the slowest single
// target (issues 4 and 14), and posts due at scheduled times, published by one Herald process (SQLite)
// or by one API process and 1, 2 or 4 worker processes (PostgreSQL), with the emulators in a process of
// their own answering after a delay.
//
// The due posts are seeded first and timed afterwards, so a slow machine cannot make a post due before
// the benchmark starts watching: one post is created through the API (the exact rows Herald writes for
// a scheduled post), cloned N times straight into the database far in the future, and then every clone
// is moved, in one transaction, to its due time counted from the end of the seeding (on PostgreSQL that
// transaction also sends the notification a create would send, so sleeping workers wake for it).
import { randomUUID } from 'node:crypto';
import { sql, type Insertable } from 'kysely';
import type { JobsTable, PostTargetsTable, PostsTable } from '../src/db/schema.ts';
import { openDatabase, type Db } from '../src/db/database.ts';
import { duePayload, JOBS_CHANNEL } from '../src/jobs/pg-signals.ts';
import { newId } from '../src/lib/ids.ts';
import { PLATFORMS, descriptorOf, type Platform } from '../src/platforms/registry.ts';
import { SANDBOX_APP } from '../src/sandbox/kit/emulator.ts';
import { sandboxUser } from '../src/sandbox/pinterest/users.ts';
import { approveConsent } from '../test/helpers/platform.ts';
import {
  api,
  benchDatabase,
  connect,
  cpuSeconds,
  createKey,
  load1,
  memoryMb,
  percentile,
  serverCpuSeconds,
  startEmulators,
  startHerald,
  type ServerProcess,
} from './lib.ts';
import type { PostgresServer } from './postgres.ts';

export interface FanOutFigures {
  /** The platforms published to, in order (every registered platform). */
  platforms: string[];
  slowestSingleMs: number;
  /** The platform whose single publish took longest. */
  slowest: string;
  singleMs: Record<string, number>;
  /** Every platform in one request (median). */
  allMs: number;
  /** Each all-at-once run, in order. */
  allRunsMs: number[];
  ratio: number;
  /** Platform calls (all emulators) of each platform alone, and of all at once (medians). */
  singleCalls: Record<string, number>;
  allCalls: number;
  /** Herald's CPU time for one publishNow request (medians, 10 ms resolution). */
  singleCpuMs: Record<string, number>;
  allCpuMs: number;
  load: number;
}

export interface DueFigures {
  database: 'sqlite' | 'postgres';
  /** Worker processes (0: one process doing everything, SQLite). */
  workers: number;
  /** HERALD_WORKER_CONCURRENCY of the processes that publish. */
  concurrency: number;
  targets: number;
  /** Over how long the due times were spread (0: all due at the same moment). */
  spreadMs: number;
  platformLatencyMs: number;
  /** From the first due time to the last target published. */
  drainSeconds: number;
  /** Targets published per second from the first due time to the last publish. */
  targetsPerSecond: number;
  latenessP50Ms: number;
  latenessP99Ms: number;
  latenessMaxMs: number;
  /** CPU seconds per 1,000 targets: Herald processes (workers), and the database server. */
  heraldCpuPer1000: number;
  databaseCpuPer1000: number | null;
  /** Statements the database ran per target (PostgreSQL, pg_stat_statements). */
  statementsPerTarget: number | null;
  topStatements: { calls: number; query: string }[];
  /** Largest resident set of a worker at the end, MB. */
  workerRssMb: number;
  load: { before: number; after: number };
}

const median = (xs: number[]) => percentile(xs, 50);

/**
 * How each platform joins the fan-out (as test/e2e/fan-out.test.ts connects them): the consent page's
 * sandbox choices, Mastodon's instance (the emulator's root), Bluesky's app-password sign-in on the
 * emulated PDS, and the settings a target needs (YouTube's title, Pinterest's board).
 */
interface FanOutRecipe {
  consent?: Record<string, string>;
  instance?: boolean;
  /** Bluesky: the handle to sign in as (the emulator makes the account). */
  handle?: string;
  settings?(user: string): Record<string, unknown>;
  /**
   * A cap that a handful of posts a minute would meet (TikTok: 6 a minute and 15 a day per account):
   * one account per post then, so the cap stays out of the figures.
   */
  accountPerPost?: boolean;
}

export const FAN_OUT_RECIPES: Record<Platform, FanOutRecipe> = {
  twitter: {},
  facebook: { consent: { sandbox_pages: '1', sandbox_user: 'bench_fb' } },
  instagram: { consent: { sandbox_pages: '1', sandbox_user: 'bench_ig' } },
  threads: {},
  tiktok: { accountPerPost: true },
  linkedin: {},
  youtube: { settings: () => ({ title: 'Everywhere at once', madeForKids: false }) },
  bluesky: { handle: 'bench-fanout.bsky.test' },
  // The emulator's boards are derived from the user's name, as Pinterest's GET /v5/boards would list them.
  pinterest: { settings: (user) => ({ boardId: sandboxUser(user, SANDBOX_APP.clientId, { pinner: false, systemUser: false, now: 0 }).boards[0]!.id, title: 'Everywhere' }) },
  mastodon: { instance: true },
};

export async function connectFanOut(url: string, key: string, emulatorsUrl: string, platform: Platform, user: string): Promise<string> {
  const recipe = FAN_OUT_RECIPES[platform];
  const root = `${emulatorsUrl}/${descriptorOf(platform).sandbox.mount}`;
  if (recipe.handle) {
    const res = await api(url, key, 'POST', `/v1/connect/${platform}`, { identifier: recipe.handle, appPassword: 'abcd-efgh-ijkl-mnop', service: root });
    if (res.status !== 200) throw new Error(`connect ${platform}: ${JSON.stringify(res.body)}`);
    return res.body.accountId;
  }
  const redirect = 'https://bench.example.com/cb';
  const instance = recipe.instance ? `&instance=${encodeURIComponent(root)}` : '';
  const start = await api(url, key, 'GET', `/v1/connect/${platform}?redirect_url=${encodeURIComponent(redirect)}${instance}`);
  if (start.status !== 200) throw new Error(`connect ${platform}: ${JSON.stringify(start.body)}`);
  const { code, state } = await approveConsent(start.body.authUrl, recipe.consent ?? { sandbox_user: user });
  const done = await api(url, key, 'POST', `/v1/connect/${platform}`, { code, state, redirect_url: redirect });
  if (done.status !== 200) throw new Error(`connect ${platform}: ${JSON.stringify(done.body)}`);
  return done.body.accounts[0].accountId;
}

/**
 * publishNow to each platform alone (median of `runs` posts each), then to every registered platform in
 * one request (median of `runs`), the emulators answering every call after 100 ms. One video for all, as
 * YouTube publishes nothing else (padded past LinkedIn's 75 KB minimum, as the fan-out test does).
 */
export async function benchFanOut(runs = 5): Promise<FanOutFigures> {
  const database = await benchDatabase();
  const emulators = await startEmulators();
  const env = { ...database.env, ...emulators.env, HERALD_ALLOW_PRIVATE_NETWORKS: 'true' };
  const key = createKey(env);
  const herald = await startHerald(env);
  try {
    const video = [{ type: 'video', url: `${emulators.url}/media/sample.mp4?bytes=100000` }];
    const accounts = new Map<Platform, string[]>();
    for (const p of PLATFORMS) {
      const ids: string[] = [];
      const user = (i: number) => `bench_${p}${FAN_OUT_RECIPES[p].accountPerPost ? `_${i}` : ''}`;
      for (let i = 0; i < (FAN_OUT_RECIPES[p].accountPerPost ? 2 * runs + 1 : 1); i++) ids.push(await connectFanOut(herald.url, key, emulators.url, p, user(i)));
      accounts.set(p, ids);
    }
    await emulators.setLatency(100);

    const target = (platform: Platform, n: number) => {
      const ids = accounts.get(platform)!;
      const settings = FAN_OUT_RECIPES[platform].settings?.(`bench_${platform}`);
      return { platform, accountId: ids[Math.min(n, ids.length - 1)]!, ...(settings ? { platformSpecificData: settings } : {}) };
    };
    const mounts = [...new Set(PLATFORMS.map((p) => descriptorOf(p).sandbox.mount))];
    const callCounts = async () => {
      let n = 0;
      for (const m of mounts) n += ((await (await fetch(`${emulators.url}/${m}/__sandbox/calls`)).json()) as { calls: unknown[] }).calls.length;
      return n;
    };
    /** One publishNow: its response time, the platform calls it made, and Herald's CPU for it. */
    const publish = async (platforms: readonly Platform[], n: number) => {
      const calls0 = await callCounts();
      const cpu0 = cpuSeconds(herald.child.pid!);
      const started = performance.now();
      const res = await api(herald.url, key, 'POST', '/v1/posts', {
        content: `fan-out ${randomUUID()}`,
        mediaItems: video,
        tiktokSettings: { privacyLevel: 'SELF_ONLY' },
        publishNow: true,
        platforms: platforms.map((p) => target(p, n)),
      });
      const ms = performance.now() - started;
      const cpuMs = (cpuSeconds(herald.child.pid!) - cpu0) * 1000;
      if (res.body.status !== 'published') throw new Error(`not published: ${JSON.stringify(res.body)}`);
      return { ms, cpuMs, calls: (await callCounts()) - calls0 };
    };
    // Rounds interleaved (each platform alone, then all at once) so that a busy moment of the shared
    // machine falls on both kinds alike.
    const singles = new Map<Platform, Awaited<ReturnType<typeof publish>>[]>(PLATFORMS.map((p) => [p, []]));
    const alls: Awaited<ReturnType<typeof publish>>[] = [];
    for (let i = 0; i < runs; i++) {
      for (const p of PLATFORMS) singles.get(p)!.push(await publish([p], i));
      alls.push(await publish(PLATFORMS, runs + i));
    }
    const singleMs: Record<string, number> = {};
    const singleCalls: Record<string, number> = {};
    for (const [p, rs] of singles) {
      singleMs[p] = median(rs.map((r) => r.ms));
      singleCalls[p] = median(rs.map((r) => r.calls));
    }
    const [slowest, slowestSingleMs] = Object.entries(singleMs).reduce((a, b) => (b[1] > a[1] ? b : a));
    const allMs = median(alls.map((r) => r.ms));
    return {
      platforms: [...PLATFORMS],
      slowest,
      slowestSingleMs,
      singleMs,
      allMs,
      allRunsMs: alls.map((r) => r.ms),
      ratio: allMs / slowestSingleMs,
      singleCalls,
      allCalls: median(alls.map((r) => r.calls)),
      singleCpuMs: Object.fromEntries([...singles].map(([p, rs]) => [p, median(rs.map((r) => r.cpuMs))])),
      allCpuMs: median(alls.map((r) => r.cpuMs)),
      load: load1(),
    };
  } finally {
    await herald.stop();
    await emulators.stop();
    await database.drop();
  }
}

/** Far enough ahead that nothing seeded comes due before it is timed. */
const PARKED_MS = 10 * 365 * 86_400_000;

/**
 * Clones the template post (created through the API) `count` times, parked far ahead; returns the ids.
 * Target accounts rotate over `accounts`. Due offsets are kept in `scheduled_for - parkedAt`.
 */
async function seedDuePosts(db: Db, templateId: string, accounts: string[], count: number, spreadMs: number, parkedAt: number): Promise<void> {
  const post = await db.kysely.selectFrom('posts').selectAll().where('id', '=', templateId).executeTakeFirstOrThrow();
  const [target] = await db.kysely.selectFrom('post_targets').selectAll().where('post_id', '=', templateId).execute();
  for (let start = 0; start < count; start += 500) {
    const n = Math.min(500, count - start);
    const posts: Insertable<PostsTable>[] = [];
    const targets: Insertable<PostTargetsTable>[] = [];
    const jobs: Insertable<JobsTable>[] = [];
    for (let i = start; i < start + n; i++) {
      const id = newId('post');
      const due = parkedAt + Math.floor((i / count) * spreadMs);
      const { version: _v, ...rest } = post;
      posts.push({ ...rest, id, content: `due ${i}`, scheduled_for: due, created_at: post.created_at + i, updated_at: post.created_at + i });
      const { attempts: _a, needs_reconcile: _n, holds_limit_slot: _h, edit_count: _e, comment_attempts: _c, comment_needs_reconcile: _cn, ...t } = target!;
      targets.push({ ...t, id: newId('tgt'), post_id: id, account_id: accounts[i % accounts.length]!, next_attempt_at: due });
      jobs.push({ id: newId('job'), queue: 'publish-post', payload: JSON.stringify({ postId: id }), run_at: due, state: 'queued', locked_until: null, created_at: post.created_at });
    }
    await db.write(async (trx) => {
      await trx.insertInto('posts').values(posts).execute();
      await trx.insertInto('post_targets').values(targets).execute();
      await trx.insertInto('jobs').values(jobs).execute();
    });
  }
  await db.write(async (trx) => {
    await trx.deleteFrom('jobs').where('payload', '=', JSON.stringify({ postId: templateId })).execute();
    await trx.deleteFrom('posts').where('id', '=', templateId).execute();
  });
}

/** Moves every parked post to `firstDue` + its offset, in one transaction (waking PostgreSQL workers). */
async function timeDuePosts(db: Db, parkedAt: number, firstDue: number): Promise<void> {
  const shift = firstDue - parkedAt;
  await db.write(async (trx) => {
    await trx.updateTable('posts').set((eb) => ({ scheduled_for: eb('scheduled_for', '+', shift) })).where('scheduled_for', '>=', parkedAt).execute();
    await trx.updateTable('post_targets').set((eb) => ({ next_attempt_at: eb('next_attempt_at', '+', shift) })).where('status', '=', 'pending').where('next_attempt_at', '>=', parkedAt).execute();
    await trx.updateTable('jobs').set((eb) => ({ run_at: eb('run_at', '+', shift) })).where('queue', '=', 'publish-post').where('run_at', '>=', parkedAt).execute();
    if (db.dialect === 'postgres') await sql`select pg_notify(${JOBS_CHANNEL}, ${duePayload(new Map([['publish-post', firstDue]]))})`.execute(trx);
  });
}

export interface DueOptions {
  /** PostgreSQL server; without it, SQLite with one process. */
  postgres?: PostgresServer;
  workers?: number;
  targets?: number;
  spreadMs?: number;
  platformLatencyMs?: number;
  /** Facebook Pages the targets rotate over (Pages have no per-account publishing cap). */
  pages?: number;
  /** Extra settings for the worker processes. */
  workerEnv?: Record<string, string>;
}

export async function benchDue(options: DueOptions = {}): Promise<DueFigures> {
  const targets = options.targets ?? 10_000;
  const spreadMs = options.spreadMs ?? 60_000;
  const latency = options.platformLatencyMs ?? 100;
  const workers = options.postgres ? (options.workers ?? 1) : 0;
  const database = await benchDatabase(options.postgres);
  const emulators = await startEmulators();
  const env = { ...database.env, ...emulators.env, HERALD_ALLOW_PRIVATE_NETWORKS: 'true' };
  const key = createKey(env);
  const front = await startHerald(env, ['--role', workers > 0 ? 'api' : 'all']);
  const procs: ServerProcess[] = [];
  const db = openDatabase({ dataDir: database.dataDir, databaseUrl: database.databaseUrl });
  try {
    const pageIds = await connect(front.url, key, 'facebook', { sandbox_pages: String(options.pages ?? 20) });
    const template = await api(front.url, key, 'POST', '/v1/posts', {
      content: 'template',
      scheduledFor: new Date(Date.now() + 365 * 86_400_000).toISOString(),
      platforms: [{ platform: 'facebook', accountId: pageIds[0] }],
    });
    if (template.status !== 201) throw new Error(JSON.stringify(template.body));
    const parkedAt = Date.now() + PARKED_MS + 86_400_000;
    await seedDuePosts(db, template.body.id, pageIds, targets, spreadMs, parkedAt);
    for (let i = 0; i < workers; i++) procs.push(await startHerald({ ...env, ...options.workerEnv }, ['--role', 'worker']));
    const heraldPids = workers > 0 ? procs.map((p) => p.child.pid!) : [front.child.pid!];
    await emulators.setLatency(latency);

    const cpu0 = heraldPids.reduce((s, pid) => s + cpuSeconds(pid), 0);
    // This run's database's backends only: the machine may run other servers (and other benchmarks' databases).
    const pgMatch = options.postgres ? new RegExp(`^postgres: .*${database.name}`) : null;
    const dbCpu0 = pgMatch ? serverCpuSeconds(pgMatch) : 0;
    if (options.postgres) await options.postgres.resetStatements();
    const loadBefore = load1();
    // Everything seeded and every process running: the first post comes due two seconds from now.
    const firstDue = Date.now() + 2_000;
    await timeDuePosts(db, parkedAt, firstDue);

    const deadline = firstDue + spreadMs + 600_000;
    for (;;) {
      const open = await db.kysely.selectFrom('post_targets').select((eb) => eb.fn.countAll<number>().as('n')).where('status', 'in', ['pending', 'publishing']).executeTakeFirstOrThrow();
      if (Number(open.n) === 0) break;
      if (Date.now() > deadline) throw new Error(`${open.n} targets still open`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const cpu = heraldPids.reduce((s, pid) => s + cpuSeconds(pid), 0) - cpu0;
    const dbCpu = pgMatch ? serverCpuSeconds(pgMatch) - dbCpu0 : null;
    const statements = options.postgres ? await options.postgres.statements(database.name!) : null;
    const loadAfter = load1();
    const rows = await db.kysely
      .selectFrom('post_targets')
      .innerJoin('posts', 'posts.id', 'post_targets.post_id')
      .select(['posts.scheduled_for', 'post_targets.attempt_started_at', 'post_targets.published_at', 'post_targets.status'])
      .execute();
    const failed = rows.filter((r) => r.status !== 'published').length;
    if (failed > 0) throw new Error(`${failed} targets did not publish`);
    const published = await emulators.published();
    if (published !== targets) throw new Error(`the emulators hold ${published} posts for ${targets} targets`);
    const lateness = rows.map((r) => r.attempt_started_at! - r.scheduled_for!);
    const lastPublished = Math.max(...rows.map((r) => r.published_at!));
    const drainSeconds = (lastPublished - firstDue) / 1000;
    const rss = await Promise.all((workers > 0 ? procs : [front]).map((p) => memoryMb(p.url).then((m) => m.rss, () => NaN)));
    return {
      database: database.kind,
      workers,
      concurrency: Number(options.workerEnv?.HERALD_WORKER_CONCURRENCY ?? 64),
      targets,
      spreadMs,
      platformLatencyMs: latency,
      drainSeconds,
      targetsPerSecond: targets / drainSeconds,
      latenessP50Ms: percentile(lateness, 50),
      latenessP99Ms: percentile(lateness, 99),
      latenessMaxMs: Math.max(...lateness),
      heraldCpuPer1000: (cpu / targets) * 1000,
      databaseCpuPer1000: dbCpu === null ? null : (dbCpu / targets) * 1000,
      statementsPerTarget: statements ? statements.calls / targets : null,
      topStatements: statements?.top ?? [],
      workerRssMb: Math.round(Math.max(...rss)),
      load: { before: loadBefore, after: loadAfter },
    };
  } finally {
    await db.close();
    for (const p of procs) await p.stop();
    await front.stop();
    await emulators.stop();
    await database.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { startPostgres } = await import('./postgres.ts');
  const which = process.argv[2] ?? 'due';
  if (which === 'fanout') console.log(JSON.stringify(await benchFanOut(), null, 2));
  else {
    const postgres = process.env.BENCH_SQLITE ? undefined : await startPostgres();
    try {
      const figures = await benchDue({
        postgres,
        workers: Number(process.env.BENCH_WORKERS ?? 1),
        targets: Number(process.env.BENCH_TARGETS ?? 10_000),
        spreadMs: Number(process.env.BENCH_SPREAD_MS ?? 60_000),
        platformLatencyMs: Number(process.env.BENCH_LATENCY_MS ?? 100),
        workerEnv: process.env.BENCH_WORKER_ENV ? JSON.parse(process.env.BENCH_WORKER_ENV) : undefined,
      });
      console.log(JSON.stringify(figures, null, 2));
    } finally {
      await postgres?.stop();
    }
  }
}
