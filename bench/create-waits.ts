// Where the create path's time goes on PostgreSQL: POST /v1/posts (scheduled, 3 targets, Idempotency-Key)
// from 16 connections, with the statements each create sends (pg_stat_statements) and what the server's
// connections were doing, sampled every 20 ms (pg_stat_activity: waiting for Herald to send the next
// statement, ClientRead; for a lock; or running). `node bench/create-waits.ts postgres`
// On SQLite (`node bench/create-waits.ts`) it counts what the creates stored instead: the rows of each table
// and the entries of each of its indexes (a partial index holds only the rows its WHERE admits), per post.
// Each is a B-tree insert, and a B-tree written by a commit is at least one page written to the WAL.
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { cpuSeconds, load, serverCpuSeconds, startCreateBench } from './lib.ts';
import { startPostgres } from './postgres.ts';

const postgres = process.argv[2] === 'postgres' ? await startPostgres() : undefined;
const { database, herald, setup, stop } = await startCreateBench(postgres);
try {
  await postgres?.resetStatements();
  const waits = new Map<string, number>();
  let sampling = true;
  const sampler = (async () => {
    if (!postgres) return;
    const c = new pg.Client({ connectionString: postgres.url });
    await c.connect();
    while (sampling) {
      const r = await c.query(`select coalesce(wait_event_type,'-') || ':' || coalesce(wait_event,'-') || ' ' || state || ' ' || left(regexp_replace(query, '\\s+', ' ', 'g'), 60) as w from pg_stat_activity where datname = $1`, [database.name]);
      for (const row of r.rows) waits.set(row.w, (waits.get(row.w) ?? 0) + 1);
      await new Promise((r) => setTimeout(r, 20));
    }
    await c.end();
  })();
  const cpu0 = cpuSeconds(herald.child.pid!);
  const backends = new RegExp(`^postgres: .*${database.name}`);
  const pg0 = postgres ? serverCpuSeconds(backends) : 0;
  const r = await load({ url: `${herald.url}/v1/posts`, duration: Number(process.env.BENCH_SECONDS ?? 10), requests: [{ method: 'POST', setupRequest: setup }] });
  const cpu = cpuSeconds(herald.child.pid!) - cpu0;
  const pgCpu = postgres ? serverCpuSeconds(backends) - pg0 : 0;
  sampling = false;
  await sampler;
  console.log(`${r.requests} creates, ${Math.round(r.requestsPerSecond)}/s, p50 ${r.p50Ms} p99 ${r.p99Ms} ms, non2xx ${r.non2xx}, Herald CPU ${((cpu / r.requests) * 1000).toFixed(3)} ms/req, PG CPU ${((pgCpu / r.requests) * 1000).toFixed(3)} ms/req`);
  if (postgres) {
    const s = await postgres.statements(database.name!);
    console.log(`statements per request: ${((s?.calls ?? 0) / r.requests).toFixed(2)}`);
    for (const t of s?.top ?? []) console.log(`  ${(t.calls / r.requests).toFixed(2)}  ${t.query}`);
    console.log('wait samples:');
    for (const [w, n] of [...waits].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`  ${n}  ${w}`);
  } else {
    storedPerPost(join(database.dataDir, 'herald.db'));
  }
} finally {
  await stop();
}

/** The rows and index entries in each table the creates wrote to, per post stored. */
function storedPerPost(file: string): void {
  const db = new SQLite(file, { readonly: true });
  try {
    const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    const posts = count('select count(*) as n from posts');
    let total = 0;
    console.log(`B-tree entries per post (${posts} posts):`);
    for (const table of ['posts', 'post_targets', 'jobs', 'idempotency_keys', 'media_uses', 'webhook_events']) {
      const rows = count(`select count(*) as n from "${table}"`);
      if (rows === 0) continue;
      const withoutRowid = /without rowid/i.test((db.prepare(`select sql from sqlite_master where type = 'table' and name = ?`).get(table) as { sql: string }).sql);
      const trees: [string, number][] = withoutRowid ? [] : [[table, rows]];
      for (const index of db.prepare(`select name from pragma_index_list(?)`).all(table) as { name: string }[]) {
        const sql = (db.prepare(`select sql from sqlite_master where type = 'index' and name = ?`).get(index.name) as { sql: string | null } | undefined)?.sql;
        const where = sql ? /\swhere\s([\s\S]*)$/i.exec(sql)?.[1] : undefined;
        trees.push([index.name, where ? count(`select count(*) as n from "${table}" where ${where}`) : rows]);
      }
      for (const [name, n] of trees) {
        total += n / posts;
        console.log(`  ${(n / posts).toFixed(2)}  ${name}`);
      }
    }
    console.log(`  ${total.toFixed(2)}  in all`);
  } finally {
    db.close();
  }
}
