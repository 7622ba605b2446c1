// The embedded queue: a `jobs` table polled by the worker. A claim sets a lease; a worker that dies
// loses it and the job is claimed again when the lease runs out.
import { sql, type Insertable, type Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database, JobsTable } from '../db/schema.ts';
import { prepareRow } from '../db/prepared.ts';
import type { Writer } from '../db/writer.ts';
import { settleWithin, type Clock } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import {
  MAX_JOB_ATTEMPTS,
  QUEUE_NAMES,
  crashBackoffMs,
  type EnqueueJob,
  type JobHandler,
  type JobQueue,
  type QueueName,
  type QueuePolicies,
} from './queue.ts';

export interface TableQueueOptions {
  db: Kysely<Database>;
  write: Writer['write'];
  clock: Clock;
  log: Logger;
  /** Idle poll interval (default 200 ms). */
  pollMs?: number;
  policies: QueuePolicies;
}

type NewJob = Insertable<JobsTable>;
// Written with every scheduled post: built and compiled once (see db/prepared.ts).
const insertJob = prepareRow<NewJob>(
  ['id', 'queue', 'payload', 'run_at', 'state', 'locked_until', 'created_at'],
  (db, row) => db.insertInto('jobs').values(row),
);

export function createTableQueue(options: TableQueueOptions): JobQueue {
  const { db, write, clock, log, policies } = options;
  const pollMs = options.pollMs ?? 200;
  const handlers = new Map<QueueName, JobHandler<QueueName>>();
  const running = new Map<QueueName, number>();
  const inFlight = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | null = null;
  let started = false;
  let polling = false;
  let pollAgain = false;
  // Set when a job due now was enqueued: only then is a nudge worth a poll before the next tick.
  let dueNow = false;

  async function claim(queue: QueueName, limit: number) {
    const now = clock.now();
    const lease = policies[queue].leaseMs;
    // Two index range scans rather than one OR, which SQLite would answer with a table scan.
    const due = db.selectFrom('jobs').select('id').where('queue', '=', queue).where('state', '=', sql.lit('queued')).where('run_at', '<=', now).orderBy('run_at').limit(limit);
    const abandoned = db.selectFrom('jobs').select('id').where('queue', '=', queue).where('state', '=', sql.lit('active')).where('locked_until', '<=', now).limit(limit);
    return write((trx) =>
      trx
        .updateTable('jobs')
        .set((eb) => ({ state: 'active', locked_until: now + lease, attempts: eb('attempts', '+', 1) }))
        .where((eb) => eb.or([eb('id', 'in', due), eb('id', 'in', abandoned)]))
        .returning(['id', 'payload', 'attempts'])
        .execute(),
    );
  }

  async function runJob(queue: QueueName, job: { id: string; payload: string; attempts: number }) {
    const handler = handlers.get(queue)!;
    try {
      await handler(JSON.parse(job.payload));
      await write((trx) => trx.deleteFrom('jobs').where('id', '=', job.id).execute());
    } catch (err) {
      if (job.attempts >= MAX_JOB_ATTEMPTS) {
        log.error({ err, queue, jobId: job.id }, 'job failed too many times; dropped');
        await write((trx) => trx.deleteFrom('jobs').where('id', '=', job.id).execute()).catch(() => {});
        return;
      }
      log.warn({ err, queue, jobId: job.id, attempts: job.attempts }, 'job failed; will retry');
      await write((trx) =>
        trx
          .updateTable('jobs')
          .set({ state: 'queued', locked_until: null, run_at: clock.now() + crashBackoffMs(job.attempts) })
          .where('id', '=', job.id)
          .execute(),
      ).catch((e: unknown) => log.error({ err: e }, 'could not reschedule job'));
    }
  }

  async function poll() {
    if (polling) {
      pollAgain = true;
      return;
    }
    polling = true;
    try {
      do {
        pollAgain = false;
        for (const queue of QUEUE_NAMES) {
          if (!started || !handlers.has(queue)) continue;
          const free = policies[queue].concurrency - (running.get(queue) ?? 0);
          if (free <= 0) continue;
          const jobs = await claim(queue, free);
          for (const job of jobs) {
            running.set(queue, (running.get(queue) ?? 0) + 1);
            const p = runJob(queue, job).finally(() => {
              running.set(queue, (running.get(queue) ?? 1) - 1);
              inFlight.delete(p);
              // A slot freed: there may be more due work right now.
              if (started) queueMicrotask(() => void poll());
            });
            inFlight.add(p);
          }
          if (jobs.length === free) pollAgain = true;
        }
      } while (pollAgain && started);
    } catch (err) {
      log.error({ err }, 'job poll failed');
    } finally {
      polling = false;
    }
  }

  return {
    kind: 'table',
    async enqueue(trx, jobs: EnqueueJob[]) {
      if (jobs.length === 0) return;
      const now = clock.now();
      if (jobs.some((j) => (j.runAt ?? now) <= now)) dueNow = true;
      for (const j of jobs) {
        await insertJob.execute(trx, {
          id: newId('job'),
          queue: j.queue,
          payload: JSON.stringify(j.payload),
          run_at: j.runAt ?? now,
          state: 'queued',
          locked_until: null,
          created_at: now,
        });
      }
    },
    register(queue, handler) {
      handlers.set(queue, handler as JobHandler<QueueName>);
    },
    async start() {
      if (started) return;
      started = true;
      timer = setInterval(() => void poll(), pollMs);
      timer.unref();
      void poll();
    },
    async stop() {
      started = false;
      if (timer) clearInterval(timer);
      timer = null;
      // Give running handlers a bounded time to finish; the rest are reclaimed after their lease.
      await settleWithin(inFlight, 10_000);
    },
    async depth() {
      const rows = await db
        .selectFrom('jobs')
        .select(['queue', (eb) => eb.fn.countAll<number>().as('n')])
        .where('state', '=', sql.lit('queued'))
        .groupBy('queue')
        .execute();
      const out = Object.fromEntries(QUEUE_NAMES.map((q) => [q, 0])) as Record<QueueName, number>;
      for (const r of rows) out[r.queue as QueueName] = Number(r.n);
      return out;
    },
    nudge() {
      if (!started || !dueNow) return;
      dueNow = false;
      queueMicrotask(() => void poll());
    },
  };
}
