// The embedded data directory holds the database (with every token, sealed) and the key that unseals
// them: only its owner may read it. The directory is created 0700; herald.db, its -wal and -shm files
// and encryption.key are 0600, whatever the umask; files an older Herald left readable are tightened.
// (Embedded only: this test runs SQLite even when the suite runs on PostgreSQL.)
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { loadConfig } from '../../src/config.ts';
import { createRuntime, type Runtime } from '../../src/runtime.ts';

const FILES = ['herald.db', 'herald.db-wal', 'herald.db-shm', 'encryption.key'];
let parent: string;
let previousUmask: number;

before(() => {
  parent = mkdtempSync(join(tmpdir(), 'herald-perms-'));
  // The most permissive umask: the modes must come from Herald, not from the environment.
  previousUmask = process.umask(0o000);
});
after(() => {
  process.umask(previousUmask);
  rmSync(parent, { recursive: true, force: true });
});

const mode = (path: string) => statSync(path).mode & 0o777;

async function runHerald(dataDir: string): Promise<Runtime> {
  const config = loadConfig({ HERALD_DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent' });
  const runtime = await createRuntime(config, { role: 'all', log: pino({ level: 'silent' }) });
  await runtime.start();
  // A write, so that the WAL and its index exist.
  const created = await runtime.keys.create('perms');
  const res = await fetch(`${runtime.url()}/v1/posts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${created.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ content: 'private', isDraft: true }),
  });
  assert.equal(res.status, 201);
  return runtime;
}

test('a new data directory is 0700 and the database, its -wal and -shm, and the key file are 0600', async () => {
  const dataDir = join(parent, 'nested', 'data');
  const runtime = await runHerald(dataDir);
  try {
    assert.equal(mode(dataDir).toString(8), '700', 'data directory');
    for (const f of FILES) {
      assert.ok(existsSync(join(dataDir, f)), `${f} exists`);
      assert.equal(mode(join(dataDir, f)).toString(8), '600', f);
    }
  } finally {
    await runtime.stop();
  }
});

test('files an older Herald left readable by everyone are made 0600 at the next start', async () => {
  const dataDir = join(parent, 'older');
  await (await runHerald(dataDir)).stop();
  for (const f of FILES) if (existsSync(join(dataDir, f))) chmodSync(join(dataDir, f), 0o644);
  const runtime = await runHerald(dataDir);
  try {
    for (const f of FILES) assert.equal(mode(join(dataDir, f)).toString(8), '600', f);
  } finally {
    await runtime.stop();
  }
});
