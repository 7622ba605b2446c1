// Herald used pg-boss for jobs on PostgreSQL until its own queue (table-queue.ts) replaced it. Jobs an
// older version left waiting in pg-boss (scheduled posts, retries, webhook deliveries) are moved into the
// `jobs` table whenever Herald starts or migrates, and removed from pg-boss in the same transaction, so
// none is lost and none is moved twice, even while older processes still run during an upgrade.
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { QUEUE_NAMES } from './queue.ts';

/** Moves pending pg-boss jobs of Herald's queues into the jobs table; returns how many. */
export async function adoptPgBossJobs(db: Db, now: number): Promise<number> {
  if (db.dialect !== 'postgres') return 0;
  const present = await sql<{ t: string | null }>`select to_regclass('pgboss.job')::text as t`.execute(db.writable);
  if (!present.rows[0]?.t) return 0;
  return db.write(async (trx) => {
    const r = await sql`
      with moved as (
        delete from pgboss.job
        where name = any(${[...QUEUE_NAMES]}::text[]) and state::text in ('created', 'retry', 'active')
        returning id, name, data, start_after
      )
      insert into jobs (id, queue, payload, run_at, state, locked_until, attempts, created_at)
      select 'job_pgboss_' || replace(id::text, '-', ''), name, coalesce(data::text, '{}'),
             (extract(epoch from start_after) * 1000)::bigint, 'queued', null, 0, ${now}
      from moved
      on conflict (id) do nothing
    `.execute(trx);
    return Number(r.numAffectedRows ?? 0n);
  });
}
