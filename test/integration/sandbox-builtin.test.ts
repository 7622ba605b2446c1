// The built-in sandbox: it survives a restart (accounts, tokens and posts live in <dataDir>/sandbox), and its
// control routes exist only while the sandbox is on.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { connectAccount } from '../helpers/connect.ts';
import { posted, publishNow } from '../helpers/e2e.ts';
import { createTestDatabase, startHerald, type TestDatabase } from '../helpers/herald.ts';
import { closeEmulators, createEmulators } from '../../src/sandbox/index.ts';
import { startEmulatorServer } from '../../src/sandbox/server.ts';

const databases: TestDatabase[] = [];
after(async () => {
  for (const d of databases) await d.drop();
});

async function database(): Promise<TestDatabase> {
  const d = await createTestDatabase();
  databases.push(d);
  return d;
}

test('restarting Herald keeps the built-in sandbox: the X account still works and its earlier post is still there', async () => {
  const db = await database();
  const first = await startHerald({ database: db, env: { HERALD_SANDBOX: 'true' } });
  let accountId: string;
  let firstPostId: string;
  try {
    assert.ok(first.runtime.emulators.length > 0, 'the sandbox is built in');
    ({ accountId } = await connectAccount(first, 'twitter', { sandbox_user: 'restarter' }));
    const post = await publishNow(first, { content: 'before the restart', platforms: [{ platform: 'twitter', accountId }] });
    assert.equal(post.status, 'published', JSON.stringify(post));
    firstPostId = post.platforms[0].platformPostId;
  } finally {
    await first.close();
  }

  const dir = join(db.dataDir, 'sandbox');
  const file = join(dir, 'twitter.json');
  assert.equal(statSync(file).mode & 0o777, 0o600, 'only the owner may read the sandbox’s tokens');
  assert.equal(statSync(dir).mode & 0o777, 0o700);
  assert.deepEqual(readdirSync(dir).filter((f) => f.endsWith('.tmp')), [], 'no temporary file is left behind');
  assert.ok(readFileSync(file, 'utf8').includes('before the restart'));

  // Same database and data directory, a new process (and port); the API key of the first run still holds the account.
  const second = await startHerald({ database: db, env: { HERALD_SANDBOX: 'true' } });
  try {
    const health = await second.request('GET', '/v1/accounts/health', { key: first.key });
    assert.equal(health.status, 200, health.text);
    const entry = health.body.accounts.find((a: { accountId: string }) => a.accountId === accountId);
    assert.equal(entry?.health, 'healthy', JSON.stringify(health.body));
    assert.equal(entry.tokenValid, true);

    const next = await publishNow(second, { content: 'after the restart', platforms: [{ platform: 'twitter', accountId }] }, first.key);
    assert.equal(next.status, 'published', JSON.stringify(next));

    const x = second.runtime.emulators.find((e) => e.name === 'twitter')!;
    assert.deepEqual(posted(x, { accountId, text: 'before the restart' }).map((e) => e.id), [firstPostId]);
    assert.equal(posted(x, { accountId, text: 'after the restart' }).length, 1);
    const read = await fetch(`${second.url}/sandbox/twitter/__sandbox/ledger?accountId=${accountId}`);
    assert.deepEqual(((await read.json()) as { posts: { text: string }[] }).posts.map((p) => p.text), ['before the restart', 'after the restart']);
  } finally {
    await second.close();
  }
});

