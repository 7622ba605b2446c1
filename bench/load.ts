// Mixed load and soak: concurrent clients calling every kind of route for a bounded time, against Herald
// publishing to emulators in their own process (answering after a short delay) and delivering webhooks
// to a local receiver. On SQLite one Herald process does everything; on PostgreSQL two API processes
// share the requests (each request goes to either, no affinity) and two worker processes share the jobs,
// and midway one worker and then one API process are killed with SIGKILL and started again: clients
// whose request was cut off send it again to the other API process with the same Idempotency-Key.
// Reports throughput, p50/p99 per route, answers other than the expected ones, resident memory over
// time, and at the end whether anything was lost or posted twice.
//
// The soak of issue 19 (`npm run soak`, or `node bench/load.ts soak`; SOAK_MINUTES or BENCH_LOAD_SECONDS,
// default 30 minutes) is the same run on PostgreSQL with the `s3` media store (s3rver, as the tests use)
// and every route at a steady rate instead of as fast as the clients go: besides the routes above, media
// uploads (multipart images, a small video when ffmpeg is there) and imports by URL, posts with library
// media on all ten platforms, bulk imports as JSON and CSV, the queue, dashboard sessions (signed in
// through /app/api/session, then the API with the cookie and the CSRF token) and MCP tool calls. A random
// process (API or worker) is killed with SIGKILL every 5 minutes (SOAK_KILL_EVERY_SECONDS) and started
// again. At the end every emulator's ledger is checked against Herald's targets (published but not on the
// platform, or there twice), every 5xx is listed, and each process's resident memory is reported: start,
// end, max, and its slope over the last 20 minutes, beside its V8 heap total and `external` (from its /metrics).
// For finding what raises memory: SOAK_ROUTES (a regular expression) runs only the routes it matches;
// BENCH_API_PROCESSES=4 starts more API processes sharing the requests, and BENCH_ENV_API_3='K=V …' starts
// one of them with other settings, so it is measured against the others under the same load.
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../src/db/database.ts';
import { createMediaFixtures, ffmpegAvailable } from '../test/helpers/media-fixtures.ts';
import { approveConsent } from '../test/helpers/platform.ts';
import { s3Env, startS3Server } from '../test/helpers/s3-server.ts';
import { benchDatabase, connect, createKey, load1, memoryMb, percentile, startEmulators, startHerald, type ServerProcess } from './lib.ts';
import type { PostgresServer } from './postgres.ts';

export interface RouteFigures {
  requests: number;
  p50Ms: number;
  p99Ms: number;
  unexpected: number;
}

export interface MemorySample {
  atSeconds: number;
  /** Resident MB per process that ran the whole time (name → MB). */
  rssMb: Record<string, number>;
  heapUsedMb: Record<string, number>;
  /** V8 heap reserved, and memory outside it (buffers, native objects), MB. */
  heapTotalMb: Record<string, number>;
  externalMb: Record<string, number>;
}

/** One process's life in the soak (a process started again after a kill is a new life). */
export interface ProcessMemory {
  name: string;
  pid: number;
  fromSeconds: number;
  toSeconds: number;
  startMb: number;
  endMb: number;
  maxMb: number;
  /** Least-squares slope of resident MB over the last 20 minutes of its life (or all of it when shorter). */
  slopeMbPerMinute: number;
  slopeOverMinutes: number;
  killed: boolean;
  /** From the process's /metrics, first and last sample under load: V8 heap reserved, and `external` (Buffers and ArrayBuffers included), MB. */
  heapTotalMb: [number, number];
  externalMb: [number, number];
  /** Slope over the same window of what is neither (resident − heap total − external: malloc'd native memory, code), MB/min. */
  outsideSlopeMbPerMinute: number;
  /** The environment this process was started with on top of the bench's (BENCH_ENV_API_2 and the like), if any. */
  extraEnv?: string;  /** Every sample under load: seconds since the start, resident, V8 heap total and external MB (for the JSON beside the report). */
  series: [number, number, number | null, number | null][];
}

export interface SoakFigures {
  killEverySeconds: number;
  /** Requests per second asked of the API (all routes together). */
  targetRate: number;
  /** Requests not sent because that route already had as many in flight as allowed (the machine fell behind). */
  skipped: number;
  fiveXx: { count: number; byRoute: Record<string, number>; samples: string[] };
  /** Every unexpected answer, grouped by route, status and code. */
  unexpectedKinds: Record<string, number>;
  /** Documented refusals seen (expected answers, counted). */
  refusals: Record<string, number>;
  platforms: string[];
  accounts: Record<string, number>;
  /** Targets per platform and final status. */
  targets: Record<string, Record<string, number>>;
  failedTargets: Record<string, number>;
  /** Targets still pending or publishing at the end (waiting for a cap included), by platform, status and error. */
  notFinal: Record<string, number>;
  /** Published in Herald, with no ledger entry on its platform (of `checked` published targets). */
  lost: { count: number; checked: number; samples: string[] };
  /** A ledger holding the same post twice, per emulator. */
  duplicatesByEmulator: Record<string, number>;
  duplicateSamples: string[];
  ledgerEntries: Record<string, number>;
  media: { uploaded: number; imported: number; videos: number; s3Objects: number };
  processes: ProcessMemory[];
  loadAverage: { before: number[]; after: number[] };
}

export interface LoadFigures {
  database: 'sqlite' | 'postgres';
  seconds: number;
  clients: number;
  processes: string;
  requestsPerSecond: number;
  routes: Record<string, RouteFigures>;
  /** Answers that were neither the expected success nor a 429, with a sample. */
  unexpected: { count: number; samples: string[] };
  rateLimited: number;
  /** Requests cut off by a killed process and sent again to another one. */
  resent: number;
  kills: string[];
  webhooksReceived: number;
  published: number;
  memory: MemorySample[];
  /** Resident memory at the end over that at 120 s, per process that ran the whole time. */
  memoryGrowth: Record<string, number>;
  /** What the end state says: posts created and found, targets not final, posts made twice on a platform. */
  check: { created: number; missing: number; open: number; waitingForCap: number; duplicates: number };
  load: { before: number; after: number };
  soak?: SoakFigures;
}

interface Answer {
  status: number;
  body: any;
}

interface Step {
  route: string;
  /** Closed-loop share (the mixed load). */
  weight: number;
  /** Open-loop rate in the soak, requests per second (0: not in the soak). */
  perSecond?: number;
  run(): Promise<{ status: number; ok: boolean; note?: string; refusal?: string }>;
}

/** A dashboard session as the page holds it: the cookie the browser keeps and the token the page read. */
interface Session {
  cookie: string;
  csrf: string;
}

interface CallOptions {
  /** A body other than JSON (multipart, CSV), made afresh for each attempt. */
  raw?: () => { body: NonNullable<RequestInit['body']>; contentType?: string };
  /** Call as the dashboard does: session cookie, CSRF token and the page's Origin instead of the key. */
  session?: Session;
  /** Not under /v1: no key at all (the dashboard's sign-in). */
  noAuth?: boolean;
}

const UUID_RE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const MOUNT_OF: Record<string, string> = { facebook: 'meta', instagram: 'meta' };
/** A pending target with one of these codes waits for a platform's cap or quota to refill, as promised. */
const WAITING_CODES = ['rate_limited', 'quota_exceeded'];

