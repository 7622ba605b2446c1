// The `herald` command as an operator runs it: keys, migrate, start (first key printed once), graceful
// stop, and configuration errors that name the setting.
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDatabase, usingPostgres, type TestDatabase } from '../helpers/herald.ts';
import { openDatabase } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { createKeysDal } from '../../src/keys/keys-dal.ts';
import { createKeysService } from '../../src/keys/keys-service.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { ensureFirstKey } from '../../src/runtime.ts';
import { HANG_CAP_MS, until } from '../helpers/wait.ts';

const MAIN = new URL('../../src/cli/main.ts', import.meta.url).pathname;
let database: TestDatabase;
let env: Record<string, string>;

before(async () => {
  database = await createTestDatabase();
  env = {
    ...(process.env as Record<string, string>),
    HERALD_DATA_DIR: database.dataDir,
    HERALD_ENCRYPTION_KEY: database.encryptionKey,
    LOG_LEVEL: 'warn',
    ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
  };
});
after(() => database.drop());

function herald(args: string[], extraEnv: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [MAIN, ...args], { env: { ...env, ...extraEnv }, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('herald', () => {
  test('migrate, then keys create / list / update / revoke', () => {
    assert.equal(herald(['migrate']).code, 0);
    const created = herald(['keys', 'create', '--name', 'ci', '--json']);
    assert.equal(created.code, 0, created.stderr);
    const key = JSON.parse(created.stdout);
    assert.deepEqual(Object.keys(key).sort(), ['createdAt', 'id', 'key', 'name', 'prefix']);
    assert.match(key.key, /^hk_[A-Za-z0-9_-]{40,}$/);
    assert.ok(key.key.startsWith(key.prefix));

    const list = JSON.parse(herald(['keys', 'list', '--json']).stdout);
    const listed = list.find((k: { id: string }) => k.id === key.id);
    assert.equal(listed.name, 'ci');
    assert.equal(JSON.stringify(list).includes(key.key), false, 'the key itself is never shown again');

    assert.equal(herald(['keys', 'update', key.id, '--redirect-url', 'https://app.example.com/cb']).code, 0);
    assert.equal(herald(['keys', 'update', key.id, '--redirect-url', 'not a url']).code, 1);
    assert.equal(herald(['keys', 'revoke', key.id]).code, 0);
    const after = JSON.parse(herald(['keys', 'list', '--json']).stdout).find((k: { id: string }) => k.id === key.id);
    assert.ok(after.revokedAt);
    assert.equal(after.defaultRedirectUrl, 'https://app.example.com/cb');
    assert.equal(herald(['keys', 'revoke', 'key_nope']).code, 1);
  });

  test('usage and configuration errors name what is wrong', () => {
    const bad = herald(['start'], { PORT: 'eighty' });
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /PORT: must be a whole number/);
    const key = herald(['start'], { HERALD_ENCRYPTION_KEY: 'short' });
    assert.match(key.stderr, /HERALD_ENCRYPTION_KEY/);
    const half = herald(['start'], { HERALD_TWITTER_CLIENT_ID: 'id-only' });
    assert.match(half.stderr, /HERALD_TWITTER_CLIENT_SECRET: is required/);
    const unknown = herald(['frobnicate']);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /unknown command/);
    assert.match(herald(['help']).stdout, /keys create --name NAME/);
  });
});

