// One small queue interface with two implementations: a table poller on SQLite and pg-boss on
// PostgreSQL. Jobs are triggers, not state: the rows they point at (targets, deliveries) hold the truth,
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
  /** A claimed job whose worker vanished is handed out again after this long. */
  leaseMs: number;
  /**
   * pg-boss wakes idle workers only for jobs that are runnable when they are sent; a job dated later is
   * found by polling, every 30 s unless this says sooner. Set where a job's due time must be kept closely.
   */
  maxPollSeconds?: number;
}

export type QueuePolicies = Record<QueueName, QueuePolicy>;

/**
 * A publish job's lease is the target's attempt lease. A job can outlive it (a video still processing
 * at the platform) and be handed out a second time; that is harmless: each target's claim lets one
 * attempt through, and the second run finds it taken and looks again when that lease would end. What
 * notices a dead worker is the attempt lease (heartbeat, recovery sweep), not the job lease. All
 * queues hold jobs dated in the future (schedules, back-offs, webhook retries due 5 s after a
 * failure), which only polling finds: at least every second.
 */
export function queuePolicies(publishLeaseMs: number): QueuePolicies {
  return {
    'publish-post': { concurrency: 16, leaseMs: publishLeaseMs, maxPollSeconds: 1 },
    'publish-target': { concurrency: 32, leaseMs: publishLeaseMs, maxPollSeconds: 1 },
    'publish-comment': { concurrency: 8, leaseMs: publishLeaseMs, maxPollSeconds: 1 },
    'deliver-webhook': { concurrency: 16, leaseMs: 60_000, maxPollSeconds: 1 },
  };
}

export interface JobQueue {
  readonly kind: 'table' | 'pg-boss';
  /** Adds jobs inside the caller's transaction: they exist if and only if it commits. */
  enqueue(trx: DbTx, jobs: EnqueueJob[]): Promise<void>;
  /** Registers the handler of a queue; call before start(). */
  register<Q extends QueueName>(queue: Q, handler: JobHandler<Q>): void;
  /** Starts taking jobs (worker role). Sending works without it. */
  start(): Promise<void>;
  /** Stops taking jobs and waits (bounded) for the running ones. */
  stop(): Promise<void>;
  /** Jobs waiting, per queue (for metrics). */
  depth(): Promise<Record<QueueName, number>>;
  /** Hints that jobs were just committed, so an idle poller looks now rather than at its next tick. */
  nudge(): void;
}

/** Back-off for a handler that threw (a bug or a lost database): 1 s, 2 s, 4 s … capped at 5 min. */
export function crashBackoffMs(attempts: number): number {
  return Math.min(5 * 60_000, 1000 * 2 ** Math.max(0, attempts - 1));
}

/** After this many crashes a job is dropped (and logged); the recovery sweep re-creates needed ones. */
export const MAX_JOB_ATTEMPTS = 10;
