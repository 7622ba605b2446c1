// The job queue (src/jobs/table-queue.ts) on the database the suite runs on, with several queue instances
// standing in for several processes: a job dated later runs at its time although nobody polls, each job
// runs once however many instances there are, a job outliving its lease stays with its worker, a dead
// worker's job is taken over, a handler that throws is retried, and finished jobs leave nothing behind.
// On PostgreSQL, jobs an older Herald left in pg-boss are moved into the jobs table.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import pino from 'pino';
import { openDatabase, type Db } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { createPgSignals } from '../../src/jobs/pg-signals.ts';
import { adoptPgBossJobs } from '../../src/jobs/pgboss-adopt.ts';
import { queuePolicies, type JobQueue, type QueuePolicies } from '../../src/jobs/queue.ts';
import { createTableQueue } from '../../src/jobs/table-queue.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { createTestDatabase, usingPostgres, type TestDatabase } from '../helpers/herald.ts';
import { gate, until } from '../helpers/wait.ts';

const log = pino({ level: 'silent' });
let database: TestDatabase;
const dbs: Db[] = [];
const queues: JobQueue[] = [];

before(async () => {
  database = await createTestDatabase();
  const db = openDatabase({ dataDir: database.dataDir, databaseUrl: database.databaseUrl });
  dbs.push(db);
  await migrateToLatest(db);
});
after(async () => {
  for (const q of queues) await q.stop();
  for (const db of dbs) await db.close();
  await database.drop();
});

/** A queue as one process has it: its own connection pool on PostgreSQL (the same database handle on SQLite). */
function queueOf(options: { pollMs: number; policies?: QueuePolicies }): { queue: JobQueue; db: Db } {
  let db = dbs[0]!;
  if (usingPostgres) {
    db = openDatabase({ dataDir: database.dataDir, databaseUrl: database.databaseUrl });
    dbs.push(db);
  }
  const queue = createTableQueue({
    db: db.kysely,
    write: db.write,
    dialect: db.dialect,
    clock: systemClock,
    log,
    pollMs: options.pollMs,
    policies: options.policies ?? queuePolicies(5_000, 8),
    signals: usingPostgres ? createPgSignals({ connectionString: database.databaseUrl!, log }) : undefined,
  });
  queues.push(queue);
  return { queue, db };
}

const jobRows = (db: Db, postId: string) =>
  db.kysely.selectFrom('jobs').selectAll().where('payload', '=', JSON.stringify({ postId })).execute();

test('a job dated later runs at its time, though no worker polls (the backstop poll is ten minutes away)', async () => {
  const { queue, db } = queueOf({ pollMs: 600_000 });
  const ran: string[] = [];
  queue.register('publish-post', async ({ postId }) => void ran.push(postId));
  await queue.start();
  await db.write((trx) => queue.enqueue(trx, [{ queue: 'publish-post', payload: { postId: 'later' }, runAt: Date.now() + 300 }]));
  await until('the job dated later to run', () => ran.includes('later'));
  await db.write((trx) => queue.enqueue(trx, [{ queue: 'publish-post', payload: { postId: 'now' } }]));
  await until('the job due now to run', () => ran.includes('now'));
  assert.deepEqual(ran, ['later', 'now']);
  await until('finished jobs to be deleted', async () => (await jobRows(db, 'later')).length === 0 && (await jobRows(db, 'now')).length === 0);
  await queue.stop();
});

test('with several workers each job runs once, and a job outliving its lease stays with its worker', async () => {
  // Leases of 300 ms, handlers held for several: only renewal keeps the jobs from being handed out again.
  const policies = queuePolicies(300, 4);
  const workers = [queueOf({ pollMs: 50, policies }), queueOf({ pollMs: 50, policies }), queueOf({ pollMs: 50, policies })];
  const runs = new Map<string, number>();
  const byWorker = [0, 0, 0];
  const release = gate();
  workers.forEach(({ queue }, i) => {
    queue.register('publish-target', async ({ targetId }) => {
      runs.set(targetId, (runs.get(targetId) ?? 0) + 1);
      byWorker[i]!++;
      await release.opened;
    });
  });
  for (const { queue } of workers) await queue.start();
  const ids = Array.from({ length: 8 }, (_, i) => `t${i}`);
  const { queue: first, db } = workers[0]!;
  await db.write((trx) => first.enqueue(trx, ids.map((targetId) => ({ queue: 'publish-target' as const, payload: { targetId } }))));
  // Four slots each, eight jobs: slots stay free, so a job whose lease lapsed would be taken again.
  await until('all eight jobs to be running', () => runs.size === 8);
  const leases = () => db.kysely.selectFrom('jobs').select('locked_until').where('queue', '=', 'publish-target').execute();
  const firstLeaseEnd = Math.max(...(await leases()).map((j) => j.locked_until!));
  // Renewed three times over: without renewal, every job would have been handed out again by now.
  await until('every lease to be renewed well past the first', async () => Math.min(...(await leases()).map((j) => j.locked_until!)) > firstLeaseEnd + 900);
  release.open();
  await until('every job to finish and be deleted', async () => {
    const left = await db.kysely.selectFrom('jobs').select('id').where('queue', '=', 'publish-target').execute();
    return left.length === 0;
  });
  assert.deepEqual([...runs.values()], ids.map(() => 1), 'each job ran once');
  assert.equal(byWorker.reduce((a, b) => a + b, 0), 8);
  assert.ok(byWorker.every((n) => n <= 4), `no worker took more than it could run: ${byWorker}`);
  for (const { queue } of workers) await queue.stop();
});

