// A PostgreSQL server for the benchmark, started the way .ci/run starts one: the newest server binaries
// under /usr/lib/postgresql, a fresh data directory, loopback only, fsync off (the benchmarks measure
// Herald, not the disk), run as `postgres` when the benchmark runs as root. BENCH_DATABASE_URL names a
// server to use instead (each benchmark creates and drops databases of its own there).
// pg_stat_statements is loaded, so a benchmark can count the statements Herald sends.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startPostgresServer } from '../test/helpers/postgres-server.ts';

export interface PostgresServer {
  /** Connection URL of the server's `postgres` database. */
  url: string;
  /** A fresh database on the server: its URL, and how to drop it. */
  createDatabase(prefix?: string): Promise<{ url: string; drop(): Promise<void> }>;
  /** Statements run on `database` since the last reset (pg_stat_statements), or null when not loaded. */
  statements(database: string): Promise<{ calls: number; top: { calls: number; query: string }[] } | null>;
  resetStatements(): Promise<void>;
  stop(): Promise<void>;
}

async function query<T>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text, values)).rows as T[];
  } finally {
    await c.end();
  }
}

function server(url: string, stop: () => Promise<void>): PostgresServer {
  return {
    url,
    async createDatabase(prefix = 'herald_bench') {
      const name = `${prefix}_${randomBytes(5).toString('hex')}`;
      await query(url, `create database ${name}`);
      const u = new URL(url);
      u.pathname = `/${name}`;
      return { url: u.toString(), drop: async () => void (await query(url, `drop database if exists ${name} with (force)`)) };
    },
    async statements(database) {
      try {
        const rows = await query<{ calls: string; query: string }>(
          url,
          `select s.calls, left(regexp_replace(s.query, '\\s+', ' ', 'g'), 100) as query
             from pg_stat_statements s join pg_database d on d.oid = s.dbid where d.datname = $1 order by s.calls desc`,
          [database],
        );
        return { calls: rows.reduce((n, r) => n + Number(r.calls), 0), top: rows.slice(0, 12).map((r) => ({ calls: Number(r.calls), query: r.query })) };
      } catch {
        return null;
      }
    },
    async resetStatements() {
      await query(url, 'select pg_stat_statements_reset()').catch(() => {});
    },
    stop,
  };
}

export async function startPostgres(): Promise<PostgresServer> {
  if (process.env.BENCH_DATABASE_URL) {
    const url = process.env.BENCH_DATABASE_URL;
    await query(url, 'create extension if not exists pg_stat_statements').catch(() => {});
    return server(url, async () => {});
  }
  // The tests' own server (test/helpers/postgres-server.ts), with room for four processes' pools and the
  // statement counter loaded.
  const own = await startPostgresServer({ prefix: 'herald-bench-pg-', settings: { max_connections: '400', shared_preload_libraries: 'pg_stat_statements' } });
  await query(own.url, 'create extension if not exists pg_stat_statements');
  return server(own.url, () => own.close());
}
