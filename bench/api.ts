// API figures on one database: POST /v1/posts (scheduled, 3 targets, Idempotency-Key) against a bare
// Fastify endpoint inserting one row into the same database (bench/baseline-server.ts), and
// GET /v1/posts?limit=20 over 1,000,000 stored posts. Beside throughput and latency, which depend on how
// busy the machine is, each figure carries the CPU time the server process spent per request, which
// mostly does not.
import type autocannon from 'autocannon';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../src/db/database.ts';
import { MAIN, benchDatabase, scheduledCreate, cpuSeconds, createKey, load, load1, startEmulators, startHerald, startProcess, type BenchDatabase, type LoadResult } from './lib.ts';
import type { PostgresServer } from './postgres.ts';

export interface Measured extends LoadResult {
  /** CPU milliseconds the server process spent per request. */
  cpuMsPerRequest: number;
  load: number;
}

export interface ApiFigures {
  database: 'sqlite' | 'postgres';
  baseline: Measured;
  create: Measured;
  createShareOfBaseline: number;
  /** Create's CPU per request over the baseline's. */
  createCpuRatio: number;
  /** GET /v1/posts?limit=20 with 8 and 16 concurrent connections. */
  list: { connections8: Measured; connections16: Measured };
  storedPosts: number;
  seedSeconds: number;
}

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

/** Runs a load against a server process, measuring its CPU time too. */
async function measure(pid: number, options: autocannon.Options): Promise<Measured> {
  const cpu0 = cpuSeconds(pid);
  const r = await load(options);
  const cpu = cpuSeconds(pid) - cpu0;
  return { ...r, cpuMsPerRequest: Math.round((cpu / Math.max(1, r.requests)) * 1000 * 1000) / 1000, load: load1() };
}

/**
 * Seeds published posts with one X target each, straight into the database in one statement per table
 * (Herald is stopped meanwhile), a minute apart over the past two years. Returns how many posts exist.
 */
