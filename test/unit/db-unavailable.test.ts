// What counts as "the database cannot serve right now" (503 DATABASE_UNAVAILABLE) rather than a bug (500),
// on errors the real drivers raise.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import pg from 'pg';
import { isDatabaseUnavailable } from '../../src/db/unavailable.ts';

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

test('PostgreSQL refusing the connection, or dropping it mid-way', async () => {
  const refused = new pg.Client({ host: '127.0.0.1', port: await closedPort(), user: 'x', database: 'x' });
  const err = await refused.connect().then(() => null, (e: unknown) => e);
  assert.ok(err, 'the connection was refused');
  assert.equal(isDatabaseUnavailable(err), true);
  // A server that accepts and hangs up at once: pg reports the connection as terminated.
  const rude = createServer((s) => s.destroy());
  await new Promise<void>((r) => rude.listen(0, '127.0.0.1', r));
  const dropped = new pg.Client({ host: '127.0.0.1', port: (rude.address() as AddressInfo).port, user: 'x', database: 'x' });
  const err2 = await dropped.connect().then(() => null, (e: unknown) => e);
  rude.close();
  assert.ok(err2);
  assert.equal(isDatabaseUnavailable(err2), true, String(err2));
  assert.equal(isDatabaseUnavailable(Object.assign(new Error('the database system is shutting down'), { code: '57P03' })), true);
  assert.equal(isDatabaseUnavailable(Object.assign(new Error('sorry, too many clients already'), { code: '53300' })), true);
});

test('SQLite locked past the busy timeout by another connection', () => {
  const dir = mkdtempSync(join(tmpdir(), 'herald-unavailable-'));
  try {
    const a = new Database(join(dir, 'db.sqlite'));
    a.exec('CREATE TABLE t (x)');
    a.exec('BEGIN EXCLUSIVE');
    const b = new Database(join(dir, 'db.sqlite'), { timeout: 0 });
    let err: unknown;
    try {
      b.prepare('SELECT * FROM t').all();
    } catch (e) {
      err = e;
    }
    assert.ok(err);
    assert.equal(isDatabaseUnavailable(err), true, String(err));
    a.exec('ROLLBACK');
    a.close();
    b.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('bugs stay bugs: a constraint, a syntax error, a closed handle, a plain error', () => {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE t (x PRIMARY KEY)');
  db.exec('INSERT INTO t VALUES (1)');
  const dup = (() => {
    try {
      db.exec('INSERT INTO t VALUES (1)');
    } catch (e) {
      return e;
    }
  })();
  assert.equal(isDatabaseUnavailable(dup), false);
  assert.equal(isDatabaseUnavailable(Object.assign(new Error('syntax error at or near "SELEC"'), { code: '42601' })), false);
  assert.equal(isDatabaseUnavailable(Object.assign(new Error('duplicate key value'), { code: '23505' })), false);
  db.close();
  const closed = (() => {
    try {
      db.prepare('SELECT 1');
    } catch (e) {
      return e;
    }
  })();
  assert.equal(isDatabaseUnavailable(closed), false);
  assert.equal(isDatabaseUnavailable(new TypeError('x is undefined')), false);
  assert.equal(isDatabaseUnavailable(null), false);
});
