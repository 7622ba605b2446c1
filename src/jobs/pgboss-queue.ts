// The PostgreSQL queue: pg-boss, so API and worker processes on several machines share the work.
// Jobs are inserted through the caller's Kysely transaction (pg-boss's `db` option), so a job exists
// if and only if the change that caused it committed.
import type { DbTx } from '../db/schema.ts';
import { CompiledQuery } from 'kysely';
import { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import {
  MAX_JOB_ATTEMPTS,
  QUEUE_NAMES,
  type EnqueueJob,
  type JobHandler,
  type JobQueue,
  type QueueName,
  type QueuePolicies,
} from './queue.ts';

export interface PgBossQueueOptions {
  connectionString: string;
  log: Logger;
  /** Poll interval of idle workers in seconds (pg-boss minimum 0.5). */
  pollingIntervalSeconds?: number;
  policies: QueuePolicies;
}

function viaTransaction(trx: DbTx) {
  return {
    async executeSql(text: string, values?: unknown[]) {
      const result = await trx.executeQuery(CompiledQuery.raw(text, values ?? []));
      return { rows: result.rows as unknown[] };
    },
  };
}

export async function createPgBossQueue(options: PgBossQueueOptions): Promise<JobQueue> {
  const { log, policies } = options;
  const boss = new PgBoss({
    connectionString: options.connectionString,
    schema: 'pgboss',
    max: 4,
    useListenNotify: true,
    superviseIntervalSeconds: 10,
  });
  boss.on('error', (err: Error) => log.error({ err }, 'pg-boss error'));
  const handlers = new Map<QueueName, JobHandler<QueueName>>();
  let bossStarted = false;
  let working = false;

  async function ensureStarted() {
    if (bossStarted) return;
    await boss.start();
    for (const name of QUEUE_NAMES) {
      const policy = policies[name];
      const queueOptions = {
        expireInSeconds: Math.max(1, Math.ceil(policy.leaseMs / 1000)),
        retryLimit: MAX_JOB_ATTEMPTS,
        retryDelay: 1,
        retryBackoff: true,
        retryDelayMax: 300,
        notify: true,
      };
      // Creating is idempotent across processes; settings follow the code on every start.
      await boss.createQueue(name, queueOptions);
      await boss.updateQueue(name, queueOptions);
    }
    bossStarted = true;
  }

  // Sending needs the queues; the API role sends without working.
  await ensureStarted();

  return {
    kind: 'pg-boss',
    async enqueue(trx, jobs: EnqueueJob[]) {
      const db = viaTransaction(trx);
      for (const job of jobs) {
        await boss.send(job.queue, job.payload as object, {
          db,
          ...(job.runAt !== undefined ? { startAfter: new Date(job.runAt) } : {}),
        });
      }
    },
    register(queue, handler) {
      handlers.set(queue, handler as JobHandler<QueueName>);
    },
    async start() {
      if (working) return;
      working = true;
      for (const [queue, handler] of handlers) {
        const policy = policies[queue];
        const pollingIntervalSeconds = options.pollingIntervalSeconds ?? 0.5;
        const polling = {
          batchSize: 1,
          pollingIntervalSeconds,
          ...(policy.maxPollSeconds !== undefined ? { notifyPollingIntervalSeconds: Math.max(policy.maxPollSeconds, pollingIntervalSeconds) } : {}),
        };
        // One pg-boss worker per slot, so each can be told to look again as soon as it finished a job:
        // otherwise a worker waits out its poll interval after every job and a backlog drains at about
        // one job per slot per interval.
        for (let slot = 0; slot < policy.concurrency; slot++) {
          let workerId = '';
          workerId = await boss.work(queue, polling, async (batch) => {
            for (const job of batch) await handler(job.data as never);
            boss.notifyWorker(workerId);
          });
        }
      }
    },
    async stop() {
      working = false;
      if (bossStarted) await boss.stop({ graceful: true, timeout: 10_000 });
      bossStarted = false;
    },
    async depth() {
      const out = Object.fromEntries(QUEUE_NAMES.map((q) => [q, 0])) as Record<QueueName, number>;
      for (const name of QUEUE_NAMES) {
        const queue = await boss.getQueue(name).catch(() => null);
        out[name] = queue ? Number(queue.queuedCount) : 0;
      }
      return out;
    },
    nudge() {
      // LISTEN/NOTIFY wakes the workers.
    },
  };
}
