// Issue 4's figures: publishNow to five targets against the slowest single target (emulators answering
// after 100 ms), and 10,000 posts due within one minute (time to publish them all, lateness, memory).
import { randomUUID } from 'node:crypto';
import { openDatabase } from '../src/db/database.ts';
import { createEmulators } from '../src/sandbox/index.ts';
import type { Emulator } from '../src/sandbox/kit/emulator.ts';
import { startEmulatorServer, type EmulatorServer } from '../src/sandbox/server.ts';
import { emulatorEnv } from '../test/helpers/herald.ts';
import { api, benchDatabase, connect, createKey, memoryMb, percentile, startHerald } from './lib.ts';

export interface FanOutFigures {
  slowestSingleMs: number;
  singleMs: Record<string, number>;
  allFiveMs: number;
  ratio: number;
}

export interface DueFigures {
  posts: number;
  /** From the first due time to the last target published. */
  drainSeconds: number;
  latenessP50Ms: number;
  latenessP99Ms: number;
  latenessMaxMs: number;
  /** Samples every 5 s from before the creates to after the drain: resident set and V8 heap in use. */
  memory: { atSeconds: number; rssMb: number; heapUsedMb: number }[];
}

const median = (xs: number[]) => percentile(xs, 50);

async function world(latencyMs: number): Promise<{ server: EmulatorServer; emulators: Emulator[] }> {
  const emulators = createEmulators({ processingMs: 0 });
  for (const e of emulators) e.latencyMs = latencyMs;
  return { server: await startEmulatorServer(emulators), emulators };
}

export async function benchFanOut(runs = 5): Promise<FanOutFigures> {
  const database = benchDatabase();
  const { server, emulators } = await world(0);
  const env = { ...database.env, ...emulatorEnv(server), HERALD_ALLOW_PRIVATE_NETWORKS: 'true' };
  const key = createKey(env);
  const herald = await startHerald(env);
  try {
    const image = [{ type: 'image', url: `${server.mediaUrl}/sample.jpg` }];
    const accounts = {
      twitter: (await connect(herald.url, key, 'twitter'))[0]!,
      facebook: (await connect(herald.url, key, 'facebook', { sandbox_pages: '1' }))[0]!,
      instagram: (await connect(herald.url, key, 'instagram', { sandbox_pages: '1', sandbox_user: 'ig' }))[0]!,
      threads: (await connect(herald.url, key, 'threads'))[0]!,
    };
    // TikTok allows 6 posts a minute per account: one account per post keeps the limit out of the figures.
    const tiktok: string[] = [];
    for (let i = 0; i < 2 * runs + 1; i++) tiktok.push((await connect(herald.url, key, 'tiktok', { sandbox_user: `bench_tt_${i}` }))[0]!);
    for (const e of emulators) e.latencyMs = 100;

    const target = (platform: string, n: number) => ({ platform, accountId: platform === 'tiktok' ? tiktok[n]! : accounts[platform as keyof typeof accounts] });
    const publish = async (platforms: string[], n: number): Promise<number> => {
      const started = performance.now();
      const res = await api(herald.url, key, 'POST', '/v1/posts', {
        content: `fan-out ${randomUUID()}`,
        mediaItems: image,
        tiktokSettings: { privacyLevel: 'SELF_ONLY' },
        publishNow: true,
        platforms: platforms.map((p) => target(p, n)),
      });
      const took = performance.now() - started;
      if (res.body.status !== 'published') throw new Error(`not published: ${JSON.stringify(res.body)}`);
      return took;
    };
    const platforms = ['twitter', 'facebook', 'instagram', 'threads', 'tiktok'];
    const singleMs: Record<string, number> = {};
    for (const p of platforms) {
      const times: number[] = [];
      for (let i = 0; i < runs; i++) times.push(await publish([p], i));
      singleMs[p] = median(times);
    }
    const all: number[] = [];
    for (let i = 0; i < runs; i++) all.push(await publish(platforms, runs + i));
    const slowestSingleMs = Math.max(...Object.values(singleMs));
    const allFiveMs = median(all);
    return { slowestSingleMs, singleMs, allFiveMs, ratio: allFiveMs / slowestSingleMs };
  } finally {
    await herald.stop();
    await server.close();
    database.drop();
  }
}

