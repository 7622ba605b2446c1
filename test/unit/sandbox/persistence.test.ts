// The sandbox's state on disk (kit/persistence.ts): debounced atomic writes, owner-only files, bounded
// snapshots, and a restart that finds what was there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { closeEmulators, createEmulators } from '../../../src/sandbox/index.ts';
import type { Emulator } from '../../../src/sandbox/kit/emulator.ts';
import { newest, persistEmulator, snapshotEmulator } from '../../../src/sandbox/kit/persistence.ts';
import { startEmulatorServer } from '../../../src/sandbox/server.ts';
import { createTwitterEmulator } from '../../../src/sandbox/twitter/emulator.ts';

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'herald-sandbox-state-'));
}

const entry = (i: number) => ({ id: String(i), accountId: 'a', kind: 'post', text: `post ${i}`, media: [], createdAt: i });

test('a change is written after the debounce, atomically, readable by the owner only', async () => {
  const dir = join(tempDir(), 'sandbox');
  try {
    const emu = createTwitterEmulator();
    const saver = persistEmulator(emu, { dir, debounceMs: 400 });
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    assert.equal(existsSync(saver.file), false, 'nothing to write yet');
    const server = await startEmulatorServer([emu]);
    try {
      await fetch(`${server.rootOf('twitter')}/2/users/me`); // any answered request may have changed something
      emu.ledger.record(entry(1));
      assert.equal(existsSync(saver.file), false, 'not at once');
      await new Promise((r) => setTimeout(r, 800));
      assert.equal(existsSync(saver.file), true, 'after the debounce');
      assert.equal(statSync(saver.file).mode & 0o777, 0o600);
      assert.deepEqual(readdirSync(dir), ['twitter.json'], 'the temporary file was renamed over it');
      const saved = JSON.parse(readFileSync(saver.file, 'utf8')) as { version: number; name: string; ledger: { text: string }[] };
      assert.equal(saved.version, 1);
      assert.equal(saved.name, 'twitter');
      assert.deepEqual(saved.ledger.map((e) => e.text), ['post 1']);
    } finally {
      await server.close();
      await saver.close();
    }
    emu.ledger.record(entry(2));
    await new Promise((r) => setTimeout(r, 60));
    assert.equal((JSON.parse(readFileSync(join(dir, 'twitter.json'), 'utf8')) as { ledger: unknown[] }).ledger.length, 1, 'closed: no more writes');
  } finally {
    rmSync(dirname(dir), { recursive: true, force: true });
  }
});

test('snapshots are bounded: the newest ledger entries, no expired tokens, revoked tokens first out', () => {
  let now = 1_000_000;
  const emu = createTwitterEmulator({ now: () => now });
  for (let i = 0; i < 10; i++) emu.ledger.record(entry(i));
  const expiring = emu.oauth.issueTokens('u1', ['tweet.read'], { withRefresh: false, accessTtlMs: 1_000 });
  const revoked = emu.oauth.issueTokens('u1', ['tweet.read'], { withRefresh: false, accessTtlMs: null });
  emu.oauth.revoke(revoked.accessToken);
  const kept = [1, 2, 3].map(() => emu.oauth.issueTokens('u1', ['tweet.read'], { withRefresh: false, accessTtlMs: null }).accessToken);
  now += 2_000;
  const snap = snapshotEmulator(emu, { ledger: 3, tokens: 3, items: 10 });
  assert.deepEqual(snap.ledger.map((e) => e.id), ['7', '8', '9']);
  const tokens = snap.oauth.tokens.map(([t]) => t);
  assert.ok(!tokens.includes(expiring.accessToken), 'expired');
  assert.ok(!tokens.includes(revoked.accessToken), 'revoked, over the cap');
  assert.deepEqual(tokens, kept);
  assert.deepEqual(newest([5, 1, 9, 3, 9], 2, (n) => n), [9, 9]);
  assert.deepEqual(newest([{ t: 1 }, { t: 3 }, { t: 2 }], 2, (x) => x.t), [{ t: 3 }, { t: 2 }], 'kept in their order');
});

test('an unreadable or foreign file is set aside; the emulator starts empty and saves afresh', async () => {
  const root = tempDir();
  try {
    writeFileSync(join(root, 'twitter.json'), '{"version":1,"name":"twitter","oauth":');
    writeFileSync(join(root, 'meta.json'), JSON.stringify({ version: 1, name: 'threads', oauth: { codes: [], tokens: [] }, ledger: [] }));
    const errors: string[] = [];
    const emulators = createEmulators({ persistence: { dir: root, debounceMs: 10, onError: (_err, file) => errors.push(file) } });
    assert.deepEqual(errors.sort(), [join(root, 'meta.json'), join(root, 'twitter.json')]);
    assert.ok(existsSync(join(root, 'twitter.json.unreadable')));
    assert.ok(emulators.every((e) => e.ledger.list().length === 0));
    emulators[0]!.ledger.record(entry(1));
    await closeEmulators(emulators);
    assert.ok(existsSync(join(root, `${emulators[0]!.name}.json`)));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('closeEmulators writes what is pending at once, and a new set of emulators reads it back', async () => {
  const root = tempDir();
  try {
    const first = createEmulators({ persistence: { dir: root, debounceMs: 60_000 } });
    const x = first.find((e) => e.name === 'twitter')!;
    x.ledger.record(entry(42));
    const token = x.oauth.issueTokens('someone', ['tweet.read'], { withRefresh: true });
    await closeEmulators(first);
    const second: Emulator[] = createEmulators({ persistence: { dir: root } });
    try {
      const again = second.find((e) => e.name === 'twitter')!;
      assert.deepEqual(again.ledger.list().map((e) => e.id), ['42']);
      assert.equal(again.oauth.checkAccess(token.accessToken).ok, true);
      assert.equal(again.oauth.refresh(token.refreshToken!).ok, true);
    } finally {
      await closeEmulators(second);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});


test('a directory that cannot be made does not stop the sandbox: it runs in memory and reports each failed write', async () => {
  const root = tempDir();
  try {
    const blocker = join(root, 'not-a-dir');
    writeFileSync(blocker, 'a file where the directory should be');
    const errors: string[] = [];
    const emulators = createEmulators({ persistence: { dir: join(blocker, 'sandbox'), debounceMs: 10, onError: (_err, file) => errors.push(file) } });
    const emu = emulators[0]!;
    const mine = () => errors.filter((f) => f.endsWith(`${emu.name}.json`)).length;
    assert.equal(mine(), 1);
    emu.ledger.record(entry(1));
    await closeEmulators(emulators);
    assert.equal(mine(), 2, 'the write failed and said so');
    assert.equal(emu.ledger.list().length, 1);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
