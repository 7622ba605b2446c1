// The embedded database's one connection, shared by the writer's transactions and by every read.
//
// better-sqlite3 runs each statement to completion synchronously, so a read never interleaves with
// another statement; the one thing a read must not do is run while a write transaction is open on the
// connection (it would see that transaction half done). The read gate holds reads back while one is
// open and runs them, in arrival order, the moment it ends. Reads that arrive together run in one read
// transaction, as writes do in one write transaction: SQLite takes its locks once for all of them
// (measured: create +5 %). Reads share the writer's page cache, which stays warm: a second connection
// would find its cache invalidated by every commit and read pages again.
//
// Kysely's own SQLite driver instead queues every query behind one lock that a transaction holds while
// it runs, and each release wakes every waiter; with dozens of requests in flight that costs more than
// the queries. Reads here skip it, and so do prepared queries (see prepared.ts).
import type SQLite from 'better-sqlite3';
import {
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type SqliteDatabase,
} from 'kysely';

/** The connection's statements, prepared once per SQL text (and usable as Kysely's SqliteDatabase). */
export interface Statements extends SqliteDatabase {
  prepare(sql: string): SQLite.Statement;
}

/**
 * Kysely's SQLite driver prepares every statement on every call, and preparing costs more than running
 * most of Herald's queries. Statements are reusable, so they are kept (least recently used dropped).
 */
export function cachedStatements(db: SQLite.Database, max = 500): Statements {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => db.close(),
    prepare(text: string) {
      let stmt = cache.get(text);
      if (stmt) {
        cache.delete(text);
      } else {
        stmt = db.prepare(text);
        if (cache.size >= max) cache.delete(cache.keys().next().value!);
      }
      cache.set(text, stmt);
      return stmt;
    },
  };
}

/** Runs one statement to completion, answering as Kysely's SQLite driver does. */
export function runStatement(statements: Statements, sql: string, params: readonly unknown[]): QueryResult<unknown> {
  const stmt = statements.prepare(sql);
  if (stmt.reader) return { rows: stmt.all(params) };
  const { changes, lastInsertRowid } = stmt.run(params);
  return { rows: [], numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid) };
}

class NotForReads extends Error {
  constructor(what: string) {
    super(`${what} through the read instance (db.kysely): every write goes through write()`);
  }
}

/** Runs a read; a statement that would write is refused (writes go through the writer). */
function runRead(statements: Statements, sql: string, params: readonly unknown[]): QueryResult<unknown> {
  const stmt = statements.prepare(sql);
  // `readonly`, not `reader`: an insert … returning reads rows too.
  if (!stmt.readonly) throw new NotForReads('a statement that writes');
  return { rows: stmt.all(params) };
}

/** How prepared queries on the read instance run (see prepared.ts): through the gate, reads only. */
export function readRunner(statements: Statements, gate: ReadGate) {
  return (sql: string, params: readonly unknown[]) => gate.run(() => runRead(statements, sql, params));
}

export interface ReadGate {
  /**
   * Runs `read` with the other reads of this turn of the event loop, in one read transaction (one lock
   * taken instead of one per statement), once no write transaction is open.
   */
  run<T>(read: () => T): Promise<T>;
  /** The writer opens a transaction: reads wait. */
  hold(): void;
  /** The transaction ended (committed or rolled back): the waiting reads run, in order. */
  release(): void;
}

export function createReadGate(statements: Statements): ReadGate {
  let held = false;
  let scheduled = false;
  let waiting: (() => void)[] = [];

  function runWaiting(): void {
    const ready = waiting;
    waiting = [];
    let grouped = false;
    if (ready.length > 1) {
      try {
        statements.prepare('begin').run();
        grouped = true;
      } catch {
        // A transaction opened outside the writer (a migration) is running: read within it, one by one.
      }
    }
    try {
      for (const read of ready) read();
    } finally {
      if (grouped) statements.prepare('commit').run();
    }
  }

  return {
    run<T>(read: () => T): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        waiting.push(() => {
          try {
            resolve(read());
          } catch (err) {
            reject(err);
          }
        });
        // One macrotask later, as the writer does, so the reads of the requests in flight go together.
        if (!scheduled) {
          scheduled = true;
          setImmediate(() => {
            scheduled = false;
            if (!held && waiting.length > 0) runWaiting();
          });
        }
      });
    },
    hold() {
      held = true;
    },
    release() {
      held = false;
      if (waiting.length > 0) runWaiting();
    },
  };
}

/** Reads through the gate; refuses writes and transactions, which belong to the writer. */
class GatedReadConnection implements DatabaseConnection {
  readonly #statements: Statements;
  readonly #gate: ReadGate;
  constructor(statements: Statements, gate: ReadGate) {
    this.#statements = statements;
    this.#gate = gate;
  }
  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.#gate.run(() => runRead(this.#statements, query.sql, query.parameters) as QueryResult<R>);
  }
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new NotForReads('streaming');
  }
}

class GatedReadDriver implements Driver {
  readonly #connection: GatedReadConnection;
  constructor(statements: Statements, gate: ReadGate) {
    this.#connection = new GatedReadConnection(statements, gate);
  }
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    return this.#connection;
  }
  async beginTransaction(): Promise<void> {
    throw new NotForReads('a transaction');
  }
  async commitTransaction(): Promise<void> {
    throw new NotForReads('a transaction');
  }
  async rollbackTransaction(): Promise<void> {
    throw new NotForReads('a transaction');
  }
  async releaseConnection(): Promise<void> {}
  // The connection belongs to the writer's Kysely instance, which closes it.
  async destroy(): Promise<void> {}
}

/** Tells Kysely not to put its own lock around the connection: the gate does what is needed. */
class GatedSqliteAdapter extends SqliteAdapter {
  override get supportsMultipleConnections(): boolean {
    return true;
  }
}

/** A Kysely dialect for reads on the shared connection, through the read gate. */
export class GatedReadDialect implements Dialect {
  readonly #statements: Statements;
  readonly #gate: ReadGate;
  constructor(statements: Statements, gate: ReadGate) {
    this.#statements = statements;
    this.#gate = gate;
  }
  createDriver(): Driver {
    return new GatedReadDriver(this.#statements, this.#gate);
  }
  createQueryCompiler() {
    return new SqliteQueryCompiler();
  }
  createAdapter() {
    return new GatedSqliteAdapter();
  }
  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}
