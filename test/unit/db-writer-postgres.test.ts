// PostgreSQL write transactions on pipelined connections (db/database.ts, writer.ts): statements sent
// together commit together or not at all, the first failure in the order given is the one thrown, and
// nothing sent in a transaction runs after its rollback. And the API key read with its rate limit in one
// statement (RateLimiter.consumeAfter) counts in the same window as consume. Skipped without DATABASE_URL.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { openDatabase, type Db } from '../../src/db/database.ts';
import { prepare } from '../../src/db/prepared.ts';
import { together } from '../../src/db/writer.ts';
import { createRateLimiter } from '../../src/http/rate-limit.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/herald.ts';

const usingPostgres = Boolean(process.env.DATABASE_URL);

describe('PostgreSQL write transactions and the combined key read', { skip: !usingPostgres && 'PostgreSQL only (DATABASE_URL)' }, () => {
  let database: TestDatabase;
  let db: Db;
  before(async () => {
    database = await createTestDatabase();
    db = openDatabase({ dataDir: database.dataDir, databaseUrl: database.databaseUrl });
    await sql`create table t (id integer primary key, v text not null)`.execute(db.writable);
    await sql`create table k (id text primary key, name text not null)`.execute(db.writable);
  });
  after(async () => {
    await db.close();
    await database.drop();
  });

  const insert = prepare<[number, string]>(2, (d, id, v) => d.insertInto('t' as never).values({ id, v } as never));
  const lockRow = prepare<[number]>(1, (d, id) => ({ compile: () => sql`select id from t where id = ${id} for update`.compile(d as never) }));
  const readRow = prepare<[number], { v: string }>(1, (d, id) => ({ compile: () => sql`select v from t where id = ${id}`.compile(d as never) }));
  const setRow = prepare<[string, number]>(2, (d, v, id) => ({ compile: () => sql`update t set v = ${v} where id = ${id}`.compile(d as never) }));
  const ids = async () => (await sql<{ id: number }>`select id from t order by id`.execute(db.kysely)).rows.map((r) => r.id);

  test('statements sent together commit together, and are seen inside the transaction before it commits', async () => {
    await sql`delete from t`.execute(db.writable);
    const seen = await db.write(async (trx) => {
      await together([insert.execute(trx, 1, 'a'), insert.execute(trx, 2, 'b'), sql`insert into t (id, v) values (3, 'c')`.execute(trx)]);
      const inside = (await sql<{ n: number }>`select count(*)::int as n from t`.execute(trx)).rows[0]!.n;
      const outside = (await sql<{ n: number }>`select count(*)::int as n from t`.execute(db.kysely)).rows[0]!.n;
      return { inside, outside };
    });
    assert.deepEqual(seen, { inside: 3, outside: 0 });
    assert.deepEqual(await ids(), [1, 2, 3]);
  });

  test('a failure among statements sent together rolls all of them back, and the first failure in order is thrown', async () => {
    await sql`delete from t`.execute(db.writable);
    await db.write((trx) => insert.execute(trx, 1, 'a'));
    const failed = await db
      .write((trx) =>
        together([
          insert.execute(trx, 2, 'b'),
          insert.execute(trx, 1, 'duplicate'), // fails: id 1 exists
          insert.execute(trx, 3, 'c'), // fails too: the transaction is aborted
          (async () => {
            // A statement sent after the failure, while the others are still in flight.
            await new Promise((r) => setImmediate(r));
            await insert.execute(trx, 4, 'late');
          })(),
        ]),
      )
      .then(
        () => null,
        (err: Error & { code?: string }) => err,
      );
    assert.equal(failed?.code, '23505', 'the unique violation, not "current transaction is aborted"');
    assert.deepEqual(await ids(), [1], 'nothing of the transaction, nor the statement sent late, was written');
    // The connection is sound afterwards.
    await db.write((trx) => insert.execute(trx, 5, 'e'));
    assert.deepEqual(await ids(), [1, 5]);
  });

  test('many transactions at once, more than the pool has connections, each with statements sent together', async () => {
    await sql`delete from t`.execute(db.writable);
    await Promise.all(Array.from({ length: 60 }, (_, i) => db.write((trx) => together([insert.execute(trx, i * 2, 'x'), insert.execute(trx, i * 2 + 1, 'y')]))));
    assert.equal((await ids()).length, 120);
  });

  test('writeFrom: a read sent with BEGIN after a lock sees what the lock waited for; two such writes at once serialise', async () => {
    await sql`delete from t`.execute(db.writable);
    await db.write((trx) => insert.execute(trx, 10, 'n'));
    // As a publish claim does: the row locked, then read again in a statement sent with the lock. Prepared
    // queries, which are sent at once (a query run through Kysely's executor is sent a few turns later).
    const lockThenRead = (trx: Parameters<Parameters<Db['write']>[0]>[0]) =>
      together([lockRow.execute(trx, 10), readRow.execute(trx, 10)] as const).then(([, r]) => r.rows[0]!.v);
    const append = () => db.writeFrom(lockThenRead, (trx, v, end) => end.last(setRow.execute(trx, `${v}x`, 10)));
    await Promise.all([append(), append(), append()]);
    assert.equal((await sql<{ v: string }>`select v from t where id = 10`.execute(db.kysely)).rows[0]!.v, 'nxxx');
  });

  test('TxEnd.last: the COMMIT sent behind the last statements commits them; a failure among them rolls back and is thrown', async () => {
    await sql`delete from t`.execute(db.writable);
    await db.write((trx, end) => end.last(together([insert.execute(trx, 1, 'a'), insert.execute(trx, 2, 'b')])));
    assert.deepEqual(await ids(), [1, 2]);
    const failed = await db
      .writeFrom(
        (trx) => lockRow.execute(trx, 1),
        (trx, _read, end) => end.last(together([insert.execute(trx, 3, 'c'), insert.execute(trx, 2, 'duplicate')])),
      )
      .then(
        () => null,
        (err: Error & { code?: string }) => err,
      );
    assert.equal(failed?.code, '23505', 'the statement\'s own error');
    assert.deepEqual(await ids(), [1, 2], 'the insert sent with the failing one was rolled back');
    // The connection is sound afterwards.
    await db.write((trx) => insert.execute(trx, 4, 'd'));
    assert.deepEqual(await ids(), [1, 2, 4]);
  });

  test('TxEnd.last: a query Kysely sends late (after the COMMIT) is refused, never run outside the transaction', async () => {
    await sql`delete from t`.execute(db.writable);
    const late = await db
      .write((trx, end) => end.last(trx.insertInto('t' as never).values({ id: 9, v: 'late' } as never).execute()))
      .then(
        () => null,
        (err: Error) => err,
      );
    assert.match(String(late?.message), /after its transaction's last one/);
    assert.deepEqual(await ids(), [], 'the late insert did not run');
    // The connection is unsealed for its next transaction.
    await db.write((trx) => insert.execute(trx, 5, 'e'));
    assert.deepEqual(await ids(), [5]);
  });

  test('consumeAfter: the row found and one point counted in the window consume counts in; nothing found, nothing counted', async () => {
    await sql`insert into k (id, name) values ('key_a', 'a')`.execute(db.writable);
    const limiter = await createRateLimiter({ points: 3, durationSeconds: 60, keyPrefix: `t${Date.now()}`, pgPool: db.pgPool });
    const lookup = (id: string) => ({ text: 'select id, name from k where id = $1', values: [id] });
    const first = await limiter.consumeAfter!<{ id: string; name: string }>('test_k_limited', lookup('key_a'));
    assert.deepEqual(first?.row, { id: 'key_a', name: 'a' });
    assert.equal(first?.decision.allowed, true);
    assert.equal(first?.decision.remaining, 2);
    assert.ok(first!.decision.resetAt > Date.now() && first!.decision.resetAt <= Date.now() + 60_000);
    assert.equal(await limiter.consumeAfter!('test_k_limited', lookup('key_missing')), null);
    const second = await limiter.consume('key_a');
    assert.equal(second.remaining, 1, 'consume counts in the same window');
    assert.equal((await limiter.consumeAfter!('test_k_limited', lookup('key_a')))?.decision.remaining, 0);
    const over = await limiter.consumeAfter!('test_k_limited', lookup('key_a'));
    assert.equal(over?.decision.allowed, false);
    assert.equal((await limiter.consume('key_a')).allowed, false);
  });
});
