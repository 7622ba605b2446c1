// Load and soak: a realistic mix of API calls from concurrent clients for a bounded time, against a Herald
// process publishing to loopback emulators (answering after a short delay) and delivering webhooks to a
// local receiver. Reports throughput, p50/p99 per route, errors other than 429, and memory over time.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEmulators } from '../src/sandbox/index.ts';
import { startEmulatorServer } from '../src/sandbox/server.ts';
import { emulatorEnv } from '../test/helpers/herald.ts';
import { api, benchDatabase, connect, createKey, memoryMb, percentile, startHerald } from './lib.ts';

export interface RouteFigures {
  requests: number;
  p50Ms: number;
  p99Ms: number;
  unexpected: number;
}

export interface LoadFigures {
  seconds: number;
  clients: number;
  requestsPerSecond: number;
  routes: Record<string, RouteFigures>;
  /** Answers that were neither the expected success nor a 429, with a sample. */
  unexpected: { count: number; samples: string[] };
  rateLimited: number;
  webhooksReceived: number;
  published: number;
  memory: { atSeconds: number; rssMb: number; heapUsedMb: number }[];
}

interface Step {
  route: string;
  weight: number;
  run(): Promise<{ status: number; ok: boolean; note?: string }>;
}

export async function benchLoad(options: { seconds?: number; clients?: number; platformLatencyMs?: number } = {}): Promise<LoadFigures> {
  const seconds = options.seconds ?? 60;
  const clients = options.clients ?? 16;
  const database = benchDatabase();
  const emulators = createEmulators({ processingMs: 20 });
  const server = await startEmulatorServer(emulators);
  let webhooksReceived = 0;
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      webhooksReceived++;
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const env = { ...database.env, ...emulatorEnv(server), HERALD_ALLOW_PRIVATE_NETWORKS: 'true', HERALD_PUBLISH_WAIT_MS: '10000' };
  const key = createKey(env);
  const herald = await startHerald(env);
  const memory: LoadFigures['memory'] = [];
  const started = Date.now();
  const sample = () =>
    memoryMb(herald.url).then(
      (m) => void memory.push({ atSeconds: Math.round((Date.now() - started) / 1000), rssMb: Math.round(m.rss), heapUsedMb: Math.round(m.heapUsed) }),
      () => {},
    );
  try {
    const pages = await connect(herald.url, key, 'facebook', { sandbox_pages: '20' });
    const threads: string[] = [];
    // Threads allows 250 posts a day per account: enough accounts that the load measures Herald, not the cap.
    for (let i = 0; i < 12; i++) threads.push(...(await connect(herald.url, key, 'threads', { sandbox_user: `load_th_${i}` })));
    const x = await connect(herald.url, key, 'twitter', { sandbox_user: 'load_x' });
    const settings = await api(herald.url, key, 'POST', '/v1/webhooks/settings', {
      url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
      events: ['post.published', 'post.failed', 'post.completed', 'post.scheduled', 'post.deleted'],
    });
    if (settings.status !== 200) throw new Error(JSON.stringify(settings.body));
    for (const e of emulators) e.latencyMs = options.platformLatencyMs ?? 20;

    const posts: string[] = [];
    const drafts: string[] = [];
    let n = 0;
    const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)]!;
    const target = () => (Math.random() < 0.9 ? { platform: 'facebook', accountId: pick(pages) } : { platform: 'threads', accountId: pick(threads) });
    const steps: Step[] = [
      { route: 'GET /v1/posts', weight: 35, run: async () => { const r = await api(herald.url, key, 'GET', '/v1/posts?limit=20'); return { status: r.status, ok: r.status === 200 }; } },
      { route: 'GET /v1/posts?status', weight: 5, run: async () => { const r = await api(herald.url, key, 'GET', '/v1/posts?limit=20&status=published&platform=facebook'); return { status: r.status, ok: r.status === 200 }; } },
      {
        route: 'GET /v1/posts/{id}',
        weight: 20,
        run: async () => {
          if (posts.length === 0) return { status: 200, ok: true };
          const r = await api(herald.url, key, 'GET', `/v1/posts/${pick(posts)}`);
          return { status: r.status, ok: r.status === 200 };
        },
      },
      {
        route: 'POST /v1/posts (scheduled)',
        weight: 15,
        run: async () => {
          const r = await api(herald.url, key, 'POST', '/v1/posts', {
            content: `scheduled ${n++} ${randomUUID()}`,
            scheduledFor: new Date(Date.now() + 2_000 + Math.random() * 20_000).toISOString(),
            platforms: [target(), ...(Math.random() < 0.3 ? [{ platform: 'twitter', accountId: x[0]! }] : [])],
          });
          if (r.status === 201) posts.push(r.body.id);
          return { status: r.status, ok: r.status === 201, note: r.status === 201 ? undefined : JSON.stringify(r.body) };
        },
      },
      {
        route: 'POST /v1/posts (publishNow)',
        weight: 10,
        run: async () => {
          const r = await api(herald.url, key, 'POST', '/v1/posts', { content: `now ${n++} ${randomUUID()}`, publishNow: true, platforms: [target()] });
          if (r.status === 201) posts.push(r.body.id);
          // Published, or (in a long run) waiting for a platform's daily cap on that account: both are
          // what Herald promises; anything else is not.
          const waitingForCap = (t: { status: string; errorCode?: string }) => t.status === 'pending' && t.errorCode === 'rate_limited';
          const ok =
            r.status === 201 &&
            (r.body.status === 'published' || (r.body.status === 'publishing' && r.body.platforms.every((t: { status: string }) => t.status === 'published' || waitingForCap(t))));
          return { status: r.status, ok, note: ok ? undefined : JSON.stringify(r.body).slice(0, 300) };
        },
      },
      {
        route: 'POST /v1/posts (draft)',
        weight: 5,
        run: async () => {
          const r = await api(herald.url, key, 'POST', '/v1/posts', { content: `draft ${n++}`, isDraft: true });
          if (r.status === 201) drafts.push(r.body.id);
          return { status: r.status, ok: r.status === 201 };
        },
      },
      {
        route: 'DELETE /v1/posts/{id}',
        weight: 4,
        run: async () => {
          const id = drafts.pop();
          if (!id) return { status: 200, ok: true };
          const r = await api(herald.url, key, 'DELETE', `/v1/posts/${id}`);
          return { status: r.status, ok: r.status === 200 };
        },
      },
      { route: 'GET /v1/accounts', weight: 3, run: async () => { const r = await api(herald.url, key, 'GET', '/v1/accounts'); return { status: r.status, ok: r.status === 200 }; } },
      { route: 'GET /v1/webhooks/deliveries', weight: 3, run: async () => { const r = await api(herald.url, key, 'GET', '/v1/webhooks/deliveries?limit=20'); return { status: r.status, ok: r.status === 200 }; } },
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
    const deadline = Date.now() + seconds * 1000;
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
          if (unexpected.length < 5) unexpected.push(`${step.route} → ${r.status} ${r.note ?? ''}`);
        }
      }
    };
    await Promise.all(Array.from({ length: clients }, client));
    const elapsed = (Date.now() - started) / 1000;
    clearInterval(sampler);
    // Let scheduled posts and webhooks catch up, then read the end state.
    await new Promise((r) => setTimeout(r, 25_000));
    await sample();
    const published = (await api(herald.url, key, 'GET', '/v1/posts?status=published&limit=1')).status === 200 ? emulators.reduce((s, e) => s + e.ledger.list().length, 0) : 0;
    const routes: Record<string, RouteFigures> = {};
    for (const [route, xs] of latencies) {
      routes[route] = { requests: xs.length, p50Ms: Math.round(percentile(xs, 50) * 10) / 10, p99Ms: Math.round(percentile(xs, 99) * 10) / 10, unexpected: unexpectedByRoute.get(route) ?? 0 };
    }
    return {
      seconds,
      clients,
      requestsPerSecond: Math.round(total / Math.min(elapsed, seconds)),
      routes,
      unexpected: { count: [...unexpectedByRoute.values()].reduce((a, b) => a + b, 0), samples: unexpected },
      rateLimited,
      webhooksReceived,
      published,
      memory,
    };
  } finally {
    await herald.stop();
    await server.close();
    receiver.close();
    database.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await benchLoad({ seconds: Number(process.env.BENCH_LOAD_SECONDS ?? 60) }), null, 2));
}