test('every emulator made with persistence comes back after a restart: all five platforms publish again on the tokens they had', async () => {
  const db = await database();
  const dir = join(db.dataDir, 'emulators');
  const accounts: Record<string, string> = {};
  let key: string;
  {
    const emulators = createEmulators({ processingMs: 30, persistence: { dir } });
    const server = await startEmulatorServer(emulators);
    const h = await startHerald({ database: db, emulators: server });
    key = h.key;
    try {
      accounts.twitter = (await connectAccount(h, 'twitter', { sandbox_user: 'p_x' })).accountId;
      accounts.facebook = (await connectAccount(h, 'facebook', { sandbox_user: 'p_fb', sandbox_pages: '1' })).accountId;
      accounts.instagram = (await connectAccount(h, 'instagram', { sandbox_user: 'p_ig', sandbox_pages: '1' })).accountId;
      accounts.threads = (await connectAccount(h, 'threads', { sandbox_user: 'p_th' })).accountId;
      accounts.tiktok = (await connectAccount(h, 'tiktok', { sandbox_user: 'p_tt' })).accountId;
      const post = await publishNow(h, {
        content: `first round ${Date.now()}`,
        mediaItems: [{ type: 'image', url: `${server.mediaUrl}/sample.jpg` }],
        tiktokSettings: { privacyLevel: 'PUBLIC_TO_EVERYONE' },
        platforms: Object.entries(accounts).map(([platform, accountId]) => ({ platform, accountId })),
      });
      assert.equal(post.status, 'published', JSON.stringify(post));
    } finally {
      await h.close();
      await server.close();
      await closeEmulators(emulators);
    }
  }
  const saved = readdirSync(dir);
  for (const file of ['meta.json', 'threads.json', 'tiktok.json', 'twitter.json']) assert.ok(saved.includes(file), `${file} in ${saved.join(', ')}`);

  const emulators = createEmulators({ processingMs: 30, persistence: { dir } });
  const server = await startEmulatorServer(emulators);
  const h = await startHerald({ database: db, emulators: server });
  try {
    const used = emulators.filter((e) => Object.keys(accounts).some((p) => e.platforms.includes(p)));
    assert.equal(used.length, 4);
    for (const emu of used) assert.ok(emu.ledger.list().length > 0, `${emu.name} kept its ledger`);
    const health = await h.request('GET', '/v1/accounts/health', { key });
    assert.equal(health.status, 200, health.text);
    for (const entry of health.body.accounts) assert.equal(entry.tokenValid, true, JSON.stringify(entry));
    assert.equal(health.body.accounts.length, 5);
    const post = await publishNow(
      h,
      {
        content: `second round ${Date.now()}`,
        mediaItems: [{ type: 'image', url: `${server.mediaUrl}/sample.jpg` }],
        tiktokSettings: { privacyLevel: 'PUBLIC_TO_EVERYONE' },
        platforms: Object.entries(accounts).map(([platform, accountId]) => ({ platform, accountId })),
      },
      key,
    );
    assert.equal(post.status, 'published', JSON.stringify(post));
    for (const [platform, accountId] of Object.entries(accounts)) {
      const emu = emulators.find((e) => e.platforms.includes(platform as never))!;
      assert.equal(emu.ledger.list({ accountId }).length, 2, `${platform}: the first round's post and the second's`);
    }
  } finally {
    await h.close();
    await server.close();
    await closeEmulators(emulators);
  }
});

test('the control routes are local-development tools: with HERALD_SANDBOX=false and credentials they do not exist', async () => {
  const off = await startHerald({
    env: { HERALD_SANDBOX: 'false', HERALD_TWITTER_CLIENT_ID: 'real-app', HERALD_TWITTER_CLIENT_SECRET: 'real-secret' },
  });
  try {
    assert.equal(off.runtime.emulators.length, 0);
    for (const path of ['/sandbox/twitter/__sandbox/ledger', '/sandbox/twitter/__sandbox/calls', '/sandbox/meta/__sandbox/faults', '/sandbox/twitter/2/users/me']) {
      const res = await fetch(`${off.url}${path}`);
      assert.equal(res.status, 404, path);
    }
    const reset = await fetch(`${off.url}/sandbox/twitter/__sandbox/reset`, { method: 'POST' });
    assert.equal(reset.status, 404);
  } finally {
    await off.close();
  }
  const on = await startHerald({ env: { HERALD_SANDBOX: 'true', HERALD_TWITTER_CLIENT_ID: 'real-app', HERALD_TWITTER_CLIENT_SECRET: 'real-secret' } });
  try {
    const res = await fetch(`${on.url}/sandbox/meta/__sandbox/ledger`);
    assert.equal(res.status, 200, 'with the sandbox on, the emulated platforms have their control routes');
  } finally {
    await on.close();
  }
});
