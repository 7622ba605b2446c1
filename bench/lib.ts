// What every benchmark needs: Herald (or a baseline server) in its own process on loopback, so the load
// generator never shares its event loop; autocannon runs; and the machine's description.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { approveConsent } from '../test/helpers/platform.ts';

export const MAIN = new URL('../src/cli/main.ts', import.meta.url).pathname;

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts a process and waits for `ready` to match its output; `ready`'s first group is the URL. */
/** SIGTERM, resolved once the process is gone. */
function stopChild(child: ChildProcess): Promise<void> {
  return new Promise<void>((done) => {
    if (child.exitCode !== null) return done();
    child.once('exit', () => done());
    child.kill('SIGTERM');
  });
}

export function startProcess(args: string[], env: Record<string, string>, ready: RegExp): Promise<ServerProcess> {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready:\n${out}`)), 60_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = ready.exec(out);
      if (m) {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        resolve({ url: m.slice(1).join(' '), child, stop: () => stopChild(child) });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code}:\n${out}`));
    });
  });
}

export type DatabaseKind = 'sqlite' | 'postgres';

export interface BenchDatabase {
  kind: DatabaseKind;
  dataDir: string;
  /** PostgreSQL: the database's URL; null on SQLite. */
  databaseUrl: string | null;
  /** PostgreSQL: the database's name (for pg_stat_statements). */
  name: string | null;
  env: Record<string, string>;
  drop(): Promise<void>;
}

/**
 * A fresh database: an embedded SQLite directory, or (given a server) a new PostgreSQL database. Either
 * way a data directory exists for the encryption key's neighbours (nothing else is written there on PostgreSQL).
 */
