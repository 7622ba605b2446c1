// Queries compiled once and run with new values (src/db/prepared.ts), on the database of the run
// (SQLite, or PostgreSQL when DATABASE_URL is set): the values of each call, never of an earlier one.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { openDatabase, type Db } from '../../src/db/database.ts';
import { prepare, prepareByShape, prepareRows } from '../../src/db/prepared.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/herald.ts';

let database: TestDatabase;
let db: Db;
before(async () => {
  database = await createTestDatabase();
  db = openDatabase({ dataDir: database.dataDir, databaseUrl: database.databaseUrl });
  await sql`create table items (id text primary key, owner text not null, n integer not null)`.execute(db.writable);
});
after(async () => {
  await db.close();
  await database.drop();
});

interface Item {
  id: string;
  owner: string;
  n: number;
}
const insertItems = prepareRows<Item>(['id', 'owner', 'n'], (k, rows) => k.insertInto('items').values(rows));
const named = prepareByShape<Item>(
  (count) => count + 1,
  (k, _count, [owner, ...ids]) => k.selectFrom('items').selectAll().where('owner', '=', owner).where('id', 'in', ids).orderBy('id'),
);
const byOwner = prepare<[string], Item>(1, (k, owner) => k.selectFrom('items').selectAll().where('owner', '=', owner).orderBy('id'));

test('multi-row inserts of different sizes each write their own rows', async () => {
  await insertItems.execute(db.writable, [{ id: 'a1', owner: 'a', n: 1 }]);
  await insertItems.execute(db.writable, [
    { id: 'a2', owner: 'a', n: 2 },
    { id: 'a3', owner: 'a', n: 3 },
  ]);
  await insertItems.execute(db.writable, [
    { id: 'b1', owner: 'b', n: 10 },
    { id: 'b2', owner: 'b', n: 20 },
  ]);
  assert.deepEqual((await byOwner.execute(db.kysely, 'a')).rows.map((r) => [r.id, Number(r.n)]), [['a1', 1], ['a2', 2], ['a3', 3]]);
  assert.deepEqual((await byOwner.execute(db.kysely, 'b')).rows.map((r) => r.id), ['b1', 'b2']);
});

test('an `in` list compiled per length answers with the values of each call', async () => {
  const ids = async (owner: string, list: string[]) => (await named.execute(db.kysely, list.length, [owner, ...list])).rows.map((r) => r.id);
  assert.deepEqual(await ids('a', ['a1']), ['a1']);
  assert.deepEqual(await ids('a', ['a3', 'a2']), ['a2', 'a3']);
  assert.deepEqual(await ids('a', ['a2']), ['a2'], 'same length, new value');
  assert.deepEqual(await ids('b', ['a1', 'b2']), ['b2'], 'the owner is a value too');
  assert.deepEqual(await ids('a', ['x', 'y', 'z']), []);
});

test('inside a transaction as outside', async () => {
  await db.write(async (trx) => {
    await insertItems.execute(trx, [{ id: 'c1', owner: 'c', n: 5 }]);
    assert.deepEqual((await named.execute(trx, 1, ['c', 'c1'])).rows.map((r) => r.id), ['c1']);
  });
});
