// Mixed load and soak: concurrent clients calling every kind of route for a bounded time, against Herald
// publishing to emulators in their own process (answering after a short delay) and delivering webhooks
// to a local receiver. On SQLite one Herald process does everything; on PostgreSQL two API processes
// share the requests (each request goes to either, no affinity) and two worker processes share the jobs,
// and midway one worker and then one API process are killed with SIGKILL and started again: clients
// whose request was cut off send it again to the other API process with the same Idempotency-Key.
// Reports throughput, p50/p99 per route, answers other than the expected ones, resident memory over
// time, and at the end whether anything was lost or posted twice.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openDatabase } from '../src/db/database.ts';
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
}

interface Step {
  route: string;
  weight: number;
  run(): Promise<{ status: number; ok: boolean; note?: string }>;
}

export async function benchLoad(
  options: { postgres?: PostgresServer; seconds?: number; clients?: number; platformLatencyMs?: number; kill?: boolean } = {},
): Promise<LoadFigures> {
  const seconds = options.seconds ?? 60;
  const clients = options.clients ?? 16;
  const database = await benchDatabase(options.postgres);
  const emulators = await startEmulators({ processingMs: 20 });
  let webhooksReceived = 0;
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      webhooksReceived++;
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const env = { ...database.env, ...emulators.env, HERALD_ALLOW_PRIVATE_NETWORKS: 'true', HERALD_PUBLISH_WAIT_MS: '10000' };
  const key = createKey(env);
  const split = database.kind === 'postgres';
  const procs = new Map<string, ServerProcess>();
  const start = async (name: string) => procs.set(name, await startHerald(env, ['--role', name.startsWith('api') ? (split ? 'api' : 'all') : 'worker'])).get(name)!;
  for (const name of split ? ['api-1', 'api-2', 'worker-1', 'worker-2'] : ['api-1']) await start(name);
  const apis = () => [...procs].filter(([n]) => n.startsWith('api')).map(([, p]) => p);
  const memory: MemorySample[] = [];
  const steady = new Set(split ? ['api-2', 'worker-2'] : ['api-1']);
  const started = Date.now();
  const sample = async () => {
    const s: MemorySample = { atSeconds: Math.round((Date.now() - started) / 1000), rssMb: {}, heapUsedMb: {}, heapTotalMb: {}, externalMb: {} };
    for (const name of steady) {
      const m = await memoryMb(procs.get(name)!.url).catch(() => null);
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
  async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    let cutOff = false;
    for (let attempt = 0; ; attempt++) {
      const list = apis();
      const target = list[Math.floor(Math.random() * list.length)]!;
      try {
        const res = await fetch(`${target.url}${path}`, {
          method,
          headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const answer = { status: res.status, body: (await res.json()) as any };
        if (cutOff && answer.status === 409 && answer.body.code === 'idempotency_key_in_use' && attempt < 200) {
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
      url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
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
    const ok200 = (r: { status: number }) => ({ status: r.status, ok: r.status === 200 });
    const createPost = async (body: Record<string, unknown>) => {
      // Every create carries an Idempotency-Key, so a request cut off by a kill is sent again safely.
      const r = await call('POST', '/v1/posts', body, { 'idempotency-key': randomUUID() });
      if (r.status === 201) created.add(r.body.id);
      return r;
    };
    const steps: Step[] = [
      { route: 'GET /v1/posts', weight: 30, run: async () => ok200(await call('GET', '/v1/posts?limit=20')) },
      { route: 'GET /v1/posts?status', weight: 5, run: async () => ok200(await call('GET', '/v1/posts?limit=20&status=published&platform=facebook')) },
      { route: 'GET /v1/posts/{id}', weight: 18, run: async () => (posts.length === 0 ? { status: 200, ok: true } : ok200(await call('GET', `/v1/posts/${pick(posts)}`))) },
      {
        route: 'POST /v1/posts (scheduled)',
        weight: 13,
        run: async () => {
          const r = await createPost({
            content: `scheduled ${n++} ${randomUUID()}`,
            scheduledFor: new Date(Date.now() + 2_000 + Math.random() * 20_000).toISOString(),
            platforms: [target(), ...(Math.random() < 0.05 ? [{ platform: 'twitter', accountId: pick(xs) }] : [])],
          });
          if (r.status === 201) posts.push(r.body.id);
          return { status: r.status, ok: r.status === 201, note: r.status === 201 ? undefined : JSON.stringify(r.body) };
        },
      },
      {
        route: 'POST /v1/posts (publishNow)',
        weight: 9,
        run: async () => {
          const onTwitter = Math.random() < 0.1;
          const r = await createPost({ content: `now ${n++} ${randomUUID()}`, publishNow: true, platforms: [onTwitter ? { platform: 'twitter', accountId: pick(xs) } : target()] });
          if (r.status === 201) {
            posts.push(r.body.id);
            if (onTwitter && r.body.status === 'published') onX.push(r.body.id);
          }
          // Published, or waiting for a platform's cap on that account: both are what Herald promises.
          const waitingForCap = (t: { status: string; errorCode?: string }) => t.status === 'pending' && t.errorCode === 'rate_limited';
          const ok = r.status === 201 && (r.body.status === 'published' || (r.body.status === 'publishing' && r.body.platforms.every((t: { status: string }) => t.status === 'published' || waitingForCap(t))));
          return { status: r.status, ok, note: ok ? undefined : JSON.stringify(r.body).slice(0, 300) };
        },
      },
      {
        route: 'POST /v1/posts (draft)',
        weight: 4,
        run: async () => {
          const r = await createPost({ content: `draft ${n++}`, isDraft: true });
          if (r.status === 201) drafts.push(r.body.id);
          return { status: r.status, ok: r.status === 201 };
        },
      },
      {
        route: 'PATCH /v1/posts/{id}',
        weight: 3,
        run: async () => {
          // One client changes a draft at a time (two at once: the second gets 409 CONFLICT, as promised).
          const id = drafts.pop();
          if (!id) return { status: 200, ok: true };
          try {
            return ok200(await call('PATCH', `/v1/posts/${id}`, { content: `draft edited ${n++}` }));
          } finally {
            drafts.push(id);
          }
        },
      },
      {
        route: 'DELETE /v1/posts/{id}',
        weight: 3,
        run: async () => {
          const id = drafts.shift();
          if (!id) return { status: 200, ok: true };
          created.delete(id);
          return ok200(await call('DELETE', `/v1/posts/${id}`));
        },
      },
      { route: 'POST /v1/posts/validate', weight: 3, run: async () => ok200(await call('POST', '/v1/posts/validate', { content: `check ${n++}`, publishNow: true, platforms: [target()] })) },
      {
        route: 'POST /v1/posts/bulk',
        weight: 1,
        run: async () => {
          const r = await call('POST', '/v1/posts/bulk', { posts: [1, 2, 3].map(() => ({ content: `bulk ${n++} ${randomUUID()}`, isDraft: true })) }, { 'idempotency-key': randomUUID() });
          if (r.status === 200) for (const row of r.body.results) if (row.id) drafts.push(row.id), created.add(row.id);
          return ok200(r);
        },
      },
      {
        route: 'POST /v1/posts/{id}/edit',
        weight: 1,
        run: async () => {
          // One client edits a post at a time (X refuses an edit of a version already replaced).
          const id = onX.pop();
          if (!id) return { status: 200, ok: true };
          const r = await call('POST', `/v1/posts/${id}/edit`, { content: `edited ${n++} ${randomUUID()}` }, { 'idempotency-key': randomUUID() });
          onX.push(id);
          // X allows 5 edits per post: the 6th is a rule, not a failure.
          return { status: r.status, ok: r.status === 200 || (r.status === 422 && r.body.code === 'EDIT_LIMIT_REACHED'), note: JSON.stringify(r.body).slice(0, 200) };
        },
      },
      {
        route: 'POST /v1/posts/{id}/unpublish',
        weight: 1,
        run: async () => {
          const id = onX.shift();
          if (!id) return { status: 200, ok: true };
          return ok200(await call('POST', `/v1/posts/${id}/unpublish`, {}));
        },
      },
      {
        route: 'POST /v1/posts/{id}/retry',
        weight: 1,
        run: async () => {
          if (posts.length === 0) return { status: 200, ok: true };
          const r = await call('POST', `/v1/posts/${pick(posts)}/retry`, undefined, { 'idempotency-key': randomUUID() });
          // Nothing failed, or still publishing: both are the expected answers on a healthy platform.
          return { status: r.status, ok: r.status === 200 || (r.status === 409 && ['NO_FAILED_TARGETS', 'CONFLICT'].includes(r.body.code)) };
        },
      },
      { route: 'GET /v1/accounts', weight: 2, run: async () => ok200(await call('GET', '/v1/accounts')) },
      { route: 'GET /v1/accounts/health', weight: 1, run: async () => ok200(await call('GET', '/v1/accounts/health')) },
      { route: 'GET /v1/queue', weight: 1, run: async () => ok200(await call('GET', '/v1/queue')) },
      { route: 'GET /v1/webhooks/settings', weight: 1, run: async () => ok200(await call('GET', '/v1/webhooks/settings')) },
      { route: 'GET /v1/webhooks/deliveries', weight: 2, run: async () => ok200(await call('GET', '/v1/webhooks/deliveries?limit=20')) },
    ];
    const totalWeight = steps.reduce((s, x) => s + x.weight, 0);
    const choose = () => {
      let r = Math.random() * totalWeight;
      for (const s of steps) if ((r -= s.weight) < 0) return s;
      return steps[0]!;
    };

    const latencies = new Map<string, number[]>();
    const unexpected: string[] = [];
    const unexpectedByRoute = new Map<string, number>();
    let rateLimited = 0;
    let total = 0;
    await sample();
    const sampler = setInterval(() => void sample(), 5000);
    const loadStart = Date.now();
    const deadline = loadStart + seconds * 1000;
    const kills: string[] = [];
    const killer = (async () => {
      if (!split || options.kill === false) return;
      for (const [name, at] of [['worker-1', 0.4], ['api-1', 0.6]] as const) {
        await new Promise((r) => setTimeout(r, Math.max(0, loadStart + at * seconds * 1000 - Date.now())));
        const proc = procs.get(name)!;
        procs.delete(name);
        proc.child.kill('SIGKILL');
        kills.push(`${name} at ${Math.round((Date.now() - loadStart) / 1000)} s`);
        await new Promise((r) => setTimeout(r, 3000));
        await start(name);
      }
    })();
    const client = async () => {
      while (Date.now() < deadline) {
        const step = choose();
        const t0 = performance.now();
        const r = await step.run().catch((err: Error) => ({ status: 0, ok: false, note: err.message }));
        const ms = performance.now() - t0;
        total++;
        (latencies.get(step.route) ?? latencies.set(step.route, []).get(step.route)!).push(ms);
        if (r.status === 429) rateLimited++;
        else if (!r.ok) {
          unexpectedByRoute.set(step.route, (unexpectedByRoute.get(step.route) ?? 0) + 1);
          if (unexpected.length < 8) unexpected.push(`${step.route} → ${r.status} ${r.note ?? ''}`);
        }
      }
    };
    await Promise.all(Array.from({ length: clients }, client));
    await killer;
    const elapsed = (Date.now() - loadStart) / 1000;
    clearInterval(sampler);
    await sample();

    // Let scheduled posts, retries and webhooks catch up, then read the end state.
    const db = openDatabase({ dataDir: database.dataDir, databaseUrl: database.databaseUrl });
    let check: LoadFigures['check'];
    try {
      const settleBy = Date.now() + 120_000;
      let open = 0;
      let waitingForCap = 0;
      for (;;) {
        const rows = await db.kysely.selectFrom('post_targets').select(['status', 'error_code']).where('status', 'in', ['pending', 'publishing']).execute();
        waitingForCap = rows.filter((r) => r.status === 'pending' && r.error_code === 'rate_limited').length;
        open = rows.length - waitingForCap;
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
      for (const mount of emulators.mounts) {
        const ledger = ((await (await fetch(`${emulators.url}/${mount}/__sandbox/ledger?kind=post`)).json()) as { posts: { accountId: string; text: string }[] }).posts;
        const seen = new Set<string>();
        for (const e of ledger) {
          const k = `${e.accountId}|${e.text}`;
          if (seen.has(k)) duplicates++;
          seen.add(k);
        }
      }
      check = { created: ids.length, missing: ids.length - found, open, waitingForCap, duplicates };
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
    return {
      database: database.kind,
      seconds,
      clients,
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
    };
  } finally {
    for (const p of procs.values()) await p.stop();
    await emulators.stop();
    receiver.close();
    await database.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { startPostgres } = await import('./postgres.ts');
  const postgres = process.argv[2] === 'postgres' ? await startPostgres() : undefined;
  try {
    const figures = await benchLoad({ postgres, seconds: Number(process.env.BENCH_LOAD_SECONDS ?? 60), kill: process.env.BENCH_NO_KILL ? false : undefined });
    console.log(JSON.stringify({ ...figures, memory: figures.memory.map((m) => `${m.atSeconds}s rss ${JSON.stringify(m.rssMb)} heap ${JSON.stringify(m.heapUsedMb)}/${JSON.stringify(m.heapTotalMb)} external ${JSON.stringify(m.externalMb)}`) }, null, 2));
  } finally {
    await postgres?.stop();
  }
}
