// Every write transaction goes through write(). On PostgreSQL it is a plain transaction on a pipelined
// connection of its own (createPgWriter; the server runs many at once and groups their commits itself),
// where statements that do not depend on each other can be sent together (together()). On SQLite, which has one writer, transactions that
// arrive while another is running are run together in the next transaction: one commit (and one WAL
// sync) serves many requests, and an item that fails rolls back alone (see runBatch).
//
// Rules for callers: a write function does database work only (no platform calls, no waiting on
// anything else, no effect outside the transaction), because everything queued behind it waits for it
// and it may be run again after a rollback; it never calls write() itself (that write would wait for
// the batch it is part of), and it reads through its own transaction only, never through db.kysely
// (on SQLite such a read waits for the open transaction to end, that is, for itself).
//
// The types hold most of this: the function receives a DbTx, which has no door out (no transaction(),
// no connection()), and the data-access functions that write take only that handle and are built
// without the read instance or write() in reach. What types cannot stop is a service's closure reaching
// for db.kysely or write() inside its callback; catching that at run time would need async context
// tracking on every promise, which costs more than the writes it guards.
// The grouping happens on its own: a flush starts one macrotask after the first write arrives, by when
// the other requests in flight have reached their writes too.
import type { Kysely } from 'kysely';
import type { DialectName } from './dialect.ts';
import { runDirectly, stopRunningDirectly, type DirectRunner } from './prepared.ts';
import { runStatement, type ReadGate, type Statements } from './sqlite-connection.ts';
import type { Database, DbTx } from './schema.ts';

export type { DbTx };

/**
 * How a write function ends its transaction early. `last(statement)`: `statement`, already sent, is the
 * transaction's last one; on PostgreSQL the COMMIT goes out right behind it, in the same round trip,
 * instead of after its answer (a statement that failed makes that COMMIT a rollback, and the write
 * fails with the statement's error). After it the function sends nothing more and returns. On SQLite it
 * returns the statement as it is.
 *
 * "Already sent" means run through db/prepared.ts (prepare()), which sends at once on the transaction's
 * connection. A query executed through Kysely (a builder's execute(), sql`…`.execute) is sent only after
 * Kysely's executor has had a few turns, that is after this COMMIT: never pass one. The connection refuses
 * it (it fails) rather than running it outside the transaction.
 */
export interface TxEnd {
  last<R>(statement: Promise<R>): Promise<R>;
}

export type WriteFn<T> = (trx: DbTx, end: TxEnd) => Promise<T>;

/** The end of a transaction that COMMIT follows in its own round trip (SQLite; single statements). */
const NO_EARLY_END: TxEnd = { last: (statement) => statement };

export interface Writer {
  write<T>(fn: WriteFn<T>): Promise<T>;
  /**
   * A write transaction whose first statements are reads (`first`: a row locked FOR UPDATE and the rows
   * it guards), which `fn` decides from. On PostgreSQL they are sent with BEGIN, in one round trip
   * (answered in order, so a read sent after a lock sees what was committed before the lock was had;
   * prepared queries, which are sent in the order of the calls, see TxEnd);
   * should BEGIN fail, the reads wrote nothing and the write fails before `fn` runs. On SQLite it is
   * write().
   */
  writeFrom<F, T>(first: (trx: DbTx) => Promise<F>, fn: (trx: DbTx, first: F, end: TxEnd) => Promise<T>): Promise<T>;
  /**
   * A write of exactly one statement. On PostgreSQL it runs without BEGIN and COMMIT (a statement is a
   * transaction of its own), which saves two round trips; on SQLite it is write(). A function that runs
   * more than one statement here would not be atomic on PostgreSQL: use write() for those.
   */
  writeOne<T>(fn: WriteFn<T>): Promise<T>;
  /**
   * PostgreSQL only: runs `fn`'s statements on one connection, each a transaction of its own (no BEGIN),
   * those sent in the same tick leaving in one write: independent statements (a single-statement write and
   * a read) cost one round trip instead of one each. Absent on SQLite.
   */
  writeEach?<T>(fn: WriteFn<T>): Promise<T>;
}

