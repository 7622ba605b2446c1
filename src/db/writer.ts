// Every write transaction goes through write(). On PostgreSQL it is a plain transaction (the server runs
// many at once and groups their commits itself). On SQLite, which has one writer, transactions that
// arrive while another is running are run together in the next transaction, each in its own savepoint:
// one commit (and one WAL sync) serves many requests, and an item that fails rolls back alone.
//
// Rules for callers: a write function does database work only (no platform calls, no waiting on
// anything else), because everything queued behind it waits for it; and it never calls write() itself
// (that write would wait for the batch it is part of). Detecting the nesting would need async context
// tracking on every promise, which costs more than the writes it guards.
// The grouping happens on its own: a flush starts one macrotask after the first write arrives, by when
// the other requests in flight have reached their writes too.
import { sql, type Kysely } from 'kysely';
import type { DialectName } from './dialect.ts';
import type { Database } from './schema.ts';

export type WriteFn<T> = (trx: Kysely<Database>) => Promise<T>;

export interface Writer {
  write<T>(fn: WriteFn<T>): Promise<T>;
}

interface Item {
  fn: WriteFn<unknown>;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

/** The most transactions one commit serves; bounds how long the last of them waits. */
const MAX_BATCH = 64;

export function createWriter(db: Kysely<Database>, dialect: DialectName): Writer {
  if (dialect === 'postgres') {
    return { write: (fn) => db.transaction().execute(fn) };
  }

  let queue: Item[] = [];
  let flushing = false;
  let scheduled = false;

  async function runBatch(batch: Item[]): Promise<void> {
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    try {
      await db.transaction().execute(async (trx) => {
        for (const item of batch) {
          await sql`savepoint herald_write`.execute(trx);
          try {
            const value = await item.fn(trx);
            await sql`release herald_write`.execute(trx);
            outcomes.push({ ok: true, value });
          } catch (error) {
            await sql`rollback to herald_write`.execute(trx);
            await sql`release herald_write`.execute(trx);
            outcomes.push({ ok: false, error });
          }
        }
      });
    } catch (commitError) {
      // Nothing of the batch was committed.
      for (const item of batch) item.reject(commitError);
      return;
    }
    batch.forEach((item, i) => {
      const o = outcomes[i]!;
      if (o.ok) item.resolve(o.value);
      else item.reject(o.error);
    });
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

  return {
    write<T>(fn: WriteFn<T>): Promise<T> {
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
    },
  };
}
