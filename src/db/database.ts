// Opens the database the configuration names: an embedded SQLite file (WAL) by default, PostgreSQL
// when DATABASE_URL is set. Callers get one Kysely instance and never branch on the dialect themselves.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { DialectName } from './dialect.ts';
import type { Database } from './schema.ts';

export interface Db {
  kysely: Kysely<Database>;
  dialect: DialectName;
  /** Where the data lives, for logs (no password). */
  describe: string;
  /** PostgreSQL connection string (for pg-boss), null on SQLite. */
  connectionString: string | null;
  /** The PostgreSQL pool (for stores that bring their own SQL, like the rate limiter), null on SQLite. */
  pgPool: pg.Pool | null;
  ping(): Promise<void>;
  close(): Promise<void>;
}

const INT8_OID = 20;

/** bigint columns hold epoch milliseconds and counts, which fit a JS number exactly. */
const pgTypes = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format as 'text'),
};

export function openDatabase(options: {
  dataDir: string;
  databaseUrl: string | null;
  poolSize?: number;
  /** An idle PostgreSQL connection failed (server restart, session terminated); the pool replaces it. */
  onIdleError?: (err: Error) => void;
}): Db {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10, types: pgTypes });
    // Without a listener such an error would be thrown as an uncaught exception and end the process.
    // It also arrives after close(): pool.end() resolves before the sockets of its last clients are shut.
    pool.on('error', (err) => options.onIdleError?.(err));
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    const u = new URL(options.databaseUrl);
    return {
      kysely,
      dialect: 'postgres',
      describe: `postgresql://${u.host}${u.pathname}`,
      connectionString: options.databaseUrl,
      pgPool: pool,
      ping: async () => {
        await sql`select 1`.execute(kysely);
      },
      close: () => kysely.destroy(),
    };
  }
  mkdirSync(options.dataDir, { recursive: true });
  const file = join(options.dataDir, 'herald.db');
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  // NORMAL is durable in WAL mode except for the last transactions before a power cut (not a crash).
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return {
    kysely,
    dialect: 'sqlite',
    describe: `sqlite:${file}`,
    connectionString: null,
    pgPool: null,
    ping: async () => {
      await sql`select 1`.execute(kysely);
    },
    close: () => kysely.destroy(),
  };
}
