// Bulk import against single creates (issue 16): the same 500 scheduled posts sent as one
// POST /v1/posts/bulk (JSON, and CSV) and as 500 POST /v1/posts, one at a time from one client and from 8
// clients at once, on SQLite, in the same Herald process: a round of each that is not counted, then
// rounds interleaved so that a busy moment of the shared machine falls on each kind alike. Every request
// carries an Idempotency-Key, as the SDK sends one with every create and every bulk call; every post is
// checked to be created.
import { randomUUID } from 'node:crypto';
import { api, benchDatabase, connect, cpuSeconds, createKey, load1, percentile, startEmulators, startHerald } from './lib.ts';

export interface BulkKind {
  /** Median over the rounds, wall time for the 500 posts. */
  ms: number;
  roundsMs: number[];
  /** Herald's CPU per post (median round), ms. */
  cpuMsPerPost: number;
}

export interface BulkFigures {
  rows: number;
  rounds: number;
  targetsPerPost: number;
  singleSequential: BulkKind;
  singleConcurrent: BulkKind;
  concurrency: number;
  bulkJson: BulkKind;
  bulkCsv: BulkKind;
  load: { before: number; after: number };
}

const CLIENTS = 8;

/** One CSV cell: quoted, inner quotes doubled (RFC 4180). */
const cell = (v: string) => `"${v.replace(/"/g, '""')}"`;

export async function benchBulk(options: { rows?: number; rounds?: number } = {}): Promise<BulkFigures> {
  const rows = options.rows ?? 500;
  const rounds = options.rounds ?? 5;
  const database = await benchDatabase();
  const emulators = await startEmulators();
  const env = { ...database.env, ...emulators.env, HERALD_ALLOW_PRIVATE_NETWORKS: 'true' };
  const key = createKey(env);
  const herald = await startHerald(env);
  const pid = herald.child.pid!;
  try {
    const page = (await connect(herald.url, key, 'facebook', { sandbox_pages: '1', sandbox_user: 'bench_bulk' }))[0]!;
    const x = (await connect(herald.url, key, 'twitter', { sandbox_user: 'bench_bulk' }))[0]!;
    const targets = [
      { platform: 'facebook', accountId: page },
      { platform: 'twitter', accountId: x },
    ];
    // Scheduled a day ahead and more, one minute apart: nothing publishes while the figures are taken.
    const day = Date.now() + 86_400_000;
    let serial = 0;
    const posts = () => {
      const run = randomUUID().slice(0, 8);
      return Array.from({ length: rows }, (_, i) => ({
        content: `Bulk bench ${run} #${i}: "quotes", commas, and a link https://example.com/${run}/${i}`,
        scheduledFor: new Date(day + (serial++) * 60_000).toISOString(),
        timezone: 'Europe/Berlin',
        platforms: targets,
      }));
    };
    const send = async (method: string, path: string, body: string, contentType: string) => {
      const res = await fetch(`${herald.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': contentType, 'idempotency-key': randomUUID() },
        body,
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    const single = async (post: object) => {
      const res = await send('POST', '/v1/posts', JSON.stringify(post), 'application/json');
      if (res.status !== 201 || res.body.status !== 'scheduled') throw new Error(`create answered ${res.status}: ${JSON.stringify(res.body)}`);
    };
    const checkBulk = async (res: { status: number; body: any }, batch: ReturnType<typeof posts>) => {
      if (res.status !== 200 || res.body.created !== batch.length || res.body.failed !== 0) throw new Error(`bulk answered ${res.status}: ${JSON.stringify(res.body).slice(0, 2000)}`);
      // The last row is stored as sent (after the clock stops: not part of the figure).
      return async () => {
        const last = await api(herald.url, key, 'GET', `/v1/posts/${res.body.results.at(-1).id}`);
        if (last.status !== 200 || last.body.content !== batch.at(-1)!.content || last.body.platforms.length !== targets.length) throw new Error(`the last row reads back as ${JSON.stringify(last.body)}`);
      };
    };

    const kinds: Record<'singleSequential' | 'singleConcurrent' | 'bulkJson' | 'bulkCsv', (batch: ReturnType<typeof posts>) => Promise<void | (() => Promise<void>)>> = {
      async singleSequential(batch) {
        for (const p of batch) await single(p);
      },
      async singleConcurrent(batch) {
        let next = 0;
        await Promise.all(
          Array.from({ length: CLIENTS }, async () => {
            while (next < batch.length) await single(batch[next++]!);
          }),
        );
      },
      async bulkJson(batch) {
        return checkBulk(await send('POST', '/v1/posts/bulk', JSON.stringify({ posts: batch }), 'application/json'), batch);
      },
      async bulkCsv(batch) {
        const csv = [
          'content,scheduledFor,timezone,platforms',
          ...batch.map((p) => [cell(p.content), p.scheduledFor, p.timezone, p.platforms.map((t) => `${t.platform}:${t.accountId}`).join(';')].join(',')),
        ].join('\r\n');
        return checkBulk(await send('POST', '/v1/posts/bulk', csv, 'text/csv'), batch);
      },
    };
    // A whole round of each kind first, not counted: the first rounds ran up to five times slower than
    // the last while V8 optimised the paths (and the SQLite page cache filled).
    for (const run of Object.values(kinds)) await (await run(posts()))?.();

    const loadBefore = load1();
    const times: Record<keyof typeof kinds, { ms: number; cpuMs: number }[]> = { singleSequential: [], singleConcurrent: [], bulkJson: [], bulkCsv: [] };
    for (let r = 0; r < rounds; r++) {
      for (const [name, run] of Object.entries(kinds) as [keyof typeof kinds, (typeof kinds)[keyof typeof kinds]][]) {
        const batch = posts();
        const cpu0 = cpuSeconds(pid);
        const started = performance.now();
        const check = await run(batch);
        times[name].push({ ms: performance.now() - started, cpuMs: (cpuSeconds(pid) - cpu0) * 1000 });
        await check?.();
      }
    }
    const figures = (name: keyof typeof kinds): BulkKind => {
      const runs = times[name];
      const ms = percentile(runs.map((t) => t.ms), 50);
      return { ms, roundsMs: runs.map((t) => Math.round(t.ms)), cpuMsPerPost: percentile(runs.map((t) => t.cpuMs), 50) / rows };
    };
    return {
      rows,
      rounds,
      targetsPerPost: targets.length,
      singleSequential: figures('singleSequential'),
      singleConcurrent: figures('singleConcurrent'),
      concurrency: CLIENTS,
      bulkJson: figures('bulkJson'),
      bulkCsv: figures('bulkCsv'),
      load: { before: loadBefore, after: load1() },
    };
  } finally {
    await herald.stop();
    await emulators.stop();
    await database.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await benchBulk(), null, 2));
