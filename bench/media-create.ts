// The library create against the URL create (issue 13's third figure): POST /v1/posts scheduled to 3
// accounts with 4 library images or with 4 URL images, in turns of `seconds` for `rounds` rounds, the order
// swapped every round, with Herald's CPU per request (from /proc) and the load average beside each turn.
// On a shared machine the CPU per request says more than requests/s. bench/media.ts runs it for `npm run
// bench`; alone, `node bench/media-create.ts [postgres]` (MC_SECONDS, default 5; MC_ROUNDS, default 4).
// MC_ONLY=url or MC_ONLY=library runs one kind only (for a profile: BENCH_PROFILE names the directory
// Herald's .cpuprofile goes to; bench/profile-summary.ts reads it).
import sharp from 'sharp';
import { benchDatabase, cpuSeconds, createKey, load, load1, scheduledCreate, serverCpuSeconds, startHerald } from './lib.ts';
import { startPostgres } from './postgres.ts';

type Kind = 'url' | 'library';

export interface CreateSide {
  requestsPerSecond: number;
  /** Herald's CPU (user + system, every thread) per request, µs. */
  cpuUs: number;
  /** PostgreSQL's backends' CPU per request, µs (0 on SQLite). */
  pgCpuUs: number;
  /** The worst p99 of the turns, ms. */
  p99Ms: number;
}

export interface CreateComparison {
  urlMedia: CreateSide;
  libraryMedia: CreateSide;
  /** Library requests/s over URL requests/s. */
  share: number;
  /** Library CPU per request over URL CPU per request. */
  cpuRatio: number;
  rounds: number;
  seconds: number;
  load: { before: number; after: number };
}

/**
 * Uploads 4 small JPEGs to a running Herald and compares the two creates. `pid` is Herald's process;
 * `pgBackends` matches the PostgreSQL backends of its database (when on PostgreSQL).
 */
export async function compareCreates(o: { url: string; key: string; pid: number; rounds: number; seconds: number; pgBackends?: RegExp; only?: Kind; log?: (line: string) => void }): Promise<CreateComparison> {
  const image = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 10, g: 20, b: 30 } } }).jpeg().toBuffer();
  const ids: string[] = [];
  for (let i = 0; i < 4; i++) {
    const res = await fetch(`${o.url}/v1/media`, { method: 'POST', headers: { authorization: `Bearer ${o.key}`, 'content-type': 'image/jpeg' }, body: image });
    if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
    ids.push(((await res.json()) as { id: string }).id);
  }
  const create = await scheduledCreate(o.url, o.key);
  const items: Record<Kind, unknown[]> = {
    url: [1, 2, 3, 4].map((n) => ({ type: 'image', url: `https://cdn.example.com/photos/${n}.jpg` })),
    library: ids.map((mediaId) => ({ mediaId })),
  };
  const kinds = (['url', 'library'] as const).filter((k) => (o.only ?? k) === k);
  const run = (kind: Kind, duration: number) =>
    load({ url: `${o.url}/v1/posts`, duration, requests: [{ method: 'POST', setupRequest: create.requestWith({ content: 'Scheduled for next year, with four images, to three accounts.', mediaItems: items[kind] }) }] });
  for (const kind of kinds) await run(kind, 2); // warm-up
  const totals = { url: { requests: 0, cpu: 0, pg: 0, p99: 0 }, library: { requests: 0, cpu: 0, pg: 0, p99: 0 } };
  const pgCpu = () => (o.pgBackends ? serverCpuSeconds(o.pgBackends) : 0);
  const before = load1();
  for (let round = 0; round < o.rounds; round++) {
    for (const kind of round % 2 === 0 ? kinds : [...kinds].reverse()) {
      const cpu0 = cpuSeconds(o.pid);
      const pg0 = pgCpu();
      const r = await run(kind, o.seconds);
      if (r.non2xx > 0 || r.errors > 0) throw new Error(`${kind} create: ${r.non2xx} answers not 2xx, ${r.errors} errors`);
      const cpu = cpuSeconds(o.pid) - cpu0;
      const pg = pgCpu() - pg0;
      const t = totals[kind];
      t.requests += r.requests;
      t.cpu += cpu;
      t.pg += pg;
      t.p99 = Math.max(t.p99, r.p99Ms);
      const per = (v: number) => Math.round((v / r.requests) * 1e6);
      o.log?.(`round ${round + 1} ${kind.padEnd(7)} ${Math.round(r.requestsPerSecond)}/s p99 ${r.p99Ms} ms, Herald CPU ${per(cpu)} µs/request${o.pgBackends ? `, PostgreSQL ${per(pg)} µs` : ''}, load ${load1()}`);
    }
  }
  const side = (k: Kind): CreateSide => {
    const t = totals[k];
    return { requestsPerSecond: t.requests / (o.rounds * o.seconds), cpuUs: (t.cpu / t.requests) * 1e6, pgCpuUs: (t.pg / t.requests) * 1e6, p99Ms: t.p99 };
  };
  const urlMedia = side('url');
  const libraryMedia = side('library');
  return {
    urlMedia,
    libraryMedia,
    share: libraryMedia.requestsPerSecond / urlMedia.requestsPerSecond,
    cpuRatio: libraryMedia.cpuUs / urlMedia.cpuUs,
    rounds: o.rounds,
    seconds: o.seconds,
    load: { before, after: load1() },
  };
}

if (import.meta.main) {
  const postgres = process.argv[2] === 'postgres' ? await startPostgres() : undefined;
  const database = await benchDatabase(postgres);
  const env = { ...database.env, HERALD_SANDBOX: 'true', HERALD_ALLOW_PRIVATE_NETWORKS: 'true' };
  const key = createKey(env);
  const herald = await startHerald(env);
  try {
    const only = process.env.MC_ONLY === 'url' || process.env.MC_ONLY === 'library' ? process.env.MC_ONLY : undefined;
    const c = await compareCreates({
      url: herald.url,
      key,
      pid: herald.child.pid!,
      rounds: Number(process.env.MC_ROUNDS ?? 4),
      seconds: Number(process.env.MC_SECONDS ?? 5),
      pgBackends: postgres ? new RegExp(`^postgres: .*${database.name}`) : undefined,
      only,
      log: console.log,
    });
    const line = (k: string, s: CreateSide) => `${k.padEnd(7)} ${Math.round(s.requestsPerSecond)}/s, Herald CPU ${Math.round(s.cpuUs)} µs/request${postgres ? `, PostgreSQL ${Math.round(s.pgCpuUs)} µs` : ''}, p99 ≤ ${s.p99Ms} ms`;
    console.log(line('url', c.urlMedia));
    console.log(line('library', c.libraryMedia));
    console.log(`library / url: requests/s ${(c.share * 100).toFixed(1)} %, Herald CPU per request ×${c.cpuRatio.toFixed(2)}, load ${c.load.before} → ${c.load.after}`);
  } finally {
    await herald.stop();
    await database.drop();
    await postgres?.stop();
  }
}
