// Issue 2's figures: POST /v1/posts (scheduled, 3 targets, Idempotency-Key) against a bare Fastify
// endpoint inserting one row into the same database, and GET /v1/posts?limit=20 over 100,000 posts.
import { randomUUID } from 'node:crypto';
import type autocannon from 'autocannon';
import { spawnSync } from 'node:child_process';
import { openDatabase } from '../src/db/database.ts';
import { createEmulators } from '../src/sandbox/index.ts';
import { startEmulatorServer } from '../src/sandbox/server.ts';
import { emulatorEnv } from '../test/helpers/herald.ts';
import { MAIN, benchDatabase, connect, createKey, load, startHerald, startProcess, type LoadResult } from './lib.ts';

export interface ApiFigures {
  baseline: LoadResult;
  create: LoadResult;
  createShareOfBaseline: number;
  /** GET /v1/posts?limit=20 with 8 and 16 concurrent connections. */
  list: { connections8: LoadResult; connections16: LoadResult };
  storedPosts: number;
}

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

async function seedPosts(dataDir: string, apiKeyId: string, accountId: string, upTo: number): Promise<number> {
  const db = openDatabase({ dataDir, databaseUrl: null });
  try {
    const have = Number((await db.kysely.selectFrom('posts').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const base = Date.now() - 365 * 86_400_000;
    for (let i = have; i < upTo; i += 1000) {
      const n = Math.min(1000, upTo - i);
      const rows = Array.from({ length: n }, (_, j) => {
        const k = i + j;
        return {
          id: `post_seed${String(k).padStart(15, '0')}`,
          api_key_id: apiKeyId,
          content: `seeded post ${k}`,
          media_items: '[]',
          status: 'published' as const,
          scheduled_for: null,
          timezone: 'UTC',
          is_draft: 0,
          tags: '[]',
          post_settings: null,
          created_at: base + k * 60_000,
          updated_at: base + k * 60_000,
          published_at: base + k * 60_000,
        };
      });
      await db.write(async (trx) => {
        await trx.insertInto('posts').values(rows).execute();
        await trx
          .insertInto('post_targets')
          .values(
            rows.map((r) => ({
              id: r.id.replace('post_', 'tgt_'),
              post_id: r.id,
              api_key_id: apiKeyId,
              position: 0,
              platform: 'twitter',
              account_id: accountId,
              custom_content: null,
              custom_media: null,
              platform_specific_data: null,
              status: 'published' as const,
              platform_post_id: r.id.slice(9),
              platform_post_url: `https://x.com/bench/status/${r.id.slice(9)}`,
              error: null,
              error_code: null,
              attempt_id: null,
              attempt_started_at: null,
              lease_expires_at: null,
              next_attempt_at: null,
              checkpoint: null,
              published_at: r.published_at,
              original_platform_post_id: null,
              updated_at: r.updated_at,
            })),
          )
          .execute();
      });
    }
    return Number((await db.kysely.selectFrom('posts').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  } finally {
    await db.close();
  }
}

export async function benchApi(): Promise<ApiFigures> {
  const database = benchDatabase();
  const emulators = await startEmulatorServer(createEmulators());
  const env = { ...database.env, ...emulatorEnv(emulators), HERALD_ALLOW_PRIVATE_NETWORKS: 'true' };
  try {
    spawnSync(process.execPath, [MAIN, 'migrate'], { env: { ...process.env, ...env } });

    const baselineServer = await startProcess(['bench/baseline-server.ts'], env, /baseline listening on (http:\/\/\S+)/);
    const baseline = await load({
      url: `${baselineServer.url}/rows`,
      method: 'POST',
      duration: SECONDS,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'a row like a post', platforms: 3 }),
    });
    await baselineServer.stop();

    const key = createKey(env);
    const apiKeyId = (JSON.parse(spawnSync(process.execPath, [MAIN, 'keys', 'list', '--json'], { env: { ...process.env, ...env }, encoding: 'utf8' }).stdout) as { id: string }[])[0]!.id;
    const herald = await startHerald(env);
    try {
      const [x] = await connect(herald.url, key, 'twitter');
      const [threads] = await connect(herald.url, key, 'threads');
      const [page] = await connect(herald.url, key, 'facebook', { sandbox_pages: '1' });
      const body = JSON.stringify({
        content: 'Scheduled for next year, to three accounts.',
        scheduledFor: new Date(Date.now() + 365 * 86_400_000).toISOString(),
        platforms: [
          { platform: 'twitter', accountId: x },
          { platform: 'threads', accountId: threads },
          { platform: 'facebook', accountId: page },
        ],
      });
      const create = await load({
        url: `${herald.url}/v1/posts`,
        duration: SECONDS,
        requests: [
          {
            method: 'POST',
            setupRequest: (req: autocannon.Request) => ({
              ...req,
              body,
              headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
            }),
          },
        ],
      });
      const storedPosts = await seedPosts(database.dataDir, apiKeyId, x!, 100_000);
      // Let the checkpointer absorb the seeding, and warm the caches, before measuring reads.
      await new Promise((r) => setTimeout(r, 3000));
      const listOptions = { url: `${herald.url}/v1/posts?limit=20`, headers: { authorization: `Bearer ${key}` } };
      await load({ ...listOptions, duration: 2 });
      const connections8 = await load({ ...listOptions, duration: SECONDS, connections: 8 });
      const connections16 = await load({ ...listOptions, duration: SECONDS, connections: 16 });
      return { baseline, create, createShareOfBaseline: create.requestsPerSecond / baseline.requestsPerSecond, list: { connections8, connections16 }, storedPosts };
    } finally {
      await herald.stop();
    }
  } finally {
    await emulators.close();
    database.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await benchApi(), null, 2));
