// Webhook delivery benchmark: a real Herald (API and worker in one process) on loopback, a local receiver
// answering 200 at once, events recorded through the outbox exactly as the services record them.
//   throughput: N events recorded in bulk; delivered events per second until the last one arrives.
//   delay: events recorded at a steady rate below capacity; time from the event's creation (its body
//          timestamp) to its arrival at the receiver, p50 and p99.
// Run alone: `npm exec -- node bench/webhooks.ts` (SQLite in a temporary directory).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pino from 'pino';
import { loadConfig } from '../src/config.ts';
import { systemClock } from '../src/lib/clock.ts';
import { createRuntime } from '../src/runtime.ts';
import { postDeleted, type CatalogEvent } from '../src/events/catalog.ts';
import { createOutbox } from '../src/webhooks/outbox.ts';

export interface WebhookBenchOptions {
  /** Events recorded in bulk for the throughput figure (default 2000). */
  events?: number;
  /** Events recorded at `ratePerSecond` for the delay figures (default 300 at 100/s). */
  delayEvents?: number;
  ratePerSecond?: number;
  /** PostgreSQL to run on (a database of its own: the bench writes to it); default an embedded SQLite file. */
  databaseUrl?: string;
  /** Give up after this long (default 120 s). */
  timeoutMs?: number;
}

export interface WebhookBenchResult {
  eventsPerSecond: number;
  p99DelayMs: number;
  p50DelayMs: number;
  events: number;
  delayEvents: number;
  ratePerSecond: number;
  throughputMs: number;
  database: 'sqlite' | 'postgres';
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function startReceiver() {
  const arrivals: { eventId: string; at: number; createdAt: number }[] = [];
  let onArrival = () => {};
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string; timestamp: string };
      arrivals.push({ eventId: body.id, at, createdAt: Date.parse(body.timestamp) });
      res.writeHead(204).end();
      onArrival();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    arrivals,
    /** Resolves when `n` requests arrived in total. */
    until(n: number, timeoutMs: number) {
      return new Promise<void>((resolveWait, reject) => {
        const timer = setTimeout(() => reject(new Error(`only ${arrivals.length} of ${n} webhooks arrived in ${timeoutMs} ms`)), timeoutMs);
        onArrival = () => {
          if (arrivals.length >= n) {
            clearTimeout(timer);
            resolveWait();
          }
        };
        onArrival();
      });
    },
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}

export async function benchWebhooks(options: WebhookBenchOptions = {}): Promise<WebhookBenchResult> {
  const events = options.events ?? 2000;
  const delayEvents = options.delayEvents ?? 300;
  const ratePerSecond = options.ratePerSecond ?? 100;
  const timeoutMs = options.timeoutMs ?? 120_000;
  const dataDir = mkdtempSync(join(tmpdir(), 'herald-bench-webhooks-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    HERALD_DATA_DIR: dataDir,
    HERALD_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    // The receiver is on loopback.
    HERALD_ALLOW_PRIVATE_NETWORKS: 'true',
    HERALD_RATE_LIMIT_PER_MINUTE: '1000000',
    LOG_LEVEL: 'silent',
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
  });
  const runtime = await createRuntime(config, { role: 'all', log: pino({ level: 'silent' }) });
  const receiver = await startReceiver();
  try {
    await runtime.start();
    const key = await runtime.keys.create('bench');
    const saved = await fetch(`${runtime.url()}/v1/webhooks/settings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url, events: ['post.deleted'] }),
    });
    if (saved.status !== 200) throw new Error(`saving webhook settings failed: ${saved.status} ${await saved.text()}`);

    const outbox = createOutbox({ clock: systemClock, queue: runtime.queue });
    let n = 0;
    const recordBatch = async (size: number) => {
      const batch: CatalogEvent[] = Array.from({ length: size }, () => postDeleted(`post_bench${String(n++).padStart(16, '0')}`));
      await runtime.db.write((trx) => outbox.record(trx, key.id, batch));
      runtime.queue.nudge();
    };

    // Throughput: everything at once, in transactions of 100.
    const t0 = Date.now();
    for (let done = 0; done < events; done += 100) await recordBatch(Math.min(100, events - done));
    await receiver.until(events, timeoutMs);
    const throughputMs = Date.now() - t0;

    // Delay: one event every 1/rate seconds, each in its own transaction like a real change.
    const before = receiver.arrivals.length;
    const gapMs = 1000 / ratePerSecond;
    const start = Date.now();
    for (let i = 0; i < delayEvents; i++) {
      const wait = start + i * gapMs - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      await recordBatch(1);
    }
    await receiver.until(before + delayEvents, timeoutMs);
    const delays = receiver.arrivals.slice(before).map((a) => a.at - a.createdAt).sort((a, b) => a - b);

    return {
      eventsPerSecond: Math.round((events / throughputMs) * 1000),
      p99DelayMs: percentile(delays, 99),
      p50DelayMs: percentile(delays, 50),
      events,
      delayEvents,
      ratePerSecond,
      throughputMs,
      database: runtime.db.dialect,
    };
  } finally {
    await runtime.stop();
    await receiver.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  const result = await benchWebhooks();
  console.log(JSON.stringify(result, null, 2));
}
