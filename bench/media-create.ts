// The library create against the URL create (issue 13's third figure) in more detail than bench/media.ts
// gives it: one Herald, POST /v1/posts scheduled to 3 accounts with 4 library images or with 4 URL images,
// in turns of MC_SECONDS (default 5) for MC_ROUNDS rounds (default 4), the order swapped every round, with
// Herald's CPU per request (from /proc) and the load average beside each turn. On a shared machine the CPU
// per request says more than requests/s.
// MC_ONLY=url or MC_ONLY=library runs one kind only (for a profile: BENCH_PROFILE names the directory
// Herald's .cpuprofile goes to; bench/profile-summary.ts reads it).
// `node bench/media-create.ts [postgres]`
import sharp from 'sharp';
import { benchDatabase, cpuSeconds, createKey, load, load1, scheduledCreate, serverCpuSeconds, startHerald } from './lib.ts';
import { startPostgres } from './postgres.ts';

const SECONDS = Number(process.env.MC_SECONDS ?? 5);
const ROUNDS = Number(process.env.MC_ROUNDS ?? 4);
const postgres = process.argv[2] === 'postgres' ? await startPostgres() : undefined;
const database = await benchDatabase(postgres);
const env = { ...database.env, HERALD_SANDBOX: 'true', HERALD_ALLOW_PRIVATE_NETWORKS: 'true' };
const key = createKey(env);
const herald = await startHerald(env);
try {
  const pid = herald.child.pid!;
  const image = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 10, g: 20, b: 30 } } }).jpeg().toBuffer();
  const ids: string[] = [];
  for (let i = 0; i < 4; i++) {
    const res = await fetch(`${herald.url}/v1/media`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'image/jpeg' }, body: image });
    ids.push(((await res.json()) as { id: string }).id);
  }
  const create = await scheduledCreate(herald.url, key);
  const kinds = {
    url: [1, 2, 3, 4].map((n) => ({ type: 'image', url: `https://cdn.example.com/photos/${n}.jpg` })),
    library: ids.map((mediaId) => ({ mediaId })),
  };
  const run = (mediaItems: unknown[], duration: number) =>
    load({ url: `${herald.url}/v1/posts`, duration, requests: [{ method: 'POST', setupRequest: create.requestWith({ content: 'Scheduled for next year, with four images, to three accounts.', mediaItems }) }] });
  if (process.env.MC_ONLY !== 'library') await run(kinds.url, 2);
  if (process.env.MC_ONLY !== 'url') await run(kinds.library, 2);
  const totals = { url: { requests: 0, cpu: 0, pg: 0 }, library: { requests: 0, cpu: 0, pg: 0 } };
  const backends = new RegExp(`^postgres: .*${database.name}`);
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? (['url', 'library'] as const) : (['library', 'url'] as const);
    for (const kind of order.filter((k) => (process.env.MC_ONLY ?? k) === k)) {
      const cpu0 = cpuSeconds(pid);
      const pg0 = postgres ? serverCpuSeconds(backends) : 0;
      const r = await run(kinds[kind], SECONDS);
      const cpu = cpuSeconds(pid) - cpu0;
      const pg = postgres ? serverCpuSeconds(backends) - pg0 : 0;
      totals[kind].requests += r.requests;
      totals[kind].cpu += cpu;
      totals[kind].pg += pg;
      const per = (v: number) => Math.round((v / r.requests) * 1e6);
      console.log(`round ${round + 1} ${kind.padEnd(7)} ${Math.round(r.requestsPerSecond)}/s p99 ${r.p99Ms} ms, Herald CPU ${per(cpu)} µs/request${postgres ? `, PostgreSQL ${per(pg)} µs` : ''}, non-2xx ${r.non2xx}, load ${load1()}`);
    }
  }
  const rate = (k: 'url' | 'library') => totals[k].requests / (ROUNDS * SECONDS);
  const cpuPer = (k: 'url' | 'library') => Math.round((totals[k].cpu / totals[k].requests) * 1e6);
  const pgPer = (k: 'url' | 'library') => Math.round((totals[k].pg / totals[k].requests) * 1e6);
  for (const k of ['url', 'library'] as const) {
    console.log(`${k.padEnd(7)} ${Math.round(rate(k))}/s, Herald CPU ${cpuPer(k)} µs/request${postgres ? `, PostgreSQL ${pgPer(k)} µs` : ''}`);
  }
  console.log(`library / url: requests/s ${((rate('library') / rate('url')) * 100).toFixed(1)} %, Herald CPU per request ×${(cpuPer('library') / cpuPer('url')).toFixed(2)}, load ${load1()}`);
} finally {
  await herald.stop();
  await database.drop();
  await postgres?.stop();
}
