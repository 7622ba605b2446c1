// Compares the create path of two source trees on one machine, interleaved: this tree and another
// (AB_OTHER, e.g. an export of the commit before a change, with node_modules linked), each as its own
// Herald process on its own database of the same server, taking POST /v1/posts (scheduled, 3 targets,
// Idempotency-Key) from 16 connections in turns of AB_SECONDS (default 5) for AB_ROUNDS rounds (default 4),
// the order swapped every round. On a shared machine one run of each says little; turns of both, side by
// side, with the CPU each spent per request, say more.
// AB_REQUEST=list measures GET /v1/posts?limit=20 instead (over the posts the warm-up created), to see
// what a change to the create path costs the other routes. AB_REQUEST=library creates the same post with 4
// library images (uploaded to each side first), as issue 13's third figure does.
// `AB_OTHER=/tmp/base node bench/ab-create.ts [postgres]`
import { spawn, spawnSync } from 'node:child_process';
import type autocannon from 'autocannon';
import sharp from 'sharp';
import { benchDatabase, scheduledCreate, cpuSeconds, freePort, load, serverCpuSeconds, startEmulators, type BenchDatabase } from './lib.ts';
import { startPostgres } from './postgres.ts';

const other = process.env.AB_OTHER;
if (!other) throw new Error('AB_OTHER names the other source tree');
const SECONDS = Number(process.env.AB_SECONDS ?? 5);
const ROUNDS = Number(process.env.AB_ROUNDS ?? 4);
const LIST = process.env.AB_REQUEST === 'list';
const LIBRARY = process.env.AB_REQUEST === 'library';
const postgres = process.argv[2] === 'postgres' ? await startPostgres() : undefined;
const emulators = await startEmulators();

interface Side {
  name: string;
  database: BenchDatabase;
  url: string;
  pid: number;
  stop(): Promise<void>;
  setup: (req: autocannon.Request) => autocannon.Request;
  key: string;
  requests: number;
  seconds: number;
  cpu: number;
  pgCpu: number;
  p99: number[];
}

async function side(name: string, root: string): Promise<Side> {
  const main = `${root}/src/cli/main.ts`;
  const database = await benchDatabase(postgres);
  const env = { ...process.env, ...database.env, ...emulators.env, HERALD_ALLOW_PRIVATE_NETWORKS: 'true' };
  spawnSync(process.execPath, [main, 'migrate'], { env });
  const key = JSON.parse(spawnSync(process.execPath, [main, 'keys', 'create', '--name', 'ab', '--json'], { env, encoding: 'utf8' }).stdout).key as string;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [main, 'start'], { env: { ...env, PORT: String(port), LOG_LEVEL: 'warn', HERALD_RATE_LIMIT_PER_MINUTE: '1000000' }, stdio: ['ignore', 'inherit', 'inherit'] });
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited`);
    if (await fetch(`${url}/healthz`).then((r) => r.ok, () => false)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const create = await scheduledCreate(url, key);
  const setup = LIBRARY ? create.requestWith({ content: 'Scheduled for next year, with four images, to three accounts.', mediaItems: await uploadImages(url, key) }) : create.setupRequest;
  const stop = () =>
    new Promise<void>((done) => {
      if (child.exitCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGTERM');
    });
  return { name, database, url, pid: child.pid!, stop, setup, key, requests: 0, seconds: 0, cpu: 0, pgCpu: 0, p99: [] };
}

/** Four small JPEGs in a side's library, as media items naming them. */
async function uploadImages(url: string, key: string): Promise<{ mediaId: string }[]> {
  const image = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 10, g: 20, b: 30 } } }).jpeg().toBuffer();
  const items: { mediaId: string }[] = [];
  for (let i = 0; i < 4; i++) {
    const res = await fetch(`${url}/v1/media`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'image/jpeg' }, body: image });
    if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
    items.push({ mediaId: ((await res.json()) as { id: string }).id });
  }
  return items;
}

const sides = [await side('this', `${import.meta.dirname}/..`), await side('other', other)];
try {
  for (const s of sides) await load({ url: `${s.url}/v1/posts`, duration: 2, requests: [{ method: 'POST', setupRequest: s.setup }] });
  for (let round = 0; round < ROUNDS; round++) {
    for (const s of round % 2 === 0 ? sides : [...sides].reverse()) {
      const cpu0 = cpuSeconds(s.pid);
      const backends = new RegExp(`^postgres: .*${s.database.name}`);
      const pg0 = postgres ? serverCpuSeconds(backends) : 0;
      const r = LIST
        ? await load({ url: `${s.url}/v1/posts?limit=20`, duration: SECONDS, headers: { authorization: `Bearer ${s.key}` } })
        : await load({ url: `${s.url}/v1/posts`, duration: SECONDS, requests: [{ method: 'POST', setupRequest: s.setup }] });
      s.cpu += cpuSeconds(s.pid) - cpu0;
      s.pgCpu += postgres ? serverCpuSeconds(backends) - pg0 : 0;
      s.requests += r.requests;
      s.seconds += SECONDS;
      s.p99.push(r.p99Ms);
      console.log(`round ${round + 1} ${s.name.padEnd(5)} ${Math.round(r.requestsPerSecond)}/s p50 ${r.p50Ms} ms p99 ${r.p99Ms} ms non-2xx ${r.non2xx}`);
    }
  }
  for (const s of sides) {
    const per = (v: number) => ((v / s.requests) * 1000).toFixed(3);
    console.log(`${s.name.padEnd(5)} ${Math.round(s.requests / s.seconds)}/s, Herald CPU ${per(s.cpu)} ms per request${postgres ? `, PostgreSQL CPU ${per(s.pgCpu)} ms` : ''}, p99 per turn ${s.p99.join(' ')} ms`);
  }
  const [a, b] = sides as [Side, Side];
  console.log(`this / other: requests/s ×${(a.requests / b.requests).toFixed(2)}, Herald CPU per request ×${(a.cpu / a.requests / (b.cpu / b.requests)).toFixed(2)}`);
} finally {
  for (const s of sides) {
    await s.stop();
    await s.database.drop();
  }
  await emulators.stop();
  await postgres?.stop();
}
