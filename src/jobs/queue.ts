// One small queue interface, implemented on the `jobs` table of either database (table-queue.ts). Jobs
// are triggers, not state: the rows they point at (targets, deliveries) hold the truth,
// so every handler is idempotent and a job delivered twice does no harm.
import type { DbTx } from '../db/schema.ts';

/** The job catalog: queue name → payload. */
export interface JobCatalog {
  /** Publish the due targets of a post (a scheduled post at its time; a publishNow post's fallback). */
  'publish-post': { postId: string };
  /** Publish (or reconcile) one post target (retries, back-offs, recovery). */
  'publish-target': { targetId: string };
  /** Post (or reconcile) the first comment of a published target. */
  'publish-comment': { targetId: string };
  /** Send one webhook delivery attempt. */
  'deliver-webhook': { deliveryId: string };
}
export type QueueName = keyof JobCatalog;
export const QUEUE_NAMES: readonly QueueName[] = ['publish-post', 'publish-target', 'publish-comment', 'deliver-webhook'];

export interface EnqueueJob<Q extends QueueName = QueueName> {
  queue: Q;
  payload: JobCatalog[Q];
  /** Epoch ms; default now. */
  runAt?: number;
}

export type JobHandler<Q extends QueueName> = (payload: JobCatalog[Q]) => Promise<void>;

export interface QueuePolicy {
  /** Jobs of this queue run at most this many at once per process. */
  concurrency: number;
  /** A claimed job whose worker vanished is handed out again after this long (renewed while it runs). */
  leaseMs: number;
}

export type QueuePolicies = Record<QueueName, QueuePolicy>;

/**
 * A publish job's lease is the target's attempt lease, and both are renewed while the work runs, so a
 * job is handed out again only when its worker died. That is harmless even so: each target's claim lets
 * one attempt through. What notices a dead worker's targets is the attempt lease (heartbeat, recovery
 * sweep), not the job lease.
 *
 * `concurrency` (HERALD_WORKER_CONCURRENCY) is what one process runs at once of each publishing queue and
 * of webhook deliveries: the work waits on platforms and receivers, not on this process, so it can be
 * high; a publish-post job runs each of its post's targets at once.
 */
export function queuePolicies(publishLeaseMs: number, concurrency = 64): QueuePolicies {
  return {
    'publish-post': { concurrency, leaseMs: publishLeaseMs },
    'publish-target': { concurrency, leaseMs: publishLeaseMs },
    'publish-comment': { concurrency: Math.max(1, Math.ceil(concurrency / 4)), leaseMs: publishLeaseMs },
    'deliver-webhook': { concurrency, leaseMs: 60_000 },
  };
}

/** Jobs as the columns of one insert (PostgreSQL): ids, queues, payloads, run_at, and the time of enqueuing. */
export interface JobRows {
  columns: [ids: string[], queues: string[], payloads: string[], runAts: number[], now: number];
  /** The payload of the NOTIFY that announces them, or null when none is due soon enough to announce. */
  notify: string | null;
}

export interface JobQueue {
  readonly kind: 'table';
  /** Adds jobs inside the caller's transaction: they exist if and only if it commits. */
  enqueue(trx: DbTx, jobs: EnqueueJob[]): Promise<void>;
  /**
   * PostgreSQL: the rows `enqueue` would insert, as the values of `jobsFrom` (table-queue.ts), and the
   * notification to send with them (null: none), for a statement that writes them along with other rows.
   * Absent on SQLite.
   */
  rowsOf?(jobs: EnqueueJob[]): JobRows;
  /** Registers the handler of a queue; call before start(). */
  register<Q extends QueueName>(queue: Q, handler: JobHandler<Q>): void;
  /** Starts taking jobs (worker role). Sending works without it. */
  start(): Promise<void>;
  /** Stops taking jobs and waits (bounded) for the running ones. */
  stop(): Promise<void>;
  /** Jobs due and not yet taken, per queue (for metrics). */
  depth(): Promise<Record<QueueName, number>>;
  /** Hints that jobs were just committed (the table queue is woken by enqueue itself; kept for callers). */
  nudge(): void;
}

/** Back-off for a handler that threw (a bug or a lost database): 1 s, 2 s, 4 s … capped at 5 min. */
export function crashBackoffMs(attempts: number): number {
  return Math.min(5 * 60_000, 1000 * 2 ** Math.max(0, attempts - 1));
}

/** After this many crashes a job is dropped (and logged); the recovery sweep re-creates needed ones. */
export const MAX_JOB_ATTEMPTS = 10;