async function seedPosts(database: BenchDatabase, apiKeyId: string, accountId: string, upTo: number): Promise<number> {
  const db = openDatabase({ dataDir: database.dataDir, databaseUrl: database.databaseUrl });
  try {
    const count = async () => Number((await db.kysely.selectFrom('posts').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const have = await count();
    const n = upTo - have;
    if (n <= 0) return have;
    const base = Date.now() - 2 * 365 * 86_400_000;
    const w = db.writable;
    if (db.dialect === 'postgres') {
      await sql`
        insert into posts (id, api_key_id, content, media_items, status, scheduled_for, timezone, is_draft, tags, post_settings, created_at, updated_at, published_at, queued_slot)
        select 'post_seed' || lpad(g::text, 15, '0'), ${apiKeyId}, 'seeded post ' || g, '[]', 'published', null, 'UTC', 0, '[]', null,
               ${base}::bigint + g::bigint * 60000, ${base}::bigint + g::bigint * 60000, ${base}::bigint + g::bigint * 60000, null
        from generate_series(0, ${n - 1}::int) g`.execute(w);
      await sql`
        insert into post_targets (id, post_id, api_key_id, position, platform, account_id, status, platform_post_id, platform_post_url, published_at, updated_at)
        select 'tgt_seed' || lpad(g::text, 15, '0'), 'post_seed' || lpad(g::text, 15, '0'), ${apiKeyId}, 0, 'twitter', ${accountId}, 'published',
               lpad(g::text, 15, '0'), 'https://x.com/bench/status/' || lpad(g::text, 15, '0'), ${base}::bigint + g::bigint * 60000, ${base}::bigint + g::bigint * 60000
        from generate_series(0, ${n - 1}::int) g`.execute(w);
      await sql`analyze posts`.execute(w);
      await sql`analyze post_targets`.execute(w);
    } else {
      await sql`
        with recursive g(n) as (select 0 union all select n + 1 from g where n < ${n - 1})
        insert into posts (id, api_key_id, content, media_items, status, scheduled_for, timezone, is_draft, tags, post_settings, created_at, updated_at, published_at, queued_slot)
        select 'post_seed' || printf('%015d', n), ${apiKeyId}, 'seeded post ' || n, '[]', 'published', null, 'UTC', 0, '[]', null,
               ${base} + n * 60000, ${base} + n * 60000, ${base} + n * 60000, null
        from g`.execute(w);
      await sql`
        with recursive g(n) as (select 0 union all select n + 1 from g where n < ${n - 1})
        insert into post_targets (id, post_id, api_key_id, position, platform, account_id, status, platform_post_id, platform_post_url, published_at, updated_at)
        select 'tgt_seed' || printf('%015d', n), 'post_seed' || printf('%015d', n), ${apiKeyId}, 0, 'twitter', ${accountId}, 'published',
               printf('%015d', n), 'https://x.com/bench/status/' || printf('%015d', n), ${base} + n * 60000, ${base} + n * 60000
        from g`.execute(w);
      await sql`pragma wal_checkpoint(truncate)`.execute(w);
    }
    return await count();
  } finally {
    await db.close();
  }
}

export async function benchApi(options: { postgres?: PostgresServer; storedPosts?: number } = {}): Promise<ApiFigures> {
  const database = await benchDatabase(options.postgres);
  const emulators = await startEmulators();
  const env = { ...database.env, ...emulators.env, HERALD_ALLOW_PRIVATE_NETWORKS: 'true' };
  try {
    spawnSync(process.execPath, [MAIN, 'migrate'], { env: { ...process.env, ...env } });

    const baselineServer = await startProcess([join(import.meta.dirname, 'baseline-server.ts')], env, /baseline listening on (http:\/\/\S+)/);
    const baseline = await measure(baselineServer.child.pid!, {
      url: `${baselineServer.url}/rows`,
      method: 'POST',
      duration: SECONDS,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'a row like a post', platforms: 3 }),
    });
    await baselineServer.stop();

    const key = createKey(env);
    const apiKeyId = (JSON.parse(spawnSync(process.execPath, [MAIN, 'keys', 'list', '--json'], { env: { ...process.env, ...env }, encoding: 'utf8' }).stdout) as { id: string }[])[0]!.id;
    let herald = await startHerald(env);
    let x: string;
    let create: Measured;
    try {
      const created = await scheduledCreate(herald.url, key);
      x = created.twitter;
      const requests = [
        {
          method: 'POST' as const,
          setupRequest: created.setupRequest,
        },
      ];
      // A short warm-up (JIT, caches, connections), then the measured run.
      await load({ url: `${herald.url}/v1/posts`, duration: 2, requests });
      create = await measure(herald.child.pid!, { url: `${herald.url}/v1/posts`, duration: SECONDS, requests });
    } finally {
      await herald.stop();
    }

    const seedStart = Date.now();
    const storedPosts = await seedPosts(database, apiKeyId, x, options.storedPosts ?? 1_000_000);
    const seedSeconds = (Date.now() - seedStart) / 1000;
    herald = await startHerald(env);
    try {
      const listOptions = { url: `${herald.url}/v1/posts?limit=20`, headers: { authorization: `Bearer ${key}` } };
      await load({ ...listOptions, duration: 3, connections: 8 });
      const connections8 = await measure(herald.child.pid!, { ...listOptions, duration: SECONDS, connections: 8 });
      const connections16 = await measure(herald.child.pid!, { ...listOptions, duration: SECONDS, connections: 16 });
      return {
        database: database.kind,
        baseline,
        create,
        createShareOfBaseline: create.requestsPerSecond / baseline.requestsPerSecond,
        createCpuRatio: create.cpuMsPerRequest / baseline.cpuMsPerRequest,
        list: { connections8, connections16 },
        storedPosts,
        seedSeconds,
      };
    } finally {
      await herald.stop();
    }
  } finally {
    await emulators.stop();
    await database.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { startPostgres } = await import('./postgres.ts');
  const postgres = process.argv[2] === 'postgres' ? await startPostgres() : undefined;
  try {
    console.log(JSON.stringify(await benchApi({ postgres, storedPosts: Number(process.env.BENCH_STORED_POSTS ?? 1_000_000) }), null, 2));
  } finally {
    await postgres?.stop();
  }
}