test('a job whose worker died (its lease ran out) is taken over; a handler that throws is retried', async () => {
  const { queue, db } = queueOf({ pollMs: 50 });
  let failures = 0;
  const done: string[] = [];
  queue.register('deliver-webhook', async ({ deliveryId }) => {
    if (deliveryId === 'flaky' && failures++ < 1) throw new Error('a bug, once');
    done.push(deliveryId);
  });
  // As a worker leaves it when killed: claimed, its lease over.
  await db.writable
    .insertInto('jobs')
    .values({ id: 'job_dead_worker', queue: 'deliver-webhook', payload: JSON.stringify({ deliveryId: 'orphan' }), run_at: Date.now() - 10_000, state: 'active', locked_until: Date.now() - 1, attempts: 1, created_at: Date.now() - 10_000 })
    .execute();
  await queue.start();
  await db.write((trx) => queue.enqueue(trx, [{ queue: 'deliver-webhook', payload: { deliveryId: 'flaky' } }]));
  await until('the orphaned and the flaky job to run', () => done.includes('orphan') && done.includes('flaky'));
  assert.equal(failures, 2, 'the flaky job failed once, then ran');
  await queue.stop();
});

test('jobs an older Herald left in pg-boss are moved into the jobs table, once', { skip: !usingPostgres && 'pg-boss was only used on PostgreSQL' }, async () => {
  const db = dbs[0]!;
  const k = db.writable;
  // The part of pg-boss 12's schema the move reads.
  await sql`create schema if not exists pgboss`.execute(k);
  await sql`create type pgboss.job_state as enum ('created', 'retry', 'active', 'completed', 'cancelled', 'failed')`.execute(k);
  await sql`create table pgboss.job (id uuid not null default gen_random_uuid(), name text not null, data jsonb, state pgboss.job_state not null default 'created', start_after timestamptz not null default now())`.execute(k);
  const due = new Date(Date.now() + 3_600_000);
  await sql`insert into pgboss.job (name, data, state, start_after) values
    ('publish-post', '{"postId":"post_waiting"}', 'created', ${due}),
    ('deliver-webhook', '{"deliveryId":"whd_retrying"}', 'retry', now()),
    ('publish-target', '{"targetId":"tgt_running"}', 'active', now()),
    ('publish-post', '{"postId":"post_done"}', 'completed', now()),
    ('some-other-queue', '{}', 'created', now())`.execute(k);
  assert.equal(await adoptPgBossJobs(db, Date.now()), 3);
  assert.equal(await adoptPgBossJobs(db, Date.now()), 0, 'nothing is moved twice');
  const moved = await k.selectFrom('jobs').selectAll().where('id', 'like', 'job_pgboss_%').orderBy('queue').execute();
  assert.deepEqual(moved.map((j) => [j.queue, j.payload, j.state]), [
    ['deliver-webhook', '{"deliveryId": "whd_retrying"}', 'queued'],
    ['publish-post', '{"postId": "post_waiting"}', 'queued'],
    ['publish-target', '{"targetId": "tgt_running"}', 'queued'],
  ]);
  assert.equal(moved.find((j) => j.queue === 'publish-post')!.run_at, due.getTime(), 'a scheduled job keeps its time');
  const left = await sql<{ name: string }>`select name from pgboss.job order by name`.execute(k);
  assert.deepEqual(left.rows.map((r) => r.name), ['publish-post', 'some-other-queue'], 'finished and foreign jobs stay');
  await k.deleteFrom('jobs').where('id', 'like', 'job_pgboss_%').execute();
  await sql`drop schema pgboss cascade`.execute(k);
});