describe('herald start', () => {
  test('prints the first key once, serves, and stops cleanly on SIGTERM', async () => {
    const fresh = await createTestDatabase();
    try {
      const child = spawn(process.execPath, [MAIN, 'start'], {
        env: {
          ...env,
          HERALD_DATA_DIR: fresh.dataDir,
          HERALD_ENCRYPTION_KEY: fresh.encryptionKey,
          ...(fresh.databaseUrl ? { DATABASE_URL: fresh.databaseUrl } : {}),
          PORT: '0',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      after(() => child.kill('SIGKILL'));
      const key = await until('the first key to be printed', () => /hk_[A-Za-z0-9_-]{40,}/.exec(out)?.[0]).catch((err: Error) => {
        throw new Error(`${err.message}; it printed:\n${out}`);
      });
      const url = /(http:\/\/127\.0\.0\.1:\d+)\/v1\/posts/.exec(out)![1];
      const res = await fetch(`${url}/v1/posts`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(res.status, 200);
      const code = await new Promise<number | null>((resolve) => {
        child.on('exit', resolve);
        child.kill('SIGTERM');
      });
      assert.equal(code, 0, out);
      // A second start of the same database prints no new key.
      const again = spawnSync(process.execPath, [MAIN, 'keys', 'list', '--json'], {
        env: { ...env, HERALD_DATA_DIR: fresh.dataDir, HERALD_ENCRYPTION_KEY: fresh.encryptionKey, ...(fresh.databaseUrl ? { DATABASE_URL: fresh.databaseUrl } : {}) },
        encoding: 'utf8',
      });
      assert.equal(JSON.parse(again.stdout).length, 1);
    } finally {
      await fresh.drop();
    }
  });

  test('a busy port: says which setting to change, exits 1 without a stack, and the first key is not spent', async () => {
    const fresh = await createTestDatabase();
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as AddressInfo;
    const freshEnv = {
      ...env,
      HERALD_DATA_DIR: fresh.dataDir,
      HERALD_ENCRYPTION_KEY: fresh.encryptionKey,
      ...(fresh.databaseUrl ? { DATABASE_URL: fresh.databaseUrl } : {}),
    };
    try {
      const busy = spawnSync(process.execPath, [MAIN, 'start'], { env: { ...freshEnv, PORT: String(port), HOST: '127.0.0.1' }, encoding: 'utf8', timeout: HANG_CAP_MS });
      assert.equal(busy.status, 1, `exits 1 on its own:\n${busy.stdout}\n${busy.stderr}`);
      assert.match(busy.stderr, new RegExp(`herald: cannot listen on 127\\.0\\.0\\.1:${port}: the port is already in use`));
      assert.match(busy.stderr, /set PORT to a free port \(or HOST to another address\)/);
      assert.doesNotMatch(busy.stderr, /\n\s+at /, 'no stack trace');
      assert.doesNotMatch(busy.stdout, /hk_/, 'no key was printed');
      // No key was created either, so the next start (on a free port) still creates one and prints it.
      const none = spawnSync(process.execPath, [MAIN, 'keys', 'list', '--json'], { env: freshEnv, encoding: 'utf8' });
      assert.deepEqual(JSON.parse(none.stdout), []);
      const child = spawn(process.execPath, [MAIN, 'start'], { env: { ...freshEnv, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      try {
        const key = await until('the first key to be printed', () => /hk_[A-Za-z0-9_-]{40,}/.exec(out)?.[0]);
        const url = /(http:\/\/127\.0\.0\.1:\d+)\/v1\/posts/.exec(out)![1];
        assert.equal((await fetch(`${url}/v1/posts`, { headers: { authorization: `Bearer ${key}` } })).status, 200);
      } finally {
        await new Promise((resolve) => {
          child.once('exit', resolve);
          child.kill('SIGTERM');
        });
      }
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
      await fresh.drop();
    }
  });

  test('API processes starting together on an empty PostgreSQL database create one first key', { skip: !usingPostgres && 'the embedded database runs one process' }, async () => {
    const fresh = await createTestDatabase();
    // Four connections pools stand for four processes; their first-key checks run at the same moment.
    const dbs = [1, 2, 3, 4].map(() => openDatabase({ dataDir: fresh.dataDir, databaseUrl: fresh.databaseUrl }));
    try {
      await migrateToLatest(dbs[0]!);
      const created = await Promise.all(dbs.map((db) => ensureFirstKey(db, createKeysService({ dal: createKeysDal({ db: db.kysely }), write: db.write, clock: systemClock }))));
      assert.equal(created.filter(Boolean).length, 1, 'one of them created a key');
      assert.equal(await createKeysService({ dal: createKeysDal({ db: dbs[0]!.kysely }), write: dbs[0]!.write, clock: systemClock }).count(), 1);
    } finally {
      for (const db of dbs) await db.close();
      await fresh.drop();
    }
  });
});
