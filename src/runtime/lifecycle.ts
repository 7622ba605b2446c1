// Starting and stopping a runtime: the server, the background work of workers (recovery sweeps, token care,
// webhook sweeps, hourly maintenance) and an orderly stop that loses nothing in hand.
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Db } from '../db/database.ts';
import type { InFlight } from '../http/in-flight.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { DiskStore } from '../media/disk-store.ts';
import type { MediaStore } from '../media/store.ts';
import type { Metrics } from '../observability/metrics.ts';
import { closeEmulators } from '../sandbox/index.ts';
import type { Emulator } from '../sandbox/kit/emulator.ts';

export interface LifecycleDeps {
  log: Logger;
  db: Db;
  app: FastifyInstance;
  inFlight: InFlight;
  queue: JobQueue;
  metrics: Metrics;
  serveApi: boolean;
  runWorkers: boolean;
  listen: { host: string; port: number };
  describe: () => Record<string, unknown>;
  listeningAt(address: ReturnType<FastifyInstance['server']['address']>): void;
  mediaStore: MediaStore;
  emulators: Emulator[];
  /** Says at start when ffprobe cannot run (every video upload would answer 503). */
  checkFfprobe(): Promise<{ ok: true } | { ok: false; message: string }>;
  /** Finds attempts a dead process left (publishing and first comments). */
  sweepAttempts(): Promise<unknown>;
  sweepIntervalMs: number;
  tokenCare(): Promise<void>;
  tokenCareIntervalMs: number;
  sweepWebhooks(): Promise<unknown>;
  webhookSweepIntervalMs: number;
  /** Named clean-ups run hourly on workers; each runs even when another fails. */
  maintenanceParts: [string, () => Promise<unknown>][];
  /** Lets the work in hand finish (publishing attempts), up to a bound. */
  drainWork(ms: number): Promise<unknown>;
  closeOutbound(): Promise<unknown>;
}

export function createLifecycle(d: LifecycleDeps) {
  const { log } = d;
  const timers: NodeJS.Timeout[] = [];
  const every = (ms: number, task: () => Promise<unknown>, what: string) => {
    const t = setInterval(() => void task().catch((err: unknown) => log.error({ err }, `${what} failed`)), ms);
    t.unref();
    timers.push(t);
  };

  /** Hourly on workers: drops what can no longer be used. Each part runs even when another fails. */
  const maintenance = async (): Promise<void> => {
    for (const [what, run] of d.maintenanceParts) await run().catch((err: unknown) => log.error({ err }, `${what} failed`));
  };

  return {
    maintenance,
    async start() {
      await d.app.listen(d.listen);
      d.listeningAt(d.app.server.address());
      // Temporary files of uploads a crash cut short (older than an hour: no live upload is that slow to start).
      if (d.mediaStore.kind === 'disk') {
        void (d.mediaStore as DiskStore).removeStaleTemporaries(60 * 60_000).catch((err: unknown) => log.warn({ err }, 'sweeping stale media uploads failed'));
      }
      // Without ffprobe every video upload answers 503 MEDIA_PROBE_UNAVAILABLE: say so now, not at the first one.
      if (d.serveApi) {
        void d.checkFfprobe().then((found) => {
          if (!found.ok) log.warn({ setting: 'HERALD_FFPROBE_PATH', reason: found.message }, 'ffprobe cannot be run: video uploads and imports will answer 503 MEDIA_PROBE_UNAVAILABLE until it can');
        });
      }
      if (d.runWorkers) {
        await d.queue.start();
        await d.sweepAttempts();
        every(d.sweepIntervalMs, d.sweepAttempts, 'recovery sweep');
        every(d.tokenCareIntervalMs, d.tokenCare, 'token care');
        await d.sweepWebhooks();
        every(d.webhookSweepIntervalMs, d.sweepWebhooks, 'webhook sweep');
        void maintenance();
        every(60 * 60_000, maintenance, 'maintenance');
      }
      every(15_000, async () => {
        const depth = await d.queue.depth();
        for (const [name, n] of Object.entries(depth)) d.metrics.queueDepth.set({ queue: name }, n);
      }, 'queue depth');
      log.info(d.describe(), 'Herald is running');
    },
    async stop() {
      for (const t of timers) clearInterval(t);
      // Stop accepting, let in-flight requests finish, then the work in hand, then the database. Each
      // step runs even when an earlier one fails (a database already gone must not keep the process up).
      const steps: [string, () => Promise<unknown>][] = [
        ['http', () => d.app.close()],
        // Handlers whose clients left are still running: the database stays until they answer.
        ['requests', () => d.inFlight.drain(10_000)],
        // No request reaches the emulators any more: what they hold is final.
        ['sandbox state', () => closeEmulators(d.emulators)],
        ['publishing', () => d.drainWork(10_000)],
        ['queue', () => d.queue.stop()],
        ['outbound', () => d.closeOutbound()],
        ['media store', async () => {
          if (d.mediaStore.kind === 's3') (d.mediaStore as MediaStore & { close(): void }).close();
        }],
        ['database', () => d.db.close()],
      ];
      for (const [what, step] of steps) {
        await step().catch((err: unknown) => log.warn({ err }, `stopping ${what} failed`));
      }
    },
  };
}
