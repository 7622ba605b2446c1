// The job queue: rows of the `jobs` table in Herald's own database, on SQLite and on PostgreSQL alike. A
// job is inserted by the transaction of the change that caused it, claimed with a lease (FOR UPDATE SKIP
// LOCKED on PostgreSQL, so processes never take the same job), renewed while its handler runs, and
// deleted when the handler returns. A worker that died loses its lease and the job is claimed again.
//
// Waking without polling: each process knows when the next job of each queue is due and sleeps until
// then. It learns of new jobs from the enqueuer (on PostgreSQL a NOTIFY sent in the enqueuing statement,
// delivered at commit, for jobs due within two backstop polls; on SQLite in the process itself), and every
// claim also reads the next due time of its queue. A slow backstop poll (`pollMs`) covers a lost notification and jobs whose worker died.
import { sql, type Insertable, type Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database, JobsTable } from '../db/schema.ts';
import type { DialectName } from '../db/dialect.ts';
import { prepare, prepareRow } from '../db/prepared.ts';
import type { Writer } from '../db/writer.ts';
import { settleWithin, type Clock } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import { JOBS_CHANNEL, duePayload, type JobSignals } from './pg-signals.ts';
import {
  MAX_JOB_ATTEMPTS,
  QUEUE_NAMES,
  crashBackoffMs,
  type EnqueueJob,
  type JobHandler,
  type JobQueue,
  type JobRows,
  type QueueName,
  type QueuePolicies,
} from './queue.ts';

export interface TableQueueOptions {
  db: Kysely<Database>;
  write: Writer['write'];
  dialect: DialectName;
  clock: Clock;
  log: Logger;
  policies: QueuePolicies;
  /** PostgreSQL: how processes tell each other of new jobs (pg-signals.ts). */
  signals?: JobSignals;
  /** The backstop poll of a worker (default: 200 ms on SQLite, 30 s on PostgreSQL). */
  pollMs?: number;
}

interface ClaimedJob {
  id: string;
  payload: string;
  attempts: number;
}

/** One queue's work in this process. */
interface Lane {
  queue: QueueName;
  running: Map<string, Promise<void>>;
  pumping: boolean;
  again: boolean;
  /** The last claim took every free slot: more may be due the moment a slot frees. */
  backlog: boolean;
  wakeAt: number | null;
  timer: NodeJS.Timeout | null;
  lastPumpAt: number;
}

/**
 * Claims of one queue come at most this often, so that a stream of jobs due a few milliseconds apart is
 * taken in batches (and several workers woken by one notification do not each run a claim per job).
 */
const MIN_CLAIM_GAP_MS = 20;

/**
 * PostgreSQL: a job due later than this many backstop polls from now is not announced (see enqueue). Two,
 * so that a poll that ran while the enqueuing transaction was still committing is not the last one before
 * the job is due.
 */
const NOTIFY_HORIZON_POLLS = 2;

type NewJob = Insertable<JobsTable>;
// Written with every scheduled post on SQLite: built and compiled once (see db/prepared.ts).
const insertJob = prepareRow<NewJob>(
  ['id', 'queue', 'payload', 'run_at', 'state', 'locked_until', 'created_at'],
  (db, row) => db.insertInto('jobs').values(row),
);

// PostgreSQL: jobs of any number in one statement (the columns as arrays), with or without the
// notification; built and compiled once (see db/prepared.ts). `jobsFrom` ends with its FROM clause, so a
// statement that writes jobs with other rows (posts/create-statement.ts) may add a WHERE.
type JobColumns = JobRows['columns'];
export const jobsFrom = (ids: unknown, queues: unknown, payloads: unknown, runAts: unknown, now: unknown) => sql`
  insert into jobs (id, queue, payload, run_at, state, locked_until, created_at)
  select id, queue, payload, run_at, 'queued', null, ${now}
  from unnest(${ids}::text[], ${queues}::text[], ${payloads}::text[], ${runAts}::bigint[]) as j(id, queue, payload, run_at)`;
/** When each queue's earliest job of `jobs` is due (a job without runAt is due now). */
function dueByQueue(jobs: readonly EnqueueJob[], now: number): Map<QueueName, number> {
  const due = new Map<QueueName, number>();
  for (const j of jobs) due.set(j.queue, Math.min(due.get(j.queue) ?? Infinity, j.runAt ?? now));
  return due;
}

const insertJobs = prepare<JobColumns>(5, (db, ...c) => ({ compile: () => jobsFrom(...c).compile(db) }));
const insertJobsAndNotify = prepare<[...JobColumns, payload: string]>(6, (db, ids, queues, payloads, runAts, now, payload) => ({
  compile: () => sql`with inserted as (${jobsFrom(ids, queues, payloads, runAts, now)}) select pg_notify(${JOBS_CHANNEL}, ${payload})`.compile(db),
}));