export async function benchDatabase(postgres?: { createDatabase(prefix?: string): Promise<{ url: string; drop(): Promise<void> }> }): Promise<BenchDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'herald-bench-'));
  const encryptionKey = randomBytes(32).toString('base64');
  if (!postgres) {
    return {
      kind: 'sqlite',
      dataDir,
      databaseUrl: null,
      name: null,
      env: { HERALD_DATA_DIR: dataDir, HERALD_ENCRYPTION_KEY: encryptionKey },
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const created = await postgres.createDatabase();
  return {
    kind: 'postgres',
    dataDir,
    databaseUrl: created.url,
    name: new URL(created.url).pathname.slice(1),
    env: { HERALD_DATA_DIR: dataDir, HERALD_ENCRYPTION_KEY: encryptionKey, DATABASE_URL: created.url },
    drop: async () => {
      await created.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux). */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
}

/** CPU seconds of every process of a PostgreSQL server (the postmaster's children included), from /proc. */
export function serverCpuSeconds(match: RegExp): number {
  let total = 0;
  for (const entry of spawnSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' }).stdout.split('\n')) {
    const m = /^\s*(\d+)\s+(.*)$/.exec(entry);
    if (!m || !match.test(m[2]!)) continue;
    try {
      total += cpuSeconds(Number(m[1]));
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

/** The 1-minute load average, for printing beside a figure measured on a shared machine. */
export function load1(): number {
  return Math.round(loadavg()[0]! * 10) / 10;
}

export interface EmulatorProcess {
  url: string;
  mounts: string[];
  env: Record<string, string>;
  child: ChildProcess;
  setLatency(ms: number): Promise<void>;
  /** Posts each emulator has published. */
  published(): Promise<number>;
  stop(): Promise<void>;
}

/** The emulators in their own process (see emulator-server.ts). */
export async function startEmulators(options: { latencyMs?: number; processingMs?: number; mediaOrigins?: string[] } = {}): Promise<EmulatorProcess> {
  const p = await startProcess(
    [new URL('./emulator-server.ts', import.meta.url).pathname],
    {
      BENCH_EMULATOR_LATENCY_MS: String(options.latencyMs ?? 0),
      BENCH_EMULATOR_PROCESSING_MS: String(options.processingMs ?? 0),
      BENCH_EMULATOR_MEDIA_ORIGINS: (options.mediaOrigins ?? []).join(','),
    },
    /emulators listening on (http:\/\/\S+) mounts (\S+)/,
  );
  const [url, mountList] = p.url.split(' ');
  const mounts = mountList!.split(',');
  const { sandboxEnv } = await import('../src/sandbox/index.ts');
  return {
    url: url!,
    mounts,
    env: sandboxEnv(url!),
    child: p.child,
    async setLatency(ms) {
      await Promise.all(mounts.map((m) => fetch(`${url}/${m}/__sandbox/latency`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ms }) })));
    },
    async published() {
      let n = 0;
      for (const m of mounts) n += ((await (await fetch(`${url}/${m}/__sandbox/ledger`)).json()) as { posts: unknown[] }).posts.length;
      return n;
    },
    stop: p.stop,
  };
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Herald in its own process, logging warnings only (per-request logs would cost throughput). */
export async function startHerald(env: Record<string, string>, args: string[] = []): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  const child = spawn(process.execPath, [...profile, MAIN, 'start', ...args], {
    env: { ...process.env, PORT: String(port), LOG_LEVEL: 'warn', HERALD_RATE_LIMIT_PER_MINUTE: '1000000', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Herald exited with ${child.exitCode}`);
    const ok = await fetch(`${url}/healthz`).then((r) => r.ok, () => false);
    if (ok) break;
    if (Date.now() > deadline) throw new Error('Herald did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, child, stop: () => stopChild(child) };
}

export function createKey(env: Record<string, string>): string {
  const r = spawnSync(process.execPath, [MAIN, 'keys', 'create', '--name', 'bench', '--json'], { env: { ...process.env, ...env }, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout).key;
}

export async function api(url: string, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

export async function connect(url: string, key: string, platform: string, consent: Record<string, string> = {}): Promise<string[]> {
  const redirect = 'https://bench.example.com/cb';
  const start = await api(url, key, 'GET', `/v1/connect/${platform}?redirect_url=${encodeURIComponent(redirect)}`);
  const { code, state } = await approveConsent(start.body.authUrl, consent);
  const done = await api(url, key, 'POST', `/v1/connect/${platform}`, { code, state, redirect_url: redirect });
  if (done.status !== 200) throw new Error(JSON.stringify(done.body));
  return done.body.accounts.map((a: { accountId: string }) => a.accountId);
}

type SetupRequest = (req: autocannon.Request) => autocannon.Request;

/**
 * The create benchmark's request: a post scheduled a year ahead to three freshly connected accounts (X,
 * Threads, a Facebook Page), each sent with its own Idempotency-Key. `twitter` is the X account's id;
 * `requestWith(extra)` is the same request with `extra`'s fields set in its body (other content, media).
 */
export async function scheduledCreate(url: string, key: string): Promise<{ twitter: string; setupRequest: SetupRequest; requestWith(extra: Record<string, unknown>): SetupRequest }> {
  const [twitter] = (await connect(url, key, 'twitter')) as [string];
  const [threads] = await connect(url, key, 'threads');
  const [page] = await connect(url, key, 'facebook', { sandbox_pages: '1' });
  const base = {
    content: 'Scheduled for next year, to three accounts.',
    scheduledFor: new Date(Date.now() + 365 * 86_400_000).toISOString(),
    platforms: [
      { platform: 'twitter', accountId: twitter },
      { platform: 'threads', accountId: threads },
      { platform: 'facebook', accountId: page },
    ],
  };
  const requestWith = (extra: Record<string, unknown>): SetupRequest => {
    const body = JSON.stringify({ ...base, ...extra });
    return (req) => ({ ...req, body, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() } });
  };
  return { twitter, setupRequest: requestWith({}), requestWith };
}

/**
 * What the create diagnostics (create-waits.ts, profile-create.ts) measure against: Herald on a bench
 * database (on `postgres` when given) with the emulators, a key, and the scheduled create warmed up for 2 s.
 */
export async function startCreateBench(postgres?: Parameters<typeof benchDatabase>[0] & { stop(): Promise<void> }) {
  const database = await benchDatabase(postgres);
  const emulators = await startEmulators();
  const env = { ...database.env, ...emulators.env, HERALD_ALLOW_PRIVATE_NETWORKS: 'true' };
  const key = createKey(env);
  const herald = await startHerald(env);
  const stop = async () => {
    await herald.stop();
    await emulators.stop();
    await database.drop();
    await postgres?.stop();
  };
  try {
    const { setupRequest: setup } = await scheduledCreate(herald.url, key);
    await load({ url: `${herald.url}/v1/posts`, duration: 2, requests: [{ method: 'POST', setupRequest: setup }] });
    return { database, herald, setup, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

export interface LoadResult {
  requestsPerSecond: number;
  /** Requests completed in all. */
  requests: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

export async function load(options: autocannon.Options): Promise<LoadResult> {
  const r = await autocannon({ connections: 16, duration: 10, ...options });
  return {
    requestsPerSecond: r.requests.average,
    requests: r.requests.total,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
  };
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export function machine(): string {
  const cpu = cpus();
  return `${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}, ${process.platform}/${process.arch}`;
}

/** Memory of a Herald process (resident, and V8 heap in use), read from its own /metrics. */
export async function memoryMb(url: string): Promise<{ rss: number; heapUsed: number; heapTotal: number; external: number }> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const read = (name: string) => {
    const m = new RegExp(`^${name}(?:\\{[^}]*\\})? (\\d+(?:\\.\\d+)?(?:e\\+\\d+)?)`, 'm').exec(text);
    return m ? Number(m[1]) / 2 ** 20 : NaN;
  };
  return {
    rss: read('herald_process_resident_memory_bytes'),
    heapUsed: read('herald_nodejs_heap_size_used_bytes'),
    heapTotal: read('herald_nodejs_heap_size_total_bytes'),
    external: read('herald_nodejs_external_memory_bytes'),
  };
}