export async function benchDueInOneMinute(posts = 10_000, pages = 20): Promise<DueFigures> {
  const database = benchDatabase();
  const { server } = await world(0);
  const env = { ...database.env, ...emulatorEnv(server), HERALD_ALLOW_PRIVATE_NETWORKS: 'true' };
  const key = createKey(env);
  const herald = await startHerald(env);
  const memory: DueFigures['memory'] = [];
  const t0 = Date.now();
  const sample = () =>
    memoryMb(herald.url).then(
      (m) => void memory.push({ atSeconds: Math.round((Date.now() - t0) / 1000), rssMb: Math.round(m.rss), heapUsedMb: Math.round(m.heapUsed) }),
      () => {},
    );
  const sampler = setInterval(() => void sample(), 5000);
  try {
    // Facebook Pages have no per-account publishing cap, so the figures measure Herald, not a limit.
    const pageIds = await connect(herald.url, key, 'facebook', { sandbox_pages: String(pages) });
    await sample();
    const firstDue = Date.now() + 25_000;
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < posts; i = next++) {
        const res = await api(herald.url, key, 'POST', '/v1/posts', {
          content: `due ${i} ${randomUUID()}`,
          scheduledFor: new Date(firstDue + Math.floor((i / posts) * 60_000)).toISOString(),
          platforms: [{ platform: 'facebook', accountId: pageIds[i % pageIds.length] }],
        });
        if (res.status !== 201) throw new Error(JSON.stringify(res.body));
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    if (Date.now() > firstDue) throw new Error('creating the posts took longer than the lead time');

    const db = openDatabase({ dataDir: database.dataDir, databaseUrl: null });
    try {
      const deadline = firstDue + 60_000 + 120_000;
      for (;;) {
        const open = await db.kysely.selectFrom('post_targets').select((eb) => eb.fn.countAll<number>().as('n')).where('status', 'in', ['pending', 'publishing']).executeTakeFirstOrThrow();
        if (Number(open.n) === 0) break;
        if (Date.now() > deadline) throw new Error(`${open.n} targets still open`);
        await new Promise((r) => setTimeout(r, 500));
      }
      const rows = await db.kysely
        .selectFrom('post_targets')
        .innerJoin('posts', 'posts.id', 'post_targets.post_id')
        .select(['posts.scheduled_for', 'post_targets.attempt_started_at', 'post_targets.published_at', 'post_targets.status'])
        .execute();
      const failed = rows.filter((r) => r.status !== 'published').length;
      if (failed > 0) throw new Error(`${failed} targets did not publish`);
      const lateness = rows.map((r) => r.attempt_started_at! - r.scheduled_for!);
      if (process.env.BENCH_DEBUG) {
        const buckets = new Map<number, number[]>();
        for (const r of rows) { const b = Math.floor((r.scheduled_for! - firstDue) / 5000); buckets.set(b, [...(buckets.get(b) ?? []), r.attempt_started_at! - r.scheduled_for!]); }
        for (const [b, xs] of [...buckets].sort((x, y) => x[0] - y[0])) console.error(`due +${b * 5}s: p50 ${percentile(xs, 50)} p99 ${percentile(xs, 99)} n ${xs.length}`);
      }
      const lastPublished = Math.max(...rows.map((r) => r.published_at!));
      await sample();
      return {
        posts,
        drainSeconds: (lastPublished - firstDue) / 1000,
        latenessP50Ms: percentile(lateness, 50),
        latenessP99Ms: percentile(lateness, 99),
        latenessMaxMs: Math.max(...lateness),
        memory,
      };
    } finally {
      await db.close();
    }
  } finally {
    clearInterval(sampler);
    await herald.stop();
    await server.close();
    database.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify({ fanOut: await benchFanOut(), due: await benchDueInOneMinute() }, null, 2));
}