interface Item {
  fn: WriteFn<unknown>;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

/**
 * A PostgreSQL transaction's connection, opened by the writer: `trx` runs its queries on that connection
 * only, and prepared queries run on it directly, sent at once even while others are in flight (see
 * database.ts: the connections pipeline their queries).
 */
export interface PgConnection {
  trx: DbTx;
  /** Runs a statement of the writer's own (BEGIN, COMMIT, ROLLBACK). */
  run(sql: string): Promise<unknown>;
  /** Refuses every statement but the writer's own from now on (the COMMIT has been sent; see TxEnd). */
  seal(): void;
  /** Gives the connection back; with an error, the connection is closed instead of reused. */
  release(err?: Error): void;
}

/**
 * Runs `promises` (statements of one transaction sent together) to the end, every one of them, and then
 * throws the first failure in the order given. Waiting for all of them matters: a statement still on its
 * way when the transaction rolls back would otherwise run after it, outside the transaction.
 */
export async function together<T extends readonly unknown[]>(promises: T): Promise<{ [K in keyof T]: Awaited<T[K]> }> {
  const settled = await Promise.allSettled(promises);
  for (const s of settled) if (s.status === 'rejected') throw s.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as { [K in keyof T]: Awaited<T[K]> };
}

/** PostgreSQL: a plain transaction on a connection of the pool (many at once; the server groups commits). */
export function createPgWriter(db: Kysely<Database>, connect: () => Promise<PgConnection>): Writer {
  /** `pipelined`: BEGIN is not waited for; `fn` waits for it along with its first statements (writeFrom). */
  async function transaction<T>(fn: (c: PgConnection, begun: Promise<unknown>, end: TxEnd) => Promise<T>, pipelined: boolean): Promise<T> {
    const c = await connect();
    let broken: Error | undefined;
    let committing: Promise<{ command?: string }> | null = null;
    const end: TxEnd = {
      last(statement) {
        if (committing) throw new Error('a transaction has one last statement');
        committing = c.run('commit') as Promise<{ command?: string }>;
        c.seal();
        // Waited for below, whatever the statement's fate.
        committing.catch(() => {});
        return statement;
      },
    };
    try {
      const begun = c.run('begin').catch((err: Error) => {
        broken = err;
        throw err;
      });
      if (!pipelined) await begun;
      else begun.catch(() => {});
      let result;
      try {
        result = await fn(c, begun, end);
      } catch (err) {
        if (committing) {
          // The COMMIT sent behind the last statement ended the transaction (as a rollback, when a
          // statement failed).
          await (committing as Promise<unknown>).catch((e: Error) => (broken = e));
        } else if (!broken) {
          await c.run('rollback').catch((e: Error) => (broken = e));
        }
        throw err;
      }
      try {
        const done = await (committing ?? (c.run('commit') as Promise<{ command?: string }>));
        // PostgreSQL answers COMMIT in a failed transaction with ROLLBACK, not an error.
        if (done?.command === 'ROLLBACK') throw new Error('the transaction was rolled back instead of committed');
      } catch (err) {
        // A failed COMMIT ends the transaction; whether the connection is still sound is not known.
        broken = err as Error;
        throw err;
      }
      return result;
    } finally {
      c.release(broken);
    }
  }

  return {
    write: (fn) => transaction(async (c, _begun, end) => fn(c.trx, end), false),
    writeFrom: (first, fn) =>
      transaction(async (c, begun, end) => {
        const [, read] = await together([begun, first(c.trx)] as const);
        return fn(c.trx, read, end);
      }, true),
    writeOne: (fn) => fn(db, NO_EARLY_END),
    async writeEach(fn) {
      const c = await connect();
      try {
        return await fn(c.trx, NO_EARLY_END);
      } finally {
        c.release();
      }
    },
  };
}

/** The most transactions one commit serves; bounds how long the last of them waits. */
const MAX_BATCH = 64;

/**
 * On SQLite, `connection` is the writing connection's statements (prepared queries in a transaction run
 * on them directly) and the gate that holds reads back while a transaction is open.
 */
export function createWriter(db: Kysely<Database>, dialect: DialectName, connection?: { statements: Statements; gate: ReadGate }): Writer {
  if (dialect === 'postgres') throw new Error('PostgreSQL transactions are written by createPgWriter');

  const inTransaction: DirectRunner | null = connection
    ? (sql, params) => {
        try {
          return Promise.resolve(runStatement(connection.statements, sql, params));
        } catch (err) {
          return Promise.reject(err);
        }
      }
    : null;

  let queue: Item[] = [];
  let flushing = false;
  let scheduled = false;

  // Optimistic: the batch runs in one transaction with no savepoints (a savepoint per item costs more
  // than the writes). When an item throws, the transaction is rolled back and run again without it:
  // the items before it together, it alone (to fail on its own), the items after it together. So a
  // write function may run more than once, which is why it must do database work only.
  async function runBatch(batch: Item[]): Promise<void> {
    if (batch.length === 0) return;
    const values: unknown[] = [];
    const failures: { index: number; error: unknown }[] = [];
    connection?.gate.hold();
    try {
      await db.transaction().execute(async (trx) => {
        if (inTransaction) runDirectly(trx, inTransaction);
        try {
          for (const [index, item] of batch.entries()) {
            try {
              values.push(await item.fn(trx, NO_EARLY_END));
            } catch (error) {
              failures.push({ index, error });
              throw error;
            }
          }
        } finally {
          stopRunningDirectly(trx);
        }
      });
    } catch (error) {
      connection?.gate.release();
      const failed = failures[0];
      if (!failed) {
        // The commit itself failed: nothing of the batch was written.
        for (const item of batch) item.reject(error);
        return;
      }
      if (batch.length === 1) {
        batch[0]!.reject(failed.error);
        return;
      }
      await runBatch(batch.slice(0, failed.index));
      await runBatch([batch[failed.index]!]);
      await runBatch(batch.slice(failed.index + 1));
      return;
    }
    connection?.gate.release();
    batch.forEach((item, i) => item.resolve(values[i]));
  }

  async function flush(): Promise<void> {
    flushing = true;
    try {
      while (queue.length > 0) {
        const batch = queue.slice(0, MAX_BATCH);
        queue = queue.slice(batch.length);
        await runBatch(batch);
      }
    } finally {
      flushing = false;
    }
  }

  function write<T>(fn: WriteFn<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      queue.push({ fn: fn as WriteFn<unknown>, resolve: resolve as (v: unknown) => void, reject });
      // One macrotask later, so the other requests in flight reach their writes and share the commit.
      if (!flushing && !scheduled) {
        scheduled = true;
        setImmediate(() => {
          scheduled = false;
          void flush();
        });
      }
    });
  }

  // One writer on SQLite: a single statement shares the next commit like any other write.
  return { write, writeOne: write, writeFrom: (first, fn) => write(async (trx, end) => fn(trx, await first(trx), end)) };
}