function rssOfPid(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

function slope(points: { t: number; mb: number }[]): number {
  if (points.length < 2) return NaN;
  const n = points.length;
  const mt = points.reduce((a, p) => a + p.t, 0) / n;
  const mm = points.reduce((a, p) => a + p.mb, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.t - mt) * (p.mb - mm);
    den += (p.t - mt) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

/**
 * Environment for one process on top of the bench's, for side-by-side trials of allocator settings:
 * BENCH_ENV_API_2='GLIBC_TUNABLES=glibc.malloc.mmap_threshold=131072' starts api-2 (each of its lives) with it.
 */
function processEnv(name: string): Record<string, string> {
  const spec = process.env[`BENCH_ENV_${name.toUpperCase().replace(/-/g, '_')}`];
  if (!spec) return {};
  return Object.fromEntries(
    spec
      .split(/\s+/)
      .filter(Boolean)
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );
}

export async function benchLoad(
  options: {
    postgres?: PostgresServer;
    seconds?: number;
    clients?: number;
    platformLatencyMs?: number;
    kill?: boolean;
    /** The issue-19 soak: s3 store, every route at a steady rate, a random kill every `killEverySeconds`. */
    soak?: { killEverySeconds?: number; rate?: number };
  } = {},
): Promise<LoadFigures> {
  const seconds = options.seconds ?? 60;
  const clients = options.clients ?? 16;
  const soak = options.soak;
  if (soak && !options.postgres) throw new Error('the soak runs on PostgreSQL');
  const database = await benchDatabase(options.postgres);
  const s3 = soak ? await startS3Server() : null;
  const fixtures = soak ? await createMediaFixtures() : null;
  const emulators = await startEmulators({ processingMs: 20, mediaOrigins: s3 ? [new URL(s3.endpoint).origin] : [] });
  let webhooksReceived = 0;
  /** Files for media imports by URL, served by the receiver (GET /media/<name>). */
  const served = new Map<string, { bytes: Buffer; type: string }>();
  const receiver = createServer((req, res) => {
    const file = req.method === 'GET' && req.url?.startsWith('/media/') ? served.get(req.url.slice('/media/'.length)) : undefined;
    if (file) {
      res.writeHead(200, { 'content-type': file.type, 'content-length': file.bytes.length }).end(file.bytes);
      return;
    }
    req.resume();
    req.on('end', () => {
      webhooksReceived++;
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const env = { ...database.env, ...emulators.env, ...(s3 ? s3Env(s3) : {}), HERALD_ALLOW_PRIVATE_NETWORKS: 'true', HERALD_PUBLISH_WAIT_MS: '10000',
    // As docs/operations.md deploys Herald (and the Docker image sets): two glibc arenas. glibc reads it
    // only when a process starts, so it goes in the processes' environment.
    MALLOC_ARENA_MAX: '2' };
  const key = createKey(env);
  const split = database.kind === 'postgres';
  const procs = new Map<string, ServerProcess>();
  const started = Date.now();
  /** Every life of every process, for the soak's memory report. */
  const lives: {
    name: string;
    proc: ServerProcess;
    from: number;
    to: number | null;
    killed: boolean;
    extraEnv?: string;
    samples: { t: number; mb: number; heapTotal?: number; external?: number }[];
  }[] = [];
  const start = async (name: string) => {
    const extra = processEnv(name);
    const proc = await startHerald({ ...env, ...extra }, ['--role', name.startsWith('api') ? (split ? 'api' : 'all') : 'worker']);
    procs.set(name, proc);
    const extraEnv = Object.keys(extra).length > 0 ? Object.entries(extra).map(([k, v]) => `${k}=${v}`).join(' ') : undefined;
    lives.push({ name, proc, from: (Date.now() - started) / 1000, to: null, killed: false, extraEnv, samples: [] });
    return proc;
  };
  // More API processes side by side (BENCH_API_PROCESSES, PostgreSQL only): each gets its share of the same
  // requests, so one started with other settings (BENCH_ENV_API_3) is measured against the others under one load.
  const apiNames = Array.from({ length: split ? Math.max(2, Number(process.env.BENCH_API_PROCESSES ?? 2)) : 1 }, (_, i) => `api-${i + 1}`);
  for (const name of split ? [...apiNames, 'worker-1', 'worker-2'] : ['api-1']) await start(name);
  const apis = () => [...procs].filter(([n]) => n.startsWith('api')).map(([, p]) => p);
  const memory: MemorySample[] = [];
  const steady = new Set(split ? ['api-2', 'worker-2'] : ['api-1']);
  const sample = async () => {
    const s: MemorySample = { atSeconds: Math.round((Date.now() - started) / 1000), rssMb: {}, heapUsedMb: {}, heapTotalMb: {}, externalMb: {} };
    await Promise.all(
      lives.map(async (life) => {
        if (life.to !== null || life.proc.child.pid === undefined) return;
        const t = (Date.now() - started) / 1000;
        const mb = rssOfPid(life.proc.child.pid);
        // The V8 heap and `external` from the process's own /metrics (prom-client reads process.memoryUsage()).
        const m = soak ? await memoryMb(life.proc.url).catch(() => null) : null;
        if (mb !== null) life.samples.push({ t, mb, heapTotal: m?.heapTotal, external: m?.external });
      }),
    );
    for (const name of steady) {
      const p = procs.get(name);
      const m = p ? await memoryMb(p.url).catch(() => null) : null;
      if (m) {
        s.rssMb[name] = Math.round(m.rss);
        s.heapUsedMb[name] = Math.round(m.heapUsed);
        s.heapTotalMb[name] = Math.round(m.heapTotal);
        s.externalMb[name] = Math.round(m.external);
      }
    }
    memory.push(s);
  };

  let resent = 0;
  /**
   * A request to any API process; cut off by a killed process, it is sent again to another, and then
   * (as API.md says of 409 idempotency_key_in_use) again until the cut-off request's claim has lapsed.
   */
  async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}, opts: CallOptions = {}): Promise<Answer & { cutOff: boolean }> {
    let cutOff = false;
    for (let attempt = 0; ; attempt++) {
      const list = apis();
      const target = list[Math.floor(Math.random() * list.length)]!;
      const raw = opts.raw?.();
      const auth: Record<string, string> = opts.noAuth
        ? { origin: target.url }
        : opts.session
          ? { cookie: opts.session.cookie, 'x-herald-csrf': opts.session.csrf, origin: target.url }
          : { authorization: `Bearer ${key}` };
      try {
        const res = await fetch(`${target.url}${path}`, {
          method,
          headers: {
            ...auth,
            ...(raw?.contentType ? { 'content-type': raw.contentType } : body !== undefined ? { 'content-type': 'application/json' } : {}),
            ...headers,
          },
          body: raw ? raw.body : body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await res.text();
        let parsed: any = text;
        try {
          parsed = text ? JSON.parse(text) : undefined;
        } catch {
          // not JSON: kept as text
        }
        const answer = { status: res.status, body: parsed, cutOff, setCookie: res.headers.get('set-cookie') };
        // An MCP tool call answers 200 and carries the same refusal in its result.
        const inUse = (answer.status === 409 && parsed?.code === 'idempotency_key_in_use') || (path === '/mcp' && text.includes('idempotency_key_in_use'));
        if (cutOff && inUse && attempt < 200) {
          await new Promise((r) => setTimeout(r, 250));
          continue;
        }
        return answer;
      } catch (err) {
        if (attempt >= 20) throw err;
        resent++;
        cutOff = true;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }

  const loadBefore = load1();
  const loadAverageBefore = loadavg().map((x) => Math.round(x * 100) / 100);
  try {
    const front = apis()[0]!;
    const pages = await connect(front.url, key, 'facebook', { sandbox_pages: '20' });
    const threads: string[] = [];
    // Threads allows 250 posts a day per account, X 100 per 15 minutes: enough accounts that the load
    // measures Herald, not the caps.
    for (let i = 0; i < 12; i++) threads.push(...(await connect(front.url, key, 'threads', { sandbox_user: `load_th_${i}` })));
    const xs: string[] = [];
    for (let i = 0; i < 8; i++) xs.push(...(await connect(front.url, key, 'twitter', { sandbox_user: `load_x_${i}`, sandbox_subscription: 'Premium' })));
    const settings = await call('POST', '/v1/webhooks/settings', {
      url: `${receiverUrl}/hook`,
      events: ['post.published', 'post.failed', 'post.completed', 'post.scheduled', 'post.deleted', 'post.updated', 'post.unpublished', 'post.edited'],
    });
    if (settings.status !== 200) throw new Error(JSON.stringify(settings.body));
    const slots = await call('PUT', '/v1/queue', { timezone: 'UTC', slots: ['mon', 'wed', 'fri'].map((day) => ({ day, time: '09:00' })) });
    if (slots.status !== 200) throw new Error(JSON.stringify(slots.body));
    await emulators.setLatency(options.platformLatencyMs ?? 20);

    const posts: string[] = [];
    const drafts: string[] = [];
    /** Published posts on X (for edit and unpublish). */
    const onX: string[] = [];
    const created = new Set<string>();
    let n = 0;
    const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)]!;
    const target = () => (Math.random() < 0.85 ? { platform: 'facebook', accountId: pick(pages) } : { platform: 'threads', accountId: pick(threads) });
    const ok200 = (r: Answer) => ({ status: r.status, ok: r.status === 200, note: r.status === 200 ? undefined : JSON.stringify(r.body ?? '').slice(0, 300) });
    /** How far ahead a post is scheduled at least: on a busy machine a request (resent after a kill, too) may take seconds. */
    const lead = soak ? 15_000 : 2_000;
    const createPost = async (body: Record<string, unknown>, opts: CallOptions = {}) => {
      // Every create carries an Idempotency-Key, so a request cut off by a kill is sent again safely.
      const r = await call('POST', '/v1/posts', body, { 'idempotency-key': randomUUID() }, opts);
      if (r.status === 201) created.add(r.body.id);
      return r;
    };
    /**
     * Published, or waiting for a platform's cap on that account (a rate limit, or a daily quota such as
     * Instagram's 50 API posts per account or YouTube's uploads per channel): both are what Herald promises.
     */
    const publishedOrWaiting = (r: Answer) => {
      const waitingForCap = (t: { status: string; errorCode?: string }) => t.status === 'pending' && WAITING_CODES.includes(t.errorCode ?? '');
      return r.status === 201 && (r.body.status === 'published' || (r.body.status === 'publishing' && r.body.platforms.every((t: { status: string }) => t.status === 'published' || t.status === 'publishing' || waitingForCap(t))));
    };
    const steps: Step[] = [
      { route: 'GET /v1/posts', weight: 30, perSecond: 3, run: async () => ok200(await call('GET', '/v1/posts?limit=20')) },
      { route: 'GET /v1/posts?status', weight: 5, perSecond: 0.5, run: async () => ok200(await call('GET', '/v1/posts?limit=20&status=published&platform=facebook')) },
      { route: 'GET /v1/posts/{id}', weight: 18, perSecond: 2, run: async () => (posts.length === 0 ? { status: 200, ok: true } : ok200(await call('GET', `/v1/posts/${pick(posts)}`))) },
      {
        route: 'POST /v1/posts (scheduled)',
        weight: 13,
        perSecond: 1.5,
        run: async () => {
          const r = await createPost({
            content: `scheduled ${n++} ${randomUUID()}`,
            scheduledFor: new Date(Date.now() + lead + Math.random() * 20_000).toISOString(),
            platforms: [target(), ...(Math.random() < 0.05 ? [{ platform: 'twitter', accountId: pick(xs) }] : [])],
          });
          if (r.status === 201) posts.push(r.body.id);
          return { status: r.status, ok: r.status === 201, note: r.status === 201 ? undefined : JSON.stringify(r.body) };
        },
      },
      {
        route: 'POST /v1/posts (publishNow)',
        weight: 9,
        perSecond: 1,
        run: async () => {
          const onTwitter = Math.random() < 0.1;
          const r = await createPost({ content: `now ${n++} ${randomUUID()}`, publishNow: true, platforms: [onTwitter ? { platform: 'twitter', accountId: pick(xs) } : target()] });
          if (r.status === 201) {
            posts.push(r.body.id);
            if (onTwitter && r.body.status === 'published') onX.push(r.body.id);
          }
          const ok = publishedOrWaiting(r);
          // Resent after the API process that was publishing it died: the replay answers with the post, its
          // target to be reconciled with the platform (outcome unknown), as promised.
          const reconciling = !ok && r.cutOff && r.status === 201 && r.body.status === 'publishing';
          return { status: r.status, ok: ok || reconciling, note: ok ? undefined : JSON.stringify(r.body).slice(0, 300), refusal: reconciling ? 'publishNow resent after a kill: 201 publishing, outcome being reconciled' : undefined };
        },
      },
      {
        route: 'POST /v1/posts (draft)',
        weight: 4,
        perSecond: 0.5,
        run: async () => {
          const r = await createPost({ content: `draft ${n++}`, isDraft: true });
          if (r.status === 201) drafts.push(r.body.id);
          return { status: r.status, ok: r.status === 201 };
        },
      },
      {
        route: 'PATCH /v1/posts/{id}',
        weight: 3,
        perSecond: 0.4,
        run: async () => {
          // One client changes a draft at a time (two at once: the second gets 409 CONFLICT, as promised).
          const id = drafts.pop();
          if (!id) return { status: 200, ok: true };
          try {
            return ok200(await call('PATCH', `/v1/posts/${id}`, { content: `draft edited ${n++}` }, { 'idempotency-key': randomUUID() }));
          } finally {
            drafts.push(id);
          }
        },
      },
      {
        route: 'DELETE /v1/posts/{id}',
        weight: 3,
        perSecond: 0.4,
        run: async () => {
          const id = drafts.shift();
          if (!id) return { status: 200, ok: true };
          created.delete(id);
          const r = await call('DELETE', `/v1/posts/${id}`);
          // Cut off by a kill after the delete committed: the resent one finds it gone.
          return { status: r.status, ok: r.status === 200 || (r.cutOff && r.status === 404) };
        },
      },
      { route: 'POST /v1/posts/validate', weight: 3, perSecond: 0.4, run: async () => ok200(await call('POST', '/v1/posts/validate', { content: `check ${n++}`, publishNow: true, platforms: [target()] })) },
      {
        route: 'POST /v1/posts/bulk',
        weight: 1,
        perSecond: 0.1,
        run: async () => {
          const r = await call('POST', '/v1/posts/bulk', { posts: [1, 2, 3].map(() => ({ content: `bulk ${n++} ${randomUUID()}`, isDraft: true })) }, { 'idempotency-key': randomUUID() });
          if (r.status === 200) for (const row of r.body.results) if (row.id) drafts.push(row.id), created.add(row.id);
          return ok200(r);
        },
      },
      {
        route: 'POST /v1/posts/{id}/edit',
        weight: 1,
        perSecond: 0.1,
        run: async () => {
          // One client edits a post at a time (X refuses an edit of a version already replaced).
          const id = onX.pop();
          if (!id) return { status: 200, ok: true };
          const r = await call('POST', `/v1/posts/${id}/edit`, { content: `edited ${n++} ${randomUUID()}` }, { 'idempotency-key': randomUUID() });
          onX.push(id);
          // X allows 5 edits per post: the 6th is a rule, not a failure.
          const refused = r.status === 422 && r.body.code === 'EDIT_LIMIT_REACHED';
          return { status: r.status, ok: r.status === 200 || refused, note: JSON.stringify(r.body).slice(0, 200), refusal: refused ? 'edit: 422 EDIT_LIMIT_REACHED' : undefined };
        },
      },
      {
        route: 'POST /v1/posts/{id}/unpublish',
        weight: 1,
        perSecond: 0.05,
        run: async () => {
          const id = onX.shift();
          if (!id) return { status: 200, ok: true };
          return ok200(await call('POST', `/v1/posts/${id}/unpublish`, {}));
        },
      },
      {
        route: 'POST /v1/posts/{id}/retry',
        weight: 1,
        perSecond: 0.1,
        run: async () => {
          if (posts.length === 0) return { status: 200, ok: true };
          const r = await call('POST', `/v1/posts/${pick(posts)}/retry`, undefined, { 'idempotency-key': randomUUID() });
          // Nothing failed, or still publishing: both are the expected answers on a healthy platform.
          const refused = r.status === 409 && ['NO_FAILED_TARGETS', 'CONFLICT'].includes(r.body.code);
          return { status: r.status, ok: r.status === 200 || refused, refusal: refused ? `retry: 409 ${r.body.code}` : undefined };
        },
      },
      { route: 'GET /v1/accounts', weight: 2, perSecond: 0.2, run: async () => ok200(await call('GET', '/v1/accounts')) },
      { route: 'GET /v1/accounts/health', weight: 1, perSecond: 0.02, run: async () => ok200(await call('GET', '/v1/accounts/health')) },
      { route: 'GET /v1/queue', weight: 1, perSecond: 0.1, run: async () => ok200(await call('GET', '/v1/queue')) },
      { route: 'GET /v1/webhooks/settings', weight: 1, perSecond: 0.1, run: async () => ok200(await call('GET', '/v1/webhooks/settings')) },
      { route: 'GET /v1/webhooks/deliveries', weight: 2, perSecond: 0.2, run: async () => ok200(await call('GET', '/v1/webhooks/deliveries?limit=20')) },
    ];
    const refusals = new Map<string, number>();
    const soakState = soak ? await soakSteps() : null;

    /** The routes only the soak runs: media, every platform, bulk CSV, queue, dashboard, MCP. */
    async function soakSteps() {
      const connectWith = async (platform: string, consent: Record<string, string>, query = '') => {
        const redirect = 'https://bench.example.com/cb';
        const startAnswer = await call('GET', `/v1/connect/${platform}?redirect_url=${encodeURIComponent(redirect)}${query}`);
        if (startAnswer.status !== 200) throw new Error(`connect ${platform}: ${JSON.stringify(startAnswer.body)}`);
        const { code, state } = await approveConsent(startAnswer.body.authUrl, consent);
        const done = await call('POST', `/v1/connect/${platform}`, { code, state, redirect_url: redirect });
        if (done.status !== 200) throw new Error(`connect ${platform}: ${JSON.stringify(done.body)}`);
        return (done.body.accounts as { accountId: string }[]).map((a) => a.accountId);
      };
      const accounts: Record<string, string[]> = { facebook: pages, threads, twitter: xs };
      // Instagram allows 50 API posts per account in 24 hours, YouTube some 50 uploads per channel a day.
      accounts.instagram = await connectWith('instagram', { sandbox_pages: '20', sandbox_user: 'soak_ig' });
      accounts.tiktok = [];
      // TikTok allows 15 posts a day per creator, LinkedIn 150, Mastodon 300 in 3 hours: accounts enough.
      for (let i = 0; i < 12; i++) accounts.tiktok.push(...(await connectWith('tiktok', { sandbox_user: `soak_tt_${i}` })));
      accounts.linkedin = [];
      for (let i = 0; i < 3; i++) accounts.linkedin.push(...(await connectWith('linkedin', { sandbox_user: `soak_li_${i}` })));
      accounts.youtube = [];
      for (let i = 0; i < 3; i++) accounts.youtube.push(...(await connectWith('youtube', { sandbox_user: `soak_yt_${i}` })));
      accounts.pinterest = [];
      for (let i = 0; i < 2; i++) accounts.pinterest.push(...(await connectWith('pinterest', { sandbox_user: `soak_pin_${i}` })));
      accounts.mastodon = [];
      for (let i = 0; i < 4; i++) accounts.mastodon.push(...(await connectWith('mastodon', { sandbox_user: `soak_ma_${i}` }, `&instance=${encodeURIComponent(`${emulators.url}/mastodon`)}`)));
      accounts.bluesky = [];
      for (let i = 0; i < 3; i++) {
        const r = await call('POST', '/v1/connect/bluesky', { identifier: `soak-${i}.bsky.social`, appPassword: 'abcd-efgh-ijkl-mnop', service: `${emulators.url}/bluesky` });
        if (r.status !== 200) throw new Error(`connect bluesky: ${JSON.stringify(r.body)}`);
        accounts.bluesky.push(...(r.body.accounts as { accountId: string }[]).map((a) => a.accountId));
      }
      // A Pinterest pin needs a board: the validation answer names the account's boards.
      const boards = new Map<string, string>();
      for (const accountId of accounts.pinterest) {
        const v = await call('POST', '/v1/posts/validate', { content: 'board?', publishNow: true, mediaItems: [{ type: 'image', url: `${receiverUrl}/media/a.jpg` }], platforms: [{ platform: 'pinterest', accountId }] });
        const m = /(\d+) \(/.exec(JSON.stringify(v.body));
        if (!m) throw new Error(`no Pinterest board in ${JSON.stringify(v.body)}`);
        boards.set(accountId, m[1]!);
      }

      const fx = fixtures!;
      const square = readFileSync(await fx.image('square.jpg', { width: 1080, height: 1080, format: 'jpeg' }));
      const wide = readFileSync(await fx.image('wide.png', { width: 1200, height: 800, format: 'png' }));
      const video = (await ffmpegAvailable()) ? readFileSync(await fx.video('vertical.mp4', { width: 540, height: 960, seconds: 4, faststart: true })) : null;
      served.set('a.jpg', { bytes: square, type: 'image/jpeg' });
      served.set('b.png', { bytes: wide, type: 'image/png' });
      const images: string[] = [];
      const videos: string[] = [];
      /** Media no post uses: imports and some uploads, for PATCH and DELETE. */
      const spare: string[] = [];
      const counts = { uploaded: 0, imported: 0, videos: 0 };
      const remember = (list: string[], id: string, max = 40) => {
        list.push(id);
        if (list.length > max) list.shift();
      };
      const upload = async (bytes: Buffer, filename: string, type: string) =>
        call('POST', '/v1/media', undefined, { 'idempotency-key': randomUUID() }, {
          raw: () => {
            const form = new FormData();
            form.append('altText', `soak ${filename}`);
            form.append('file', new Blob([bytes], { type }), filename);
            return { body: form };
          },
        });
      // Enough library media before the mix starts.
      for (let i = 0; i < 4; i++) {
        const r = await upload(square, 'seed.jpg', 'image/jpeg');
        if (r.status !== 201) throw new Error(`upload: ${JSON.stringify(r.body)}`);
        images.push(r.body.id);
      }
      if (video) {
        const r = await upload(video, 'seed.mp4', 'video/mp4');
        if (r.status !== 201) throw new Error(`video upload: ${JSON.stringify(r.body)}`);
        videos.push(r.body.id);
      }
      const onFacebook: string[] = [];
      const queued: string[] = [];
      const mcpDrafts: string[] = [];
      /** Scheduled a minute or more ahead (PATCH moves them, racing the scheduler near the end). */
      const ahead: string[] = [];

      const created201 = (r: Answer, list?: string[]) => {
        if (r.status === 201 && list) list.push(r.body.id);
        return { status: r.status, ok: r.status === 201, note: r.status === 201 ? undefined : JSON.stringify(r.body).slice(0, 300) };
      };
      /** A post on one platform, published now or scheduled a few seconds ahead. */
      const onPlatform = (platform: string, perSecond: number, make: () => Record<string, unknown> | null): Step[] => [
        {
          route: `POST /v1/posts (${platform}, publishNow)`,
          weight: 0,
          perSecond: perSecond / 2,
          run: async () => {
            const body = make();
            if (!body) return { status: 200, ok: true };
            const r = await createPost({ ...body, publishNow: true });
            if (r.status === 201) {
              posts.push(r.body.id);
              if (platform === 'facebook' && r.body.status === 'published') onFacebook.push(r.body.id);
            }
            const ok = publishedOrWaiting(r);
            const reconciling = !ok && r.cutOff && r.status === 201 && r.body.status === 'publishing';
            return { status: r.status, ok: ok || reconciling, note: ok ? undefined : JSON.stringify(r.body).slice(0, 400), refusal: reconciling ? 'publishNow resent after a kill: 201 publishing, outcome being reconciled' : undefined };
          },
        },
        {
          route: `POST /v1/posts (${platform}, scheduled)`,
          weight: 0,
          perSecond: perSecond / 2,
          run: async () => {
            const body = make();
            if (!body) return { status: 200, ok: true };
            return created201(await createPost({ ...body, scheduledFor: new Date(Date.now() + lead + Math.random() * 20_000).toISOString() }), posts);
          },
        },
      ];
      const text = (platform: string) => `soak ${platform} ${n++} ${randomUUID()}`;
      const image = () => (images.length > 0 ? [{ mediaId: pick(images) }] : null);
      const steps: Step[] = [
        // Media library on S3.
        {
          route: 'POST /v1/media (multipart image)',
          weight: 0,
          perSecond: 0.3,
          run: async () => {
            const r = await upload(Math.random() < 0.5 ? square : wide, 'photo.jpg', 'image/jpeg');
            if (r.status === 201) {
              counts.uploaded++;
              if (r.body.width === r.body.height) remember(images, r.body.id);
              else remember(spare, r.body.id);
            }
            return created201(r);
          },
        },
        ...(video
          ? [
              {
                route: 'POST /v1/media (multipart video)',
                weight: 0,
                perSecond: 0.03,
                run: async () => {
                  const r = await upload(video, 'clip.mp4', 'video/mp4');
                  if (r.status === 201) counts.videos++, remember(videos, r.body.id, 10);
                  return created201(r);
                },
              },
            ]
          : []),
        {
          route: 'POST /v1/media/import',
          weight: 0,
          perSecond: 0.1,
          run: async () => {
            const r = await call('POST', '/v1/media/import', { url: `${receiverUrl}/media/${Math.random() < 0.5 ? 'a.jpg' : 'b.png'}`, altText: 'imported' }, { 'idempotency-key': randomUUID() });
            if (r.status === 201) counts.imported++, remember(spare, r.body.id);
            return created201(r);
          },
        },
        { route: 'GET /v1/media', weight: 0, perSecond: 0.2, run: async () => ok200(await call('GET', '/v1/media?limit=20')) },
        { route: 'GET /v1/media/{id}', weight: 0, perSecond: 0.2, run: async () => (images.length === 0 ? { status: 200, ok: true } : ok200(await call('GET', `/v1/media/${pick(images)}`))) },
        {
          route: 'PATCH /v1/media/{id}',
          weight: 0,
          perSecond: 0.1,
          run: async () => (spare.length === 0 ? { status: 200, ok: true } : ok200(await call('PATCH', `/v1/media/${pick(spare)}`, { altText: `alt ${n++}` }))),
        },
        {
          route: 'DELETE /v1/media/{id}',
          weight: 0,
          perSecond: 0.05,
          run: async () => {
            const id = spare.shift();
            if (!id) return { status: 200, ok: true };
            const r = await call('DELETE', `/v1/media/${id}`);
            return { status: r.status, ok: r.status === 200 || (r.cutOff && r.status === 404), note: JSON.stringify(r.body).slice(0, 200) };
          },
        },
        // Every platform, library media where the platform takes it.
        ...onPlatform('facebook', 0.3, () => ({ content: text('facebook'), mediaItems: image() ?? undefined, platforms: [{ platform: 'facebook', accountId: pick(pages) }] })),
        ...onPlatform('instagram', 0.3, () => (images.length === 0 ? null : { content: text('instagram'), mediaItems: image(), platforms: [{ platform: 'instagram', accountId: pick(accounts.instagram!) }] })),
        ...onPlatform('threads', 0.1, () => ({ content: text('threads'), mediaItems: image() ?? undefined, platforms: [{ platform: 'threads', accountId: pick(threads) }] })),
        ...onPlatform('twitter', 0.1, () => ({ content: text('twitter'), mediaItems: image() ?? undefined, platforms: [{ platform: 'twitter', accountId: pick(xs) }] })),
        ...onPlatform('linkedin', 0.2, () => ({ content: text('linkedin'), mediaItems: image() ?? undefined, platforms: [{ platform: 'linkedin', accountId: pick(accounts.linkedin!) }] })),
        ...onPlatform('pinterest', 0.2, () => {
          if (images.length === 0) return null;
          const accountId = pick(accounts.pinterest!);
          return { content: text('pinterest'), mediaItems: image(), platforms: [{ platform: 'pinterest', accountId, platformSpecificData: { boardId: boards.get(accountId), title: `soak pin ${n}` } }] };
        }),
        ...onPlatform('mastodon', 0.2, () => ({ content: text('mastodon'), mediaItems: image() ?? undefined, platforms: [{ platform: 'mastodon', accountId: pick(accounts.mastodon!) }] })),
        ...onPlatform('bluesky', 0.2, () => ({ content: text('bluesky'), mediaItems: image() ?? undefined, platforms: [{ platform: 'bluesky', accountId: pick(accounts.bluesky!) }] })),
        ...(video
          ? [
              // TikTok: 15 posts a day per creator; YouTube: 100 uploads a day per project.
              ...onPlatform('tiktok', 0.04, () => (videos.length === 0 ? null : { content: text('tiktok'), mediaItems: [{ mediaId: pick(videos) }], tiktokSettings: { privacyLevel: 'SELF_ONLY' }, platforms: [{ platform: 'tiktok', accountId: pick(accounts.tiktok!) }] })),
              ...onPlatform('youtube', 0.03, () => {
                if (videos.length === 0) return null;
                const content = text('youtube');
                return { content, mediaItems: [{ mediaId: pick(videos) }], platforms: [{ platform: 'youtube', accountId: pick(accounts.youtube!), platformSpecificData: { title: content.slice(0, 90), madeForKids: false, privacyStatus: 'unlisted' } }] };
              }),
            ]
          : []),
        {
          route: 'POST /v1/posts (scheduled ahead)',
          weight: 0,
          perSecond: 0.2,
          run: async () => created201(await createPost({ content: text('ahead'), scheduledFor: new Date(Date.now() + 30_000 + Math.random() * 30_000).toISOString(), platforms: [{ platform: 'facebook', accountId: pick(pages) }] }), ahead),
        },
        {
          route: 'PATCH /v1/posts/{id} (scheduled)',
          weight: 0,
          perSecond: 0.2,
          run: async () => {
            const id = ahead.shift();
            if (!id) return { status: 200, ok: true };
            // Moved a few seconds, sometimes as the scheduler takes it: 409 POST_NOT_EDITABLE is the promised answer then.
            const r = await call('PATCH', `/v1/posts/${id}`, { scheduledFor: new Date(Date.now() + lead + Math.random() * 10_000).toISOString() }, { 'idempotency-key': randomUUID() });
            posts.push(id);
            const refused = r.status === 409 && r.body.code === 'POST_NOT_EDITABLE';
            return { status: r.status, ok: r.status === 200 || refused, note: JSON.stringify(r.body).slice(0, 200), refusal: refused ? 'PATCH: 409 POST_NOT_EDITABLE' : undefined };
          },
        },
        {
          route: 'POST /v1/posts/validate (library media)',
          weight: 0,
          perSecond: 0.1,
          run: async () => {
            const r = await call('POST', '/v1/posts/validate', { content: text('validate'), publishNow: true, mediaItems: image() ?? undefined, platforms: [{ platform: 'instagram', accountId: pick(accounts.instagram!) }, { platform: 'bluesky', accountId: pick(accounts.bluesky!) }] });
            return { status: r.status, ok: r.status === 200 && r.body.valid === true, note: JSON.stringify(r.body).slice(0, 300) };
          },
        },
        {
          route: 'POST /v1/posts/{id}/unpublish (facebook)',
          weight: 0,
          perSecond: 0.05,
          run: async () => {
            const id = onFacebook.shift();
            if (!id) return { status: 200, ok: true };
            const r = await call('POST', `/v1/posts/${id}/unpublish`, {});
            return { status: r.status, ok: r.status === 200 && r.body.platforms.every((p: { unpublished: boolean }) => p.unpublished), note: JSON.stringify(r.body).slice(0, 300) };
          },
        },
        // Bulk: JSON with scheduled rows, and CSV.
        {
          route: 'POST /v1/posts/bulk (JSON, scheduled)',
          weight: 0,
          perSecond: 0.05,
          run: async () => {
            const at = () => new Date(Date.now() + lead + Math.random() * 20_000).toISOString();
            const r = await call('POST', '/v1/posts/bulk', { posts: [1, 2, 3, 4, 5].map(() => ({ content: text('bulk'), scheduledFor: at(), platforms: [target()] })) }, { 'idempotency-key': randomUUID() });
            if (r.status === 200) for (const row of r.body.results) if (row.id) posts.push(row.id), created.add(row.id);
            return { status: r.status, ok: r.status === 200 && r.body.failed === 0, note: JSON.stringify(r.body).slice(0, 300) };
          },
        },
        {
          route: 'POST /v1/posts/bulk (CSV)',
          weight: 0,
          perSecond: 0.05,
          run: async () => {
            const at = () => new Date(Date.now() + lead + Math.random() * 20_000).toISOString();
            const rows = [
              'content,scheduledFor,platforms,tags,isDraft',
              `"csv, draft ${n++} ${randomUUID()}",,,soak;csv,true`,
              `"csv ""scheduled"" ${n++} ${randomUUID()}",${at()},facebook:${pick(pages)},soak,false`,
              `csv threads ${n++} ${randomUUID()},${at()},threads:${pick(threads)};facebook:${pick(pages)},,false`,
            ];
            const csv = `${rows.join('\r\n')}\r\n`;
            const r = await call('POST', '/v1/posts/bulk', undefined, { 'idempotency-key': randomUUID() }, { raw: () => ({ body: csv, contentType: 'text/csv' }) });
            if (r.status === 200) for (const row of r.body.results) if (row.id) posts.push(row.id), created.add(row.id);
            return { status: r.status, ok: r.status === 200 && r.body.failed === 0 && r.body.created === 3, note: JSON.stringify(r.body).slice(0, 300) };
          },
        },
        // The queue.
        {
          route: 'POST /v1/posts (queue)',
          weight: 0,
          perSecond: 0.05,
          run: async () => created201(await createPost({ content: text('queued'), queue: true, platforms: [{ platform: 'facebook', accountId: pick(pages) }] }), queued),
        },
        {
          route: 'DELETE /v1/posts/{id} (queued)',
          weight: 0,
          perSecond: 0.05,
          run: async () => {
            const id = queued.shift();
            if (!id) return { status: 200, ok: true };
            created.delete(id);
            const r = await call('DELETE', `/v1/posts/${id}`);
            return { status: r.status, ok: r.status === 200 || (r.cutOff && r.status === 404) };
          },
        },
        { route: 'PUT /v1/queue', weight: 0, perSecond: 0.01, run: async () => ok200(await call('PUT', '/v1/queue', { timezone: 'UTC', slots: ['mon', 'wed', 'fri'].map((day) => ({ day, time: '09:00' })) })) },
        // The dashboard: a whole session, and calls on a long-lived one.
        {
          route: 'dashboard session (sign in, 5 calls, sign out)',
          weight: 0,
          perSecond: 0.05,
          run: async () => {
            const s = await signIn();
            if ('status' in s) return s;
            for (const [method, path, body] of [
              ['GET', '/app/api/session'],
              ['GET', `/app/api/calendar?from=${new Date(Date.now() - 86_400_000).toISOString()}&to=${new Date(Date.now() + 86_400_000).toISOString()}`],
              ['GET', '/v1/posts?limit=20'],
              ['POST', '/v1/posts/validate', { content: text('dashboard'), publishNow: true, platforms: [target()] }],
              ['GET', '/v1/accounts'],
            ] as [string, string, unknown?][]) {
              const r = await call(method, path, body, {}, { session: s });
              if (r.status !== 200) return { status: r.status, ok: false, note: `${method} ${path}: ${JSON.stringify(r.body).slice(0, 200)}` };
            }
            const out = await call('DELETE', '/app/api/session', undefined, {}, { session: s });
            return { status: out.status, ok: out.status === 200 };
          },
        },
        {
          route: 'dashboard GET /app/api/calendar',
          weight: 0,
          perSecond: 0.2,
          run: async () => ok200(await call('GET', `/app/api/calendar?from=${new Date(Date.now() - 7 * 86_400_000).toISOString()}&to=${new Date(Date.now() + 7 * 86_400_000).toISOString()}`, undefined, {}, { session: await session() })),
        },
        {
          route: 'dashboard POST /v1/posts (draft)',
          weight: 0,
          perSecond: 0.1,
          run: async () => {
            const r = await call('POST', '/v1/posts', { content: text('dashboard draft'), isDraft: true }, { 'idempotency-key': randomUUID() }, { session: await session() });
            if (r.status === 201) created.add(r.body.id), drafts.push(r.body.id);
            return created201(r);
          },
        },
        {
          route: 'dashboard POST /v1/posts (publishNow)',
          weight: 0,
          perSecond: 0.1,
          run: async () => {
            const r = await call('POST', '/v1/posts', { content: text('dashboard'), publishNow: true, platforms: [target()] }, { 'idempotency-key': randomUUID() }, { session: await session() });
            if (r.status === 201) created.add(r.body.id), posts.push(r.body.id);
            const ok = publishedOrWaiting(r);
            const reconciling = !ok && r.cutOff && r.status === 201 && r.body.status === 'publishing';
            return { status: r.status, ok: ok || reconciling, note: ok ? undefined : JSON.stringify(r.body).slice(0, 300), refusal: reconciling ? 'publishNow resent after a kill: 201 publishing, outcome being reconciled' : undefined };
          },
        },
        // MCP (POST /mcp, JSON-RPC tools/call).
        { route: 'MCP list_posts', weight: 0, perSecond: 0.4, run: async () => mcp('list_posts', { limit: 20 }) },
        { route: 'MCP get_post', weight: 0, perSecond: 0.2, run: async () => (posts.length === 0 ? { status: 200, ok: true } : mcp('get_post', { postId: pick(posts) })) },
        {
          route: 'MCP create_post (publishNow)',
          weight: 0,
          perSecond: 0.1,
          run: async () => mcp('create_post', { content: text('mcp'), publishNow: true, platforms: [target()], idempotencyKey: randomUUID() }, (r) => (created.add(r.id), posts.push(r.id))),
        },
        {
          route: 'MCP create_post (draft)',
          weight: 0,
          perSecond: 0.05,
          run: async () => mcp('create_post', { content: text('mcp draft'), isDraft: true }, (r) => (created.add(r.id), mcpDrafts.push(r.id))),
        },
        {
          route: 'MCP update_post',
          weight: 0,
          perSecond: 0.03,
          run: async () => {
            const id = mcpDrafts.pop();
            if (!id) return { status: 200, ok: true };
            try {
              return await mcp('update_post', { postId: id, content: text('mcp edited'), idempotencyKey: randomUUID() });
            } finally {
              mcpDrafts.push(id);
            }
          },
        },
        {
          route: 'MCP delete_post',
          weight: 0,
          perSecond: 0.02,
          run: async () => {
            const id = mcpDrafts.shift();
            if (!id) return { status: 200, ok: true };
            created.delete(id);
            return mcp('delete_post', { postId: id });
          },
        },
        { route: 'MCP validate_post', weight: 0, perSecond: 0.05, run: async () => mcp('validate_post', { content: text('mcp check'), publishNow: true, platforms: [target()] }) },
        { route: 'MCP list_accounts', weight: 0, perSecond: 0.05, run: async () => mcp('list_accounts', {}) },
        { route: 'MCP accounts_health', weight: 0, perSecond: 0.01, run: async () => mcp('accounts_health', {}) },
        { route: 'MCP get_queue', weight: 0, perSecond: 0.05, run: async () => mcp('get_queue', {}) },
        { route: 'MCP list_media', weight: 0, perSecond: 0.05, run: async () => mcp('list_media', { limit: 20 }) },
        {
          route: 'MCP import_media',
          weight: 0,
          perSecond: 0.02,
          run: async () => mcp('import_media', { url: `${receiverUrl}/media/b.png` }, (r) => (counts.imported++, remember(spare, r.id))),
        },
        { route: 'MCP retry_post', weight: 0, perSecond: 0.02, run: async () => (posts.length === 0 ? { status: 200, ok: true } : mcp('retry_post', { postId: pick(posts), idempotencyKey: randomUUID() })) },
      ];

      let longSession: Session | null = null;
      async function signIn(): Promise<Session | { status: number; ok: false; note: string }> {
        const r = (await call('POST', '/app/api/session', { key }, {}, { noAuth: true })) as Answer & { setCookie?: string | null };
        const cookie = /herald_session=([^;]+)/.exec(r.setCookie ?? '');
        if (r.status !== 200 || !cookie) return { status: r.status, ok: false, note: `sign-in: ${JSON.stringify(r.body).slice(0, 200)}` };
        return { cookie: `herald_session=${cookie[1]}`, csrf: r.body.csrfToken };
      }
      async function session(): Promise<Session> {
        if (longSession) return longSession;
        const s = await signIn();
        if ('status' in s) throw new Error(s.note);
        return (longSession = s);
      }
      let rpc = 0;
      /** One MCP tool call; expected refusals (nothing failed to retry, a post already publishing) are answers too. */
      async function mcp(name: string, args: Record<string, unknown>, onResult?: (r: any) => void) {
        const r = await call('POST', '/mcp', { jsonrpc: '2.0', id: ++rpc, method: 'tools/call', params: { name, arguments: args } }, { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' });
        const result = r.body?.result;
        if (r.status === 200 && result && !result.isError) {
          onResult?.(result.structuredContent);
          return { status: 200, ok: true };
        }
        const textOut = JSON.stringify(r.body ?? '').slice(0, 300);
        const refused = /NO_FAILED_TARGETS|CONFLICT/.exec(textOut);
        return { status: r.status, ok: Boolean(refused), note: textOut, refusal: refused ? `MCP ${name}: ${refused[0]}` : undefined };
      }

      return { steps, accounts, counts };
    }
    if (soakState) steps.push(...soakState.steps);
    // SOAK_ROUTES (a regular expression): only the routes it matches, to find which of them raises memory.
    if (soak && process.env.SOAK_ROUTES) {
      const only = new RegExp(process.env.SOAK_ROUTES);
      steps.splice(0, steps.length, ...steps.filter((s) => only.test(s.route)));
      if (steps.length === 0) throw new Error(`SOAK_ROUTES ${process.env.SOAK_ROUTES} matches no route`);
    }

    const latencies = new Map<string, number[]>();
    const unexpected: string[] = [];
    const unexpectedByRoute = new Map<string, number>();
    const unexpectedKinds = new Map<string, number>();
    const fiveXxByRoute = new Map<string, number>();
    const fiveXxSamples: string[] = [];
    let rateLimited = 0;
    let total = 0;
    let skipped = 0;
    await sample();
    const sampler = setInterval(() => void sample(), soak ? 10_000 : 5000);
    const loadStart = Date.now();
    const deadline = loadStart + seconds * 1000;
    const kills: string[] = [];
    let stopKilling = false;
    const killer = (async () => {
      if (!split || options.kill === false) return;
      const plan: [string, number][] = soak
        ? Array.from({ length: Math.floor((seconds - 30) / (soak.killEverySeconds ?? 300)) }, (_, i) => [pick(['api-1', 'api-2', 'worker-1', 'worker-2']), ((i + 1) * (soak.killEverySeconds ?? 300)) / seconds])
        : [
            ['worker-1', 0.4],
            ['api-1', 0.6],
          ];
      for (const [name, at] of plan) {
        await new Promise((r) => setTimeout(r, Math.max(0, loadStart + at * seconds * 1000 - Date.now())));
        if (stopKilling) return;
        const proc = procs.get(name)!;
        procs.delete(name);
        proc.child.kill('SIGKILL');
        const life = lives.findLast((l) => l.proc === proc)!;
        life.to = (Date.now() - started) / 1000;
        life.killed = true;
        kills.push(`${name} at ${Math.round((Date.now() - loadStart) / 1000)} s`);
        await new Promise((r) => setTimeout(r, 3000));
        await start(name);
      }
    })();
    const record = (step: Step, r: { status: number; ok: boolean; note?: string; refusal?: string }, ms: number) => {
      total++;
      (latencies.get(step.route) ?? latencies.set(step.route, []).get(step.route)!).push(ms);
      if (r.refusal) refusals.set(r.refusal, (refusals.get(r.refusal) ?? 0) + 1);
      if (r.status >= 500) {
        fiveXxByRoute.set(step.route, (fiveXxByRoute.get(step.route) ?? 0) + 1);
        if (fiveXxSamples.length < 50) fiveXxSamples.push(`${step.route} → ${r.status} ${r.note ?? ''}`);
      }
      if (r.status === 429) rateLimited++;
      else if (!r.ok) {
        unexpectedByRoute.set(step.route, (unexpectedByRoute.get(step.route) ?? 0) + 1);
        const code = /"code":"([^"]+)"/.exec(r.note ?? '')?.[1] ?? '';
        const kind = `${step.route} → ${r.status} ${code}`.trim();
        unexpectedKinds.set(kind, (unexpectedKinds.get(kind) ?? 0) + 1);
        if (unexpected.length < (soak ? 60 : 8) && (!soak || unexpectedKinds.get(kind)! <= 3)) unexpected.push(`${step.route} → ${r.status} ${r.note ?? ''}`);
      }
    };
    const runStep = async (step: Step) => {
      const t0 = performance.now();
      const r = await step.run().catch((err: Error) => ({ status: 0, ok: false, note: err.message }));
      record(step, r, performance.now() - t0);
    };
    const client = async () => {
      while (Date.now() < deadline) {
        const step = choose();
        await runStep(step);
      }
    };
    const totalWeight = steps.reduce((s, x) => s + x.weight, 0);
    const choose = () => {
      let r = Math.random() * totalWeight;
      for (const s of steps) if ((r -= s.weight) < 0) return s;
      return steps[0]!;
    };
    const rate = soak?.rate ?? 1;
    /** The soak: each route at its own steady pace, whatever the answers' speed (at most 8 of one route in flight). */
    const paced = async (step: Step) => {
      const interval = 1000 / ((step.perSecond ?? 0) * rate);
      let next = loadStart + Math.random() * interval;
      const inFlight = new Set<Promise<void>>();
      while (next < deadline) {
        await new Promise((r) => setTimeout(r, Math.max(0, next - Date.now())));
        next += interval;
        if (inFlight.size >= 8) {
          skipped++;
          continue;
        }
        const p = runStep(step).finally(() => inFlight.delete(p));
        inFlight.add(p);
      }
      await Promise.all(inFlight);
    };
    if (soak) await Promise.all(steps.filter((s) => (s.perSecond ?? 0) > 0).map(paced));
    else await Promise.all(Array.from({ length: clients }, client));
    stopKilling = true;
    await killer;
    const elapsed = (Date.now() - loadStart) / 1000;
    const loadEnd = (Date.now() - started) / 1000;
    clearInterval(sampler);
    await sample();

    // Let scheduled posts, retries and webhooks catch up, then read the end state.
    const db = openDatabase({ dataDir: database.dataDir, databaseUrl: database.databaseUrl });
    let check: LoadFigures['check'];
    let ledgerFigures: Pick<SoakFigures, 'targets' | 'failedTargets' | 'notFinal' | 'lost' | 'duplicatesByEmulator' | 'duplicateSamples' | 'ledgerEntries'> | null = null;
    try {
      const settleBy = Date.now() + (soak ? 180_000 : 120_000);
      let open = 0;
      let waitingForCap = 0;
      let openByCode: Record<string, number> = {};
      for (;;) {
        // Queued posts wait for their slot days ahead: not open work.
        const rows = await db.kysely
          .selectFrom('post_targets')
          .innerJoin('posts', 'posts.id', 'post_targets.post_id')
          .select(['post_targets.status', 'post_targets.error_code', 'post_targets.error', 'post_targets.platform', 'posts.scheduled_for'])
          .where('post_targets.status', 'in', ['pending', 'publishing'])
          .execute();
        const near = rows.filter((r) => r.scheduled_for === null || r.scheduled_for < Date.now() + 3_600_000);
        const waiting = near.filter((r) => r.status === 'pending' && WAITING_CODES.includes(r.error_code ?? ''));
        waitingForCap = waiting.length;
        open = near.length - waitingForCap;
        openByCode = {};
        for (const r of near) {
          const k = `${r.platform} ${r.status} ${r.error_code ?? '-'}: ${(r.error ?? '').slice(0, 100)}`;
          openByCode[k] = (openByCode[k] ?? 0) + 1;
        }
        if (open === 0 || Date.now() > settleBy) break;
        await new Promise((r) => setTimeout(r, 1000));
      }
      const ids = [...created];
      let found = 0;
      for (let i = 0; i < ids.length; i += 500) {
        const chunk = ids.slice(i, i + 500);
        found += (await db.kysely.selectFrom('posts').select('id').where('id', 'in', chunk).execute()).length;
      }
      // Every text is unique: a text a platform holds twice was posted twice.
      let duplicates = 0;
      const duplicatesByEmulator: Record<string, number> = {};
      const duplicateSamples: string[] = [];
      const ledgerEntries: Record<string, number> = {};
      /** The unique tokens (UUIDs) each emulator holds, in any entry (posts, edits, pins, videos). */
      const tokens = new Map<string, Set<string>>();
      for (const mount of emulators.mounts) {
        const ledger = ((await (await fetch(`${emulators.url}/${mount}/__sandbox/ledger`)).json()) as { posts: { accountId: string; kind: string; text: string }[] }).posts;
        ledgerEntries[mount] = ledger.length;
        const seen = new Set<string>();
        const held = new Set<string>();
        for (const e of ledger) {
          for (const t of JSON.stringify(e).match(UUID_RE) ?? []) held.add(t);
          if (!soak && e.kind !== 'post') continue;
          const k = `${e.accountId}|${e.kind}|${e.text}`;
          if (seen.has(k)) {
            duplicates++;
            duplicatesByEmulator[mount] = (duplicatesByEmulator[mount] ?? 0) + 1;
            if (duplicateSamples.length < 10) duplicateSamples.push(`${mount}: ${k.slice(0, 200)}`);
          }
          seen.add(k);
        }
        tokens.set(mount, held);
      }
      check = { created: ids.length, missing: ids.length - found, open, waitingForCap, duplicates };
      if (soak) {
        const targets: Record<string, Record<string, number>> = {};
        const failedTargets: Record<string, number> = {};
        const lost: string[] = [];
        let checked = 0;
        const rows = await db.kysely
          .selectFrom('post_targets')
          .innerJoin('posts', 'posts.id', 'post_targets.post_id')
          .select(['post_targets.platform', 'post_targets.status', 'post_targets.error_code', 'post_targets.error', 'post_targets.custom_content', 'posts.content', 'posts.id', 'posts.scheduled_for'])
          .execute();
        for (const r of rows) {
          // A queued post waits for its slot, days ahead.
          const status = r.status === 'pending' && r.scheduled_for !== null && r.scheduled_for > Date.now() + 3_600_000 ? 'queued' : r.status;
          (targets[r.platform] ??= {})[status] = (targets[r.platform]![status] ?? 0) + 1;
          if (r.status === 'failed') {
            const k = `${r.platform}: ${r.error_code} ${(r.error ?? '').slice(0, 120)}`;
            failedTargets[k] = (failedTargets[k] ?? 0) + 1;
          }
          if (r.status !== 'published') continue;
          const token = (r.custom_content ?? r.content ?? '').match(UUID_RE)?.at(-1);
          if (!token) continue;
          checked++;
          if (!tokens.get(MOUNT_OF[r.platform] ?? r.platform)?.has(token)) lost.push(`${r.platform} ${r.id} (${token})`);
        }
        ledgerFigures = { targets, failedTargets, notFinal: openByCode, lost: { count: lost.length, checked, samples: lost.slice(0, 20) }, duplicatesByEmulator, duplicateSamples, ledgerEntries };
      }
    } finally {
      await db.close();
    }
    await sample();
    const published = await emulators.published();
    const routes: Record<string, RouteFigures> = {};
    for (const [route, xs] of latencies) {
      routes[route] = { requests: xs.length, p50Ms: Math.round(percentile(xs, 50) * 10) / 10, p99Ms: Math.round(percentile(xs, 99) * 10) / 10, unexpected: unexpectedByRoute.get(route) ?? 0 };
    }
    const at120 = memory.find((m) => m.atSeconds >= 120) ?? memory[0]!;
    const last = memory.at(-1)!;
    const memoryGrowth = Object.fromEntries([...steady].map((name) => [name, Math.round(((last.rssMb[name] ?? NaN) / (at120.rssMb[name] ?? NaN)) * 100) / 100]));
    let soakFigures: SoakFigures | undefined;
    if (soak && soakState && ledgerFigures) {
      const now = (Date.now() - started) / 1000;
      // Memory under load: up to the end of the load (while the last posts settle, nothing is asked of the API).
      const processes: ProcessMemory[] = lives.map((l) => {
        const to = Math.min(l.to ?? now, loadEnd);
        const underLoad = l.samples.filter((p) => p.t <= to);
        const window = underLoad.filter((p) => p.t >= to - 20 * 60);
        const mbs = underLoad.map((p) => p.mb);
        const r1 = (x: number) => Math.round(x * 10) / 10;
        return {
          name: l.name,
          pid: l.proc.child.pid ?? 0,
          fromSeconds: Math.round(l.from),
          toSeconds: Math.round(to),
          startMb: r1(mbs[0] ?? NaN),
          endMb: r1(mbs.at(-1) ?? NaN),
          maxMb: r1(Math.max(...mbs)),
          slopeMbPerMinute: Math.round(slope(window.map((p) => ({ t: p.t / 60, mb: p.mb }))) * 100) / 100,
          slopeOverMinutes: r1(window.length > 1 ? (window.at(-1)!.t - window[0]!.t) / 60 : 0),
          killed: l.killed,
          heapTotalMb: [r1(underLoad[0]?.heapTotal ?? NaN), r1(underLoad.at(-1)?.heapTotal ?? NaN)],
          externalMb: [r1(underLoad[0]?.external ?? NaN), r1(underLoad.at(-1)?.external ?? NaN)],
          outsideSlopeMbPerMinute:
            Math.round(slope(window.filter((p) => p.heapTotal !== undefined && p.external !== undefined).map((p) => ({ t: p.t / 60, mb: p.mb - p.heapTotal! - p.external! }))) * 100) / 100,
          extraEnv: l.extraEnv,
          series: underLoad.map((p) => [Math.round(p.t), r1(p.mb), p.heapTotal === undefined ? null : r1(p.heapTotal), p.external === undefined ? null : r1(p.external)]),
        };
      });
      soakFigures = {
        killEverySeconds: soak.killEverySeconds ?? 300,
        targetRate: Math.round(steps.reduce((a, s) => a + (s.perSecond ?? 0), 0) * rate * 10) / 10,
        skipped,
        fiveXx: { count: [...fiveXxByRoute.values()].reduce((a, b) => a + b, 0), byRoute: Object.fromEntries(fiveXxByRoute), samples: fiveXxSamples },
        unexpectedKinds: Object.fromEntries(unexpectedKinds),
        refusals: Object.fromEntries(refusals),
        platforms: Object.keys(soakState.accounts),
        accounts: Object.fromEntries(Object.entries(soakState.accounts).map(([p, a]) => [p, a.length])),
        ...ledgerFigures,
        media: { ...soakState.counts, s3Objects: (await s3!.objectKeys()).length },
        processes,
        loadAverage: { before: loadAverageBefore, after: loadavg().map((x) => Math.round(x * 100) / 100) },
      };
    }
    return {
      database: database.kind,
      seconds,
      clients: soak ? 0 : clients,
      processes: split ? 'two API processes and two workers (PostgreSQL), emulators in their own process' : 'one Herald process (SQLite), emulators in their own process',
      requestsPerSecond: Math.round(total / elapsed),
      routes,
      unexpected: { count: [...unexpectedByRoute.values()].reduce((a, b) => a + b, 0), samples: unexpected },
      rateLimited,
      resent,
      kills,
      webhooksReceived,
      published,
      memory,
      memoryGrowth,
      check,
      load: { before: loadBefore, after: load1() },
      soak: soakFigures,
    };
  } finally {
    for (const p of procs.values()) await p.stop();
    await emulators.stop();
    receiver.close();
    await database.drop();
    await s3?.close();
    await fixtures?.cleanup();
  }
}

const f0 = (n: number) => Math.round(n).toLocaleString('en-US');
const TARGET_COLUMNS = ['published', 'unpublished', 'failed', 'pending', 'publishing', 'queued'];

/** The soak's section of bench/RESULTS.md. */
export function soakSection(l: LoadFigures, meta: { date: string; commit: string; machine: string }): string[] {
  const s = l.soak!;
  const minutes = Math.round((l.seconds / 60) * 10) / 10;
  const verdict = (ok: boolean) => (ok ? 'met' : '**not met**');
  const herald = s.processes;
  // Flat: no process that lived 10 minutes or more grew by more than 1 MB a minute over its last 20.
  const judged = herald.filter((p) => p.slopeOverMinutes >= 10);
  const flat = judged.length > 0 && judged.every((p) => p.slopeMbPerMinute <= 1);
  return [
    `## Soak (issue 19): ${minutes} minutes on PostgreSQL, two workers, s3`,
    '',
    `Run on ${meta.date} at commit \`${meta.commit}\` by \`npm run soak\`. Machine: ${meta.machine}, **shared with other work** (other developers' builds and tests ran meanwhile): load average (1/5/15 min) ${s.loadAverage.before.join(' / ')} before, ${s.loadAverage.after.join(' / ')} after.`,
    '',
    `${l.processes}; PostgreSQL started by the bench (fsync off); the \`s3\` media store on s3rver (the tests' S3-compatible server) in the bench process. Every route at a steady pace (${s.targetRate} requests/s asked, ${f0(l.requestsPerSecond)} done on average; ${f0(s.skipped)} not sent because 8 of that route were still in flight) across ${s.platforms.length} platforms (${Object.entries(s.accounts).map(([p, n]) => `${p} ${n}`).join(', ')} accounts). Media: ${f0(s.media.uploaded)} images and ${f0(s.media.videos)} videos uploaded (multipart), ${f0(s.media.imported)} imported by URL; ${f0(s.media.s3Objects)} objects in the bucket at the end.`,
    '',
    `Killed with SIGKILL every ${s.killEverySeconds % 60 === 0 ? `${s.killEverySeconds / 60} minutes` : `${s.killEverySeconds} s`}, a process picked at random, started again 3 s later: ${l.kills.join(', ') || 'none'}. ${l.resent} requests cut off by a kill were sent again to the other API process (same Idempotency-Key).`,
    '',
    '| criterion | figure | verdict |',
    '|---|---|---|',
    `| posts lost | ${l.check.missing} of ${f0(l.check.created)} created posts missing from Herald; ${s.lost.count} of ${f0(s.lost.checked)} targets published in Herald with no entry in their platform's ledger; ${l.check.open} targets not final ${l.check.open === 0 ? 'after the load' : 'three minutes after the load'} (${l.check.waitingForCap} waiting for a platform's cap or daily quota, as promised) | ${verdict(l.check.missing === 0 && s.lost.count === 0 && l.check.open === 0)} |`,
    `| posted twice | ${l.check.duplicates} (every entry of every emulator's ledger: ${Object.entries(s.ledgerEntries).map(([m, n]) => `${m} ${f0(n)}`).join(', ')}) | ${verdict(l.check.duplicates === 0)} |`,
    `| 5xx answers | ${s.fiveXx.count} | ${verdict(s.fiveXx.count === 0)} |`,
    `| memory flat | resident memory's slope over the last 20 minutes of each process that lived 10 minutes or more: ${judged.map((p) => `${p.name} ${p.slopeMbPerMinute}`).join(', ') || 'none lived that long'} MB/min (every life below) | ${verdict(flat)} (target: none above 1 MB/min) |`,
    '',
    `Other answers: ${l.rateLimited} answers 429; expected refusals ${Object.entries(s.refusals).map(([k, v]) => `${k} × ${v}`).join(', ') || 'none'}; unexpected answers ${l.unexpected.count}${Object.keys(s.unexpectedKinds).length > 0 ? ':' : '.'}`,
    ...(Object.keys(s.unexpectedKinds).length > 0 ? ['', ...Object.entries(s.unexpectedKinds).map(([k, v]) => `- \`${k}\` × ${v}`)] : []),
    ...(l.unexpected.samples.length > 0 ? ['', 'Samples:', '', ...l.unexpected.samples.map((x) => `- ${x.replace(/\n/g, ' ').replace(/\|/g, '\\|')}`)] : []),
    ...(s.fiveXx.samples.length > 0 ? ['', '5xx answers:', '', ...s.fiveXx.samples.map((x) => `- ${x.replace(/\n/g, ' ')}`)] : []),
    ...(s.lost.samples.length > 0 ? ['', 'Published without a ledger entry:', '', ...s.lost.samples.map((x) => `- ${x}`)] : []),
    ...(s.duplicateSamples.length > 0 ? ['', 'Twice on a platform:', '', ...s.duplicateSamples.map((x) => `- ${x}`)] : []),
    '',
    'Targets at the end, by platform and status:',
    '',
    '| platform | ' + TARGET_COLUMNS.join(' | ') + ' |',
    `|---|${TARGET_COLUMNS.map(() => '---').join('|')}|`,
    ...Object.entries(s.targets)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([p, by]) => `| ${p} | ${TARGET_COLUMNS.map((k) => f0(by[k] ?? 0)).join(' | ')} |`),
    ...(Object.keys(s.failedTargets).length > 0 ? ['', 'Failed targets:', '', ...Object.entries(s.failedTargets).map(([k, v]) => `- ${k.replace(/\|/g, '\\|')} × ${v}`)] : []),
    ...(Object.keys(s.notFinal).length > 0 ? ['', 'Targets not final at the end (platform, status, error code: error):', '', ...Object.entries(s.notFinal).map(([k, v]) => `- ${k.replace(/\|/g, '\\|')} × ${v}`)] : []),
    '',
    `Resident memory (VmRSS from /proc, every 10 s) of each process's life under load (a process started again after a kill is a new life; \`to\` is its kill or the end of the load), MB; the slope is a least-squares fit over the last 20 minutes of that (or all of it, when shorter):`,
    '',
    '| process | pid | from – to | start | end | max | slope | over | V8 heap total | external | slope outside both |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...herald.map(
      (p) =>
        `| ${p.name}${p.killed ? ' (killed)' : ''}${p.extraEnv ? ` (\`${p.extraEnv}\`)` : ''} | ${p.pid} | ${p.fromSeconds}–${p.toSeconds} s | ${p.startMb} | ${p.endMb} | ${p.maxMb} | ${p.slopeMbPerMinute} MB/min | ${p.slopeOverMinutes} min | ${p.heapTotalMb[0]} → ${p.heapTotalMb[1]} | ${p.externalMb[0]} → ${p.externalMb[1]} | ${p.outsideSlopeMbPerMinute} MB/min |`,
    ),
    '',
    '| route | requests | p50 | p99 | unexpected |',
    '|---|---|---|---|---|',
    ...Object.entries(l.routes)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([route, r]) => `| \`${route}\` | ${f0(r.requests)} | ${r.p50Ms} ms | ${r.p99Ms} ms | ${r.unexpected} |`),
    '',
    `${f0(l.published)} posts on the emulators in all; ${f0(l.webhooksReceived)} webhooks received.`,
    '',
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { startPostgres } = await import('./postgres.ts');
  const soak = process.argv[2] === 'soak';
  const postgres = process.argv[2] === 'postgres' || soak ? await startPostgres() : undefined;
  try {
    const seconds = soak ? (process.env.SOAK_MINUTES ? Number(process.env.SOAK_MINUTES) * 60 : Number(process.env.BENCH_LOAD_SECONDS ?? 1800)) : Number(process.env.BENCH_LOAD_SECONDS ?? 60);
    const figures = await benchLoad({
      postgres,
      seconds,
      kill: process.env.BENCH_NO_KILL ? false : undefined,
      soak: soak ? { killEverySeconds: Number(process.env.SOAK_KILL_EVERY_SECONDS ?? 300), rate: Number(process.env.SOAK_RATE ?? 1) } : undefined,
    });
    const printable = { ...figures, memory: figures.memory.map((m) => `${m.atSeconds}s rss ${JSON.stringify(m.rssMb)} heap ${JSON.stringify(m.heapUsedMb)}/${JSON.stringify(m.heapTotalMb)} external ${JSON.stringify(m.externalMb)}`) };
    if (soak) {
      const { execSync } = await import('node:child_process');
      const { machine } = await import('./lib.ts');
      const commit = execSync('git rev-parse --short HEAD', { encoding: 'utf8' }).trim();
      const section = soakSection(figures, { date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC', commit, machine: machine() }).join('\n');
      // The figures in full beside the section, for whoever writes it into bench/RESULTS.md.
      const out = process.env.SOAK_OUT ?? join(tmpdir(), `herald-soak-${Date.now()}`);
      writeFileSync(`${out}.json`, JSON.stringify(printable, null, 2));
      writeFileSync(`${out}.md`, section);
      console.log(section);
      console.error(`figures in ${out}.json and ${out}.md`);
    } else {
      console.log(JSON.stringify(printable, null, 2));
    }
  } finally {
    await postgres?.stop();
  }
}
