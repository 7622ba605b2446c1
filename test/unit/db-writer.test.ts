// The SQLite group commit: concurrent write transactions share a commit; a failing one is rolled back alone.
// Reads use a read-only connection of their own.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { openDatabase, type Db } from '../../src/db/database.ts';

let db: Db;
before(async () => {
  db = openDatabase({ dataDir: mkdtempSync(join(tmpdir(), 'herald-writer-')), databaseUrl: null, backgroundCheckpoints: true });
  await sql`create table t (id integer primary key, v text not null)`.execute(db.writable);
});
after(() => db.close());

const count = async () => Number((await sql<{ n: number }>`select count(*) as n from t`.execute(db.kysely)).rows[0]!.n);

test('concurrent writes all commit and each gets its own result', async () => {
  const results = await Promise.all(
    Array.from({ length: 200 }, (_, i) =>
      db.write(async (trx) => {
        await sql`insert into t (id, v) values (${i}, ${`v${i}`})`.execute(trx);
        return i * 2;
      }),
    ),
  );
  assert.deepEqual(results, Array.from({ length: 200 }, (_, i) => i * 2));
  assert.equal(await count(), 200);
});

test('a failing write rolls back alone; the others in its batch commit', async () => {
  await sql`delete from t`.execute(db.writable);
  const outcomes = await Promise.allSettled([
    db.write((trx) => sql`insert into t (id, v) values (1, 'a')`.execute(trx)),
    db.write(async (trx) => {
      await sql`insert into t (id, v) values (2, 'b')`.execute(trx);
      await sql`insert into t (id, v) values (1, 'duplicate')`.execute(trx); // fails: id 1 exists
    }),
    db.write((trx) => sql`insert into t (id, v) values (3, 'c')`.execute(trx)),
  ]);
  assert.deepEqual(outcomes.map((o) => o.status), ['fulfilled', 'rejected', 'fulfilled']);
  const rows = (await sql<{ id: number }>`select id from t order by id`.execute(db.kysely)).rows.map((r) => r.id);
  assert.deepEqual(rows, [1, 3], 'the failed write left nothing behind, not even its first insert');
});

test('results are delivered only after the commit', async () => {
  await sql`delete from t`.execute(db.writable);
  await db.write((trx) => sql`insert into t (id, v) values (10, 'x')`.execute(trx));
  // Another connection sees it: it was committed before write() resolved.
  const other = openDatabase({ dataDir: (db.describe.replace('sqlite:', '').replace(/\/herald\.db$/, '')), databaseUrl: null });
  try {
    assert.equal(Number((await sql<{ n: number }>`select count(*) as n from t where id = 10`.execute(other.kysely)).rows[0]!.n), 1);
  } finally {
    await other.close();
  }
});

test('failures anywhere in a batch: every other write commits once, in order', async () => {
  await sql`delete from t`.execute(db.writable);
  const runs = new Map<number, number>();
  const outcomes = await Promise.allSettled(
    Array.from({ length: 30 }, (_, i) =>
      db.write(async (trx) => {
        runs.set(i, (runs.get(i) ?? 0) + 1);
        await sql`insert into t (id, v) values (${100 + i}, ${`v${i}`})`.execute(trx);
        if (i % 7 === 3) throw new Error(`write ${i} refuses`);
        return i;
      }),
    ),
  );
  const failing = outcomes.flatMap((o, i) => (o.status === 'rejected' ? [i] : []));
  assert.deepEqual(failing, [3, 10, 17, 24]);
  const rows = (await sql<{ id: number }>`select id from t order by id`.execute(db.kysely)).rows.map((r) => r.id - 100);
  assert.deepEqual(rows, Array.from({ length: 30 }, (_, i) => i).filter((i) => !failing.includes(i)));
  // A write may run again after a rollback (which is why write functions do database work only): at most
  // once more per failure in its batch.
  assert.ok([...runs.values()].every((n) => n >= 1 && n <= failing.length + 1));
});

test('reads run on their own connection: a read during an open write transaction sees the last commit, at once', async () => {
  await sql`delete from t`.execute(db.writable);
  await db.write((trx) => sql`insert into t (id, v) values (1, 'committed')`.execute(trx));
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let inserted!: () => void;
  const insertedOnce = new Promise<void>((r) => (inserted = r));
  const writing = db.write(async (trx) => {
    await sql`insert into t (id, v) values (2, 'not yet committed')`.execute(trx);
    inserted();
    await held;
  });
  await insertedOnce;
  // The transaction is open and holds the writing connection; the read neither waits for it nor sees its row.
  assert.deepEqual((await sql<{ id: number }>`select id from t order by id`.execute(db.kysely)).rows.map((r) => r.id), [1]);
  release();
  await writing;
  assert.deepEqual((await sql<{ id: number }>`select id from t order by id`.execute(db.kysely)).rows.map((r) => r.id), [1, 2]);
});

test('the read connection refuses writes, so none can bypass write()', async () => {
  await assert.rejects(sql`insert into t (id, v) values (99, 'sneaked')`.execute(db.kysely), (e: { code?: string }) => e.code === 'SQLITE_READONLY');
});
