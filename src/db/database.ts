// Opens the database the configuration names: an embedded SQLite file (WAL) by default, PostgreSQL
// when DATABASE_URL is set. Callers get one Kysely instance and never branch on the dialect themselves.
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql, type QueryResult } from 'kysely';
import pg from 'pg';
import { startCheckpointer } from './checkpointer.ts';
import type { DialectName } from './dialect.ts';
import { preparedName, runDirectly } from './prepared.ts';
import { GatedReadDialect, cachedStatements, createReadGate, readRunner } from './sqlite-connection.ts';
import { createPgWriter, createWriter, type PgConnection, type Writer } from './writer.ts';
import type { Database } from './schema.ts';

export interface Db {
  /**
   * For reads. On SQLite it refuses writes, and a read waits while a write transaction is open on the
   * shared connection, so it never sees half of one (see sqlite-connection.ts). Every write goes
   * through write().
   */
  kysely: Kysely<Database>;
  /** Runs a write transaction (grouped with concurrent ones on SQLite; see writer.ts). */
  write: Writer['write'];
  /** Runs a write of one statement (no BEGIN/COMMIT on PostgreSQL; see writer.ts). */
  writeOne: Writer['writeOne'];
  /** A write transaction that starts with reads, sent with BEGIN on PostgreSQL (see writer.ts). */
  writeFrom: Writer['writeFrom'];
  /** PostgreSQL: independent single statements on one connection, sent together (see writer.ts). */
  writeEach?: Writer['writeEach'];
  /**
   * The writing connection itself, for migrations (they run their own transactions) and for tests that
   * set rows up directly. Service code writes through write().
   */
  writable: Kysely<Database>;
  dialect: DialectName;
  /** Where the data lives, for logs (no password). */
  describe: string;
  /** PostgreSQL connection string (for the job notification listener), null on SQLite. */
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

/**
 * The query of a pool connection as Herald sends it: the queries prepared once (db/prepared.ts) run as
 * named statements, so each connection has the server parse them once rather than on every call. Other
 * SQL (built per call, with lists of varying length) stays unnamed: a name per text would pile up.
 */
function namedQuery(client: pg.PoolClient): (text: string, values?: readonly unknown[]) => Promise<pg.QueryResult> {
  const query = client.query.bind(client) as (...args: unknown[]) => Promise<pg.QueryResult>;
  return (text, values) => {
    const name = values !== undefined ? preparedName(text) : undefined;
    return name ? query({ name, text, values }) : values !== undefined ? query(text, values) : query(text);
  };
}

const NAMED = Symbol('named statements');

/** The pool as Kysely sees it: its clients run prepared queries as named statements (namedQuery). */
function namingStatements(pool: pg.Pool): { Client: typeof pg.Client; options: object; connect(): Promise<pg.PoolClient>; end(): Promise<void> } {
  return {
    // For Kysely's control connection (cancelling a query), as the pool itself would give.
    Client: pg.Client,
    options: pool.options,
    async connect() {
      const client = (await pool.connect()) as pg.PoolClient & { [NAMED]?: true };
      if (!client[NAMED]) {
        client[NAMED] = true;
        const query = client.query.bind(client) as (...args: unknown[]) => unknown;
        const named = namedQuery(client);
        client.query = ((...args: unknown[]) => {
          const [text, values] = args;
          return args.length === 2 && typeof text === 'string' && Array.isArray(values) ? named(text, values) : query(...args);
        }) as typeof client.query;
      }
      return client;
    },
    end: () => pool.end(),
  };
}

/** What Kysely's PostgreSQL driver answers for a query (kysely's PostgresConnection.executeQuery). */
function asKyselyResult(result: pg.QueryResult): QueryResult<unknown> {
  const { command, rowCount, rows } = result;
  const writes = command === 'INSERT' || command === 'UPDATE' || command === 'DELETE' || command === 'MERGE';
  return writes ? { numAffectedRows: BigInt(rowCount ?? 0), rows: rows ?? [] } : { rows: rows ?? [] };
}

/**
 * Write transactions on PostgreSQL, each on a connection of the pool. The pool's connections run in pg's
 * pipeline mode: a query is written to the server at once, even while earlier ones have not been
 * answered, and the answers come back in order. Within a transaction a write function may send statements
 * that do not depend on each other together (see together() in writer.ts): they cost one round trip, and,
 * written in the same turn of the event loop, one system call (the socket is corked until the next tick),
 * instead of one of each per statement.
 *
 * Each connection has a Kysely instance of its own, whose queries run on that connection only (Kysely's
 * own transactions would run them one after the other), and prepared queries skip Kysely there entirely.
 */
function pgConnections(pool: pg.Pool): () => Promise<PgConnection> {
  const named = namingStatements(pool);
  const perClient = new WeakMap<pg.PoolClient, { trx: Kysely<Database>; query: ReturnType<typeof namedQuery>; state: { sealed: boolean } }>();
  return async () => {
    const client = await named.connect();
    let entry = perClient.get(client);
    if (!entry) {
      const query = namedQuery(client);
      const stream = (client as unknown as { connection?: { stream?: { cork?(): void; uncork?(): void } } }).connection?.stream;
      let corked = false;
      const send = (text: string, values?: readonly unknown[]) => {
        // Statements sent in the same tick leave in one write.
        if (stream?.cork && !corked) {
          corked = true;
          stream.cork();
          process.nextTick(() => {
            corked = false;
            stream.uncork!();
          });
        }
        return query(text, values);
      };
      // Sealed once the transaction's COMMIT is on its way (TxEnd.last): a statement sent after it would run
      // outside the transaction, so it is refused instead.
      const state = { sealed: false };
      const guarded = (text: string, values?: readonly unknown[]) =>
        state.sealed ? Promise.reject(new Error('a statement was sent after its transaction\'s last one (TxEnd.last)')) : send(text, values);
      const only = { query: guarded, release: () => {} };
      const trx = new Kysely<Database>({
        dialect: new PostgresDialect({ pool: { Client: pg.Client, options: pool.options, connect: async () => only, end: async () => {} } as never }),
      });
      runDirectly(trx, async (text, params) => asKyselyResult(await guarded(text, params)));
      entry = { trx, query: send, state };
      perClient.set(client, entry);
    }
    const { trx, query, state } = entry;
    state.sealed = false;
    return {
      trx,
      run: (text) => query(text),
      seal: () => {
        state.sealed = true;
      },
      release: (err) => client.release(err),
    };
  };
}

/** The data directory holds tokens and keys: created readable by its owner only (0700). */
export function ensurePrivateDir(dir: string): void {
  if (existsSync(dir)) return; // an operator's own directory keeps the mode it was given
  mkdirSync(dirname(dir), { recursive: true }); // parents as usual
  mkdirSync(dir, { mode: 0o700 });
  chmodSync(dir, 0o700); // whatever the umask
}

/**
 * The database file, created empty with mode 0600 before SQLite opens it: SQLite gives its -wal and
 * -shm files the mode of the database file. Files an older Herald left readable by all are tightened.
 */
function ensurePrivateFiles(file: string): void {
  closeSync(openSync(file, 'a', 0o600));
  for (const f of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      if ((statSync(f).mode & 0o077) !== 0) chmodSync(f, 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
}

export function openDatabase(options: {
  dataDir: string;
  databaseUrl: string | null;
  poolSize?: number;
  /** Long-running processes checkpoint the WAL on a worker thread; short commands need not. */
  backgroundCheckpoints?: boolean;
  /** An idle PostgreSQL connection failed (server restart, session terminated); the pool replaces it. */
  onIdleError?: (err: Error) => void;
}): Db {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10, types: pgTypes, pipeline: true });
    // Without a listener such an error would be thrown as an uncaught exception and end the process.
    // It also arrives after close(): pool.end() resolves before the sockets of its last clients are shut.
    pool.on('error', (err) => options.onIdleError?.(err));
    // The pool listens only to idle clients: one in use when the server goes away (a restart, a failover)
    // emits its error unheard, which ends the process too. Its query fails with that error, which reaches
    // the caller, and the pool drops the broken client when it is released.
    pool.on('connect', (client) => client.on('error', () => {}));
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool: namingStatements(pool) }) });
    const u = new URL(options.databaseUrl);
    const writer = createPgWriter(kysely, pgConnections(pool));
    return {
      kysely,
      write: writer.write,
      writeOne: writer.writeOne,
      writeFrom: writer.writeFrom,
      writeEach: writer.writeEach,
      writable: kysely,
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
  ensurePrivateDir(options.dataDir);
  const file = join(options.dataDir, 'herald.db');
  ensurePrivateFiles(file);
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  // NORMAL is durable in WAL mode except for the last transactions before a power cut (not a crash).
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const checkpointer = options.backgroundCheckpoints ? startCheckpointer(file) : null;
  // With the worker keeping the WAL short this fallback never triggers; without it, SQLite's default.
  sqlite.pragma(`wal_autocheckpoint = ${checkpointer ? 20_000 : 1000}`);
  // After a burst the WAL file is truncated back to this size instead of keeping its high-water mark.
  sqlite.pragma('journal_size_limit = 67108864');
  // A 64 MiB page cache (the default is 2 MiB): the hot pages of the posts, targets and jobs indexes stay
  // in the process instead of being read again through system calls (measured: create +10 to 15 %).
  sqlite.pragma('cache_size = -65536');
  const statements = cachedStatements(sqlite);
  const writing = new Kysely<Database>({ dialect: new SqliteDialect({ database: statements }) });
  // Reads share the connection, outside the writer's transactions (see sqlite-connection.ts).
  const gate = createReadGate(statements);
  const kysely = new Kysely<Database>({ dialect: new GatedReadDialect(statements, gate) });
  runDirectly(kysely, readRunner(statements, gate));
  const writer = createWriter(writing, 'sqlite', { statements, gate });
  return {
    kysely,
    write: writer.write,
    writeOne: writer.writeOne,
    writeFrom: writer.writeFrom,
    writable: writing,
    dialect: 'sqlite',
    describe: `sqlite:${file}`,
    connectionString: null,
    pgPool: null,
    ping: async () => {
      await sql`select 1`.execute(kysely);
    },
    close: async () => {
      await checkpointer?.stop();
      await kysely.destroy();
      await writing.destroy();
    },
  };
}