export function createTableQueue(options: TableQueueOptions): JobQueue {
  const { db, write, dialect, clock, log, policies, signals } = options;
  const postgres = dialect === 'postgres';
  const pollMs = options.pollMs ?? (postgres ? 30_000 : 200);
  const handlers = new Map<QueueName, JobHandler<QueueName>>();
  const lanes = new Map<QueueName, Lane>(
    QUEUE_NAMES.map((queue) => [queue, { queue, running: new Map(), pumping: false, again: false, backlog: false, wakeAt: null, timer: null, lastPumpAt: 0 }]),
  );
  let started = false;
  let poller: NodeJS.Timeout | null = null;
  let heartbeat: NodeJS.Timeout | null = null;
  let finished: string[] = [];
  let deleting: Promise<void> | null = null;
  let deleteTimer: NodeJS.Timeout | null = null;

  // --- Claiming -------------------------------------------------------------------------------------

  /** Claims up to `limit` due jobs (and jobs whose worker's lease ran out); also the next due time. */
  async function claim(queue: QueueName, limit: number): Promise<{ jobs: ClaimedJob[]; nextAt: number | null }> {
    const now = clock.now();
    const lockedUntil = now + policies[queue].leaseMs;
    if (postgres) {
      // One statement, outside any transaction: the claim, then the next due time of what is left.
      const r = await sql<{ id: string | null; payload: string | null; attempts: number | null; next_at: number | null }>`
        with due as (
          select id from jobs where queue = ${queue} and state = 'queued' and run_at <= ${now}
          order by run_at limit ${limit} for update skip locked
        ), abandoned as (
          select id from jobs where queue = ${queue} and state = 'active' and locked_until <= ${now}
          limit ${limit} for update skip locked
        ), claimed as (
          update jobs set state = 'active', locked_until = ${lockedUntil}, attempts = attempts + 1
          where id in (select id from (select id from due union all select id from abandoned) picked limit ${limit})
          returning id, payload, attempts
        )
        select id, payload, attempts, null::bigint as next_at from claimed
        union all
        select null, null, null, (select min(run_at) from jobs where queue = ${queue} and state = 'queued' and run_at > ${now})
      `.execute(db);
      const jobs: ClaimedJob[] = [];
      let nextAt: number | null = null;
      for (const row of r.rows) {
        if (row.id !== null) jobs.push({ id: row.id, payload: row.payload!, attempts: row.attempts! });
        else nextAt = row.next_at === null ? null : Number(row.next_at);
      }
      return { jobs, nextAt };
    }
    // SQLite: one writer, so no two claims overlap. Two index range scans rather than one OR, which
    // SQLite would answer with a table scan.
    return write(async (trx) => {
      const due = await trx.selectFrom('jobs').select('id').where('queue', '=', queue).where('state', '=', sql.lit('queued')).where('run_at', '<=', now).orderBy('run_at').limit(limit).execute();
      const abandoned =
        due.length < limit
          ? await trx.selectFrom('jobs').select('id').where('queue', '=', queue).where('state', '=', sql.lit('active')).where('locked_until', '<=', now).limit(limit - due.length).execute()
          : [];
      const ids = [...due, ...abandoned].map((r) => r.id);
      const jobs =
        ids.length === 0
          ? []
          : await trx
              .updateTable('jobs')
              .set((eb) => ({ state: 'active', locked_until: lockedUntil, attempts: eb('attempts', '+', 1) }))
              .where('id', 'in', ids)
              .returning(['id', 'payload', 'attempts'])
              .execute();
      const next = await trx
        .selectFrom('jobs')
        .select((eb) => eb.fn.min('run_at').as('at'))
        .where('queue', '=', queue)
        .where('state', '=', sql.lit('queued'))
        .where('run_at', '>', now)
        .executeTakeFirst();
      return { jobs, nextAt: next?.at == null ? null : Number(next.at) };
    });
  }

  /** Wakes the lane at `at` (epoch ms), unless it wakes earlier anyway. */
  function wake(lane: Lane, at: number) {
    if (!started || !handlers.has(lane.queue)) return;
    const when = Math.max(at, lane.lastPumpAt + MIN_CLAIM_GAP_MS);
    if (lane.wakeAt !== null && lane.wakeAt <= when) return;
    if (lane.timer) clearTimeout(lane.timer);
    lane.wakeAt = when;
    // Never longer than the backstop poll: a test clock may jump ahead meanwhile.
    const delay = Math.max(0, Math.min(when - clock.now(), pollMs));
    lane.timer = setTimeout(() => {
      lane.timer = null;
      lane.wakeAt = null;
      void pump(lane);
    }, delay);
    lane.timer.unref();
  }

  async function pump(lane: Lane): Promise<void> {
    if (!started || !handlers.has(lane.queue)) return;
    if (lane.pumping) {
      lane.again = true;
      return;
    }
    lane.pumping = true;
    try {
      do {
        lane.again = false;
        lane.lastPumpAt = clock.now();
        const free = policies[lane.queue].concurrency - lane.running.size;
        if (free <= 0) {
          lane.backlog = true;
          break;
        }
        const { jobs, nextAt } = await claim(lane.queue, free);
        for (const job of jobs) run(lane, job);
        lane.backlog = jobs.length >= free;
        if (lane.backlog) lane.again = true;
        else if (nextAt !== null) wake(lane, nextAt);
      } while (lane.again && started);
    } catch (err) {
      log.error({ err, queue: lane.queue }, 'job claim failed; trying again shortly');
      wake(lane, clock.now() + 1000);
    } finally {
      lane.pumping = false;
    }
  }

  function pumpAll() {
    for (const lane of lanes.values()) void pump(lane);
  }

  // --- Running --------------------------------------------------------------------------------------

  function run(lane: Lane, job: ClaimedJob) {
    const handler = handlers.get(lane.queue)!;
    const p = (async () => {
      try {
        await handler(JSON.parse(job.payload));
        finished.push(job.id);
        deleteFinishedSoon();
      } catch (err) {
        await retryLater(lane, job, err);
      }
    })().finally(() => {
      lane.running.delete(job.id);
      // A slot freed: if the last claim left work behind, take more (in a batch, MIN_CLAIM_GAP_MS on).
      if (lane.backlog) wake(lane, clock.now());
    });
    lane.running.set(job.id, p);
  }

  async function retryLater(lane: Lane, job: ClaimedJob, err: unknown) {
    const queue = lane.queue;
    try {
      if (job.attempts >= MAX_JOB_ATTEMPTS) {
        log.error({ err, queue, jobId: job.id }, 'job failed too many times; dropped');
        finished.push(job.id);
        deleteFinishedSoon();
        return;
      }
      log.warn({ err, queue, jobId: job.id, attempts: job.attempts }, 'job failed; will retry');
      const runAt = clock.now() + crashBackoffMs(job.attempts);
      const reschedule = (k: Pick<Kysely<Database>, 'updateTable'>) =>
        k.updateTable('jobs').set({ state: 'queued', locked_until: null, run_at: runAt }).where('id', '=', job.id).execute();
      await (postgres ? reschedule(db) : write((trx) => reschedule(trx)));
      wake(lane, runAt);
    } catch (e) {
      // Its lease runs out and the job is claimed again.
      log.error({ err: e, queue, jobId: job.id }, 'could not reschedule job');
    }
  }

  /**
   * Finished jobs are deleted together, one statement for all that finished within MIN_CLAIM_GAP_MS. A
   * crash in between leaves them to be run again when their lease ends, which every handler allows.
   */
  function deleteFinishedSoon() {
    if (deleteTimer || deleting) return;
    deleteTimer = setTimeout(() => {
      deleteTimer = null;
      deleting = deleteFinished().finally(() => {
        deleting = null;
        if (finished.length > 0) deleteFinishedSoon();
      });
    }, MIN_CLAIM_GAP_MS);
    deleteTimer.unref();
  }

  async function deleteFinished(): Promise<void> {
    const ids = finished;
    finished = [];
    if (ids.length === 0) return;
    try {
      for (let i = 0; i < ids.length; i += 500) {
        const chunk = ids.slice(i, i + 500);
        if (postgres) await sql`delete from jobs where id = any(${chunk}::text[])`.execute(db);
        else await write((trx) => trx.deleteFrom('jobs').where('id', 'in', chunk).execute());
      }
    } catch (err) {
      // Left active, they are claimed again when their lease ends; handlers are idempotent.
      log.error({ err, jobs: ids.length }, 'could not delete finished jobs');
    }
  }

  /** Renews the leases of the jobs this process runs: one statement per queue with running jobs. */
  async function renewLeases(): Promise<void> {
    const now = clock.now();
    for (const lane of lanes.values()) {
      if (lane.running.size === 0) continue;
      const ids = [...lane.running.keys()];
      const until = now + policies[lane.queue].leaseMs;
      if (postgres) await sql`update jobs set locked_until = ${until} where id = any(${ids}::text[]) and state = 'active'`.execute(db);
      else await write((trx) => trx.updateTable('jobs').set({ locked_until: until }).where('id', 'in', ids).where('state', '=', sql.lit('active')).execute());
    }
  }

  /** PostgreSQL: the rows of `jobs` and the notification that announces those due soon (see enqueue). */
  function rowsOf(jobs: EnqueueJob[]): JobRows {
    const now = clock.now();
    const due = dueByQueue(jobs, now);
    // Only jobs due within two backstop polls are announced: a later one is found by a worker's poll
    // (each claim reads its queue's next due time) before it is due. A NOTIFY costs more than its
    // message: PostgreSQL commits notifying transactions one at a time, under one lock for the whole
    // server, so announcing every post scheduled for next week would make all creates wait in line.
    const soon = new Map([...due].filter(([, at]) => at <= now + NOTIFY_HORIZON_POLLS * pollMs));
    const ids = jobs.map(() => newId('job'));
    return {
      columns: [ids, jobs.map((j) => j.queue), jobs.map((j) => JSON.stringify(j.payload)), jobs.map((j) => Math.floor(j.runAt ?? now)), now],
      notify: soon.size > 0 ? duePayload(soon) : null,
    };
  }

  const allRunning = () => [...lanes.values()].flatMap((l) => [...l.running.values()]);

  return {
    kind: 'table',
    async enqueue(trx, jobs: EnqueueJob[]) {
      if (jobs.length === 0) return;
      if (postgres) {
        const { columns, notify } = rowsOf(jobs);
        // The insert and the notification in one statement; PostgreSQL sends it when (if) this commits.
        if (notify !== null) await insertJobsAndNotify.execute(trx, ...columns, notify);
        else await insertJobs.execute(trx, ...columns);
        return;
      }
      const now = clock.now();
      const due = dueByQueue(jobs, now);
      const rows = jobs.map((j) => ({ id: newId('job'), queue: j.queue, payload: JSON.stringify(j.payload), run_at: Math.floor(j.runAt ?? now) }));
      for (const r of rows) await insertJob.execute(trx, { ...r, state: 'queued', locked_until: null, created_at: now });
      // One process on SQLite: its own lanes are told directly. A claim is a write, so it runs after this
      // transaction has committed.
      for (const [queue, at] of due) wake(lanes.get(queue)!, at);
    },
    ...(postgres ? { rowsOf } : {}),
    register(queue, handler) {
      handlers.set(queue, handler as JobHandler<QueueName>);
    },
    async start() {
      if (started) return;
      started = true;
      if (signals) await signals.listen((queue, at) => {
        const lane = lanes.get(queue as QueueName);
        if (lane) wake(lane, at);
      }, pumpAll);
      poller = setInterval(pumpAll, pollMs);
      poller.unref();
      const leaseMs = Math.min(...QUEUE_NAMES.map((q) => policies[q].leaseMs));
      heartbeat = setInterval(() => void renewLeases().catch((err: unknown) => log.warn({ err }, 'could not renew job leases')), Math.max(50, Math.floor(leaseMs / 3)));
      heartbeat.unref();
      pumpAll();
    },
    async stop() {
      started = false;
      if (poller) clearInterval(poller);
      poller = null;
      for (const lane of lanes.values()) {
        if (lane.timer) clearTimeout(lane.timer);
        lane.timer = null;
        lane.wakeAt = null;
      }
      await signals?.close();
      // Running handlers get a bounded time to finish; the rest are claimed again after their lease.
      await settleWithin(allRunning(), 10_000);
      if (heartbeat) clearInterval(heartbeat);
      heartbeat = null;
      // What finished is deleted now rather than after the timer (which does not keep the process alive).
      if (deleteTimer) clearTimeout(deleteTimer);
      deleteTimer = null;
      await deleting;
      await deleteFinished();
    },
    async depth() {
      // The backlog: jobs due now that no worker has taken yet (scheduled jobs are not waiting).
      const rows = await db
        .selectFrom('jobs')
        .select(['queue', (eb) => eb.fn.countAll<number>().as('n')])
        .where('state', '=', sql.lit('queued'))
        .where('run_at', '<=', clock.now())
        .groupBy('queue')
        .execute();
      const out = Object.fromEntries(QUEUE_NAMES.map((q) => [q, 0])) as Record<QueueName, number>;
      for (const r of rows) out[r.queue as QueueName] = Number(r.n);
      return out;
    },
    nudge() {
      // Enqueuing already woke whoever runs the job (see enqueue).
    },
  };
}
