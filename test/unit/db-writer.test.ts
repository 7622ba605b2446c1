// The SQLite group commit: concurrent write transactions share a commit; a failing one is rolled back alone.
// Reads wait while a write transaction is open on the shared connection, and refuse to write.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { openDatabase, type Db } from '../../src/db/database.ts';
import { prepare } from '../../src/db/prepared.ts';

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

const idsPrepared = prepare<[], { id: number }>(0, (k) => k.selectFrom('t').select('id').orderBy('id'));

test('a read during an open write transaction waits for it to end, then sees it committed, never half done', async () => {
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
    await sql`insert into t (id, v) values (3, 'the rest of it')`.execute(trx);
  });
  await insertedOnce;
  // Both ways a read runs: a query built per call, and a prepared one (which skips Kysely's executor).
  let seen: number[] | null = null;
  let seenPrepared: number[] | null = null;
  const reading = sql<{ id: number }>`select id from t order by id`.execute(db.kysely).then((r) => (seen = r.rows.map((row) => row.id)));
  const readingPrepared = idsPrepared.execute(db.kysely).then((r) => (seenPrepared = r.rows.map((row) => row.id)));
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(seen, null, 'the read waits while the transaction is open');
  assert.equal(seenPrepared, null, 'the prepared read waits too');
  release();
  await Promise.all([writing, reading, readingPrepared]);
  assert.deepEqual(seen, [1, 2, 3]);
  assert.deepEqual(seenPrepared, [1, 2, 3]);
});

test('the read instance refuses writes and transactions, so none can bypass write()', async () => {
  await assert.rejects(sql`insert into t (id, v) values (99, 'sneaked')`.execute(db.kysely), /every write goes through write\(\)/);
  await assert.rejects(sql`insert into t (id, v) values (98, 'sneaked') returning id`.execute(db.kysely), /every write goes through write\(\)/);
  await assert.rejects(db.kysely.transaction().execute(async () => {}), /every write goes through write\(\)/);
  assert.equal(Number((await sql<{ n: number }>`select count(*) as n from t where id in (98, 99)`.execute(db.kysely)).rows[0]!.n), 0);
});

test('reads issued together each get their own answer, and one failing read fails alone', async () => {
  await sql`delete from t`.execute(db.writable);
  await db.write((trx) => sql`insert into t (id, v) values (1, 'one'), (2, 'two')`.execute(trx));
  const outcomes = await Promise.allSettled([
    sql<{ v: string }>`select v from t where id = 1`.execute(db.kysely),
    sql`select v from no_such_table`.execute(db.kysely),
    sql<{ v: string }>`select v from t where id = 2`.execute(db.kysely),
    idsPrepared.execute(db.kysely),
  ]);
  assert.deepEqual(outcomes.map((o) => o.status), ['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
  assert.equal((outcomes[0] as PromiseFulfilledResult<{ rows: { v: string }[] }>).value.rows[0]!.v, 'one');
  assert.equal((outcomes[2] as PromiseFulfilledResult<{ rows: { v: string }[] }>).value.rows[0]!.v, 'two');
  assert.deepEqual((outcomes[3] as PromiseFulfilledResult<{ rows: { id: number }[] }>).value.rows.map((r) => r.id), [1, 2]);
});
