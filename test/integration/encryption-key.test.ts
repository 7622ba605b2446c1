// A Herald restarted with another HERALD_ENCRYPTION_KEY cannot open stored tokens. It must say so
// plainly, send nothing, and still let the operator disconnect or reconnect accounts.
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createEmulators } from '../../src/sandbox/index.ts';
import { startEmulatorServer, type EmulatorServer } from '../../src/sandbox/server.ts';
import { connectAccount } from '../helpers/connect.ts';
import { createTestDatabase, startHerald, type TestDatabase, type TestHerald } from '../helpers/herald.ts';

let server: EmulatorServer;
let database: TestDatabase;
let h: TestHerald;
let accountId: string;
let key: string; // the first Herald's API key (stored as a hash, so the restart keeps it)

before(async () => {
  server = await startEmulatorServer(createEmulators());
  database = await createTestDatabase();
  const first = await startHerald({ emulators: server, database });
  accountId = (await connectAccount(first, 'twitter')).accountId;
  key = first.key;
  await first.close();
  database.encryptionKey = randomBytes(32).toString('base64');
  h = await startHerald({ emulators: server, database });
});
after(async () => {
  await h.close();
  await server.close();
  await database.drop();
});

test('publishing fails as an internal error that names the key, and nothing is sent', async () => {
  const before = ((await fetch(`${server.rootOf('twitter')}/__sandbox/calls`).then((r) => r.json())) as { calls: unknown[] }).calls.length;
  const res = await h.request('POST', '/v1/posts', { key, body: { content: 'sealed away', publishNow: true, platforms: [{ platform: 'twitter', accountId }] } });
  assert.equal(res.status, 201, res.text);
  const t = res.body.platforms[0];
  assert.equal(t.status, 'failed');
  assert.equal(t.errorCode, 'internal');
  assert.match(t.error, /HERALD_ENCRYPTION_KEY/);
  const calls = (await fetch(`${server.rootOf('twitter')}/__sandbox/calls`).then((r) => r.json()) as { calls: unknown[] }).calls.length;
  assert.equal(calls, before, 'no call reached X');
});

test('health says to reconnect; disconnecting still works', async () => {
  const health = await h.request('GET', '/v1/accounts/health', { key });
  assert.equal(health.body.accounts[0].health, 'error');
  assert.equal(health.body.accounts[0].recommendations[0].code, 'RECONNECT');
  const del = await h.request('DELETE', `/v1/accounts/twitter/${accountId}`, { key });
  assert.equal(del.status, 200, del.text);
  assert.deepEqual(del.body, { deleted: true, revoked: false });
});
