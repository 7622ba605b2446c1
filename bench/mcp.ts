// Issue 17's figure: what an MCP list_posts call (POST /mcp, Streamable HTTP) costs over the REST call it
// wraps (GET /v1/posts?limit=20), both on one warm connection, one request at a time, interleaved so
// that both see the same machine. Target: at most 2 ms more (median).
import { spawnSync } from 'node:child_process';
import { createEmulators } from '../src/sandbox/index.ts';
import { startEmulatorServer } from '../src/sandbox/server.ts';
import { emulatorEnv } from '../test/helpers/herald.ts';
import { MAIN, api, benchDatabase, createKey, percentile, startHerald } from './lib.ts';

export interface McpFigures {
  calls: number;
  rest: { p50Ms: number; p99Ms: number };
  mcp: { p50Ms: number; p99Ms: number };
  /** Median of MCP minus median of REST. */
  overheadMs: number;
}

const CALLS = Number(process.env.BENCH_MCP_CALLS ?? 1000);

export async function benchMcp(): Promise<McpFigures> {
  const database = await benchDatabase();
  const emulators = await startEmulatorServer(createEmulators());
  const env = { ...database.env, ...emulatorEnv(emulators), HERALD_ALLOW_PRIVATE_NETWORKS: 'true', HERALD_RATE_LIMIT_PER_MINUTE: '1000000' };
  try {
    spawnSync(process.execPath, [MAIN, 'migrate'], { env: { ...process.env, ...env } });
    const key = createKey(env);
    const herald = await startHerald(env);
    try {
      for (let i = 0; i < 40; i++) await api(herald.url, key, 'POST', '/v1/posts', { content: `draft ${i} for the MCP bench`, isDraft: true, tags: ['bench'] });
      const rest = async () => {
        const res = await fetch(`${herald.url}/v1/posts?limit=20`, { headers: { authorization: `Bearer ${key}` } });
        if (res.status !== 200) throw new Error(`REST list: ${res.status}`);
        return (await res.json()) as { posts: unknown[] };
      };
      let id = 0;
      const mcp = async () => {
        const res = await fetch(`${herald.url}/mcp`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
          body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name: 'list_posts', arguments: { limit: 20 } } }),
        });
        const body = (await res.json()) as { result?: { structuredContent?: { posts: unknown[] }; isError?: boolean } };
        if (res.status !== 200 || body.result?.isError || body.result?.structuredContent?.posts.length !== 20) throw new Error(`MCP list_posts: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
        return body;
      };
      for (let i = 0; i < 200; i++) {
        await rest();
        await mcp();
      }
      const times = { rest: [] as number[], mcp: [] as number[] };
      for (let i = 0; i < CALLS; i++) {
        for (const [name, run] of (i % 2 ? [['rest', rest], ['mcp', mcp]] : [['mcp', mcp], ['rest', rest]]) as ['rest' | 'mcp', () => Promise<unknown>][]) {
          const t0 = performance.now();
          await run();
          times[name].push(performance.now() - t0);
        }
      }
      const figures = (xs: number[]) => ({ p50Ms: Math.round(percentile(xs, 50) * 100) / 100, p99Ms: Math.round(percentile(xs, 99) * 100) / 100 });
      const r = figures(times.rest);
      const m = figures(times.mcp);
      return { calls: CALLS, rest: r, mcp: m, overheadMs: Math.round((m.p50Ms - r.p50Ms) * 100) / 100 };
    } finally {
      await herald.stop();
    }
  } finally {
    await emulators.close();
    await database.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await benchMcp(), null, 2));
