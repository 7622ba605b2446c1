// One token refresh per account across processes. Several Herald processes (runtimes sharing one
// database, each with its own in-process state) all find the same account's token refused at once: the
// platform sees one refresh call, every process ends up with the new token, and nobody announces a false
// account.disconnected. On PostgreSQL the runtimes are as independent as processes on several machines.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createEmulators } from '../../src/sandbox/index.ts';
import type { Emulator } from '../../src/sandbox/kit/emulator.ts';
import { startEmulatorServer, type EmulatorServer } from '../../src/sandbox/server.ts';
import { connectAccount } from '../helpers/connect.ts';
import { createTestDatabase, startHerald, type TestDatabase, type TestHerald } from '../helpers/herald.ts';

const PROCESSES = 5;
let server: EmulatorServer;
let emulators: Emulator[];
let database: TestDatabase;
let heralds: TestHerald[];

before(async () => {
  emulators = createEmulators();
  server = await startEmulatorServer(emulators);
  database = await createTestDatabase();
  heralds = [];
  for (let i = 0; i < PROCESSES; i++) heralds.push(await startHerald({ emulators: server, database }));
});

after(async () => {
  for (const h of heralds) await h.close();
  await database.drop();
  await server.close();
});

const x = () => emulators.find((e) => e.name === 'twitter')!;
const tokenCalls = () => x().calls.filter((c) => c.method === 'POST' && c.path === '/2/oauth2/token').length;

test(`${PROCESSES} processes refreshing one account at once: one refresh at the platform, no false disconnect`, async () => {
  const h = heralds[0]!;
  const { accountId } = await connectAccount(h, 'twitter', { sandbox_user: 'rotating' });
  const row = await h.runtime.db.kysely.selectFrom('accounts').selectAll().where('account_id', '=', accountId).executeTakeFirstOrThrow();
  // X rotates refresh tokens: a second refresh with the same token is refused, which is what used to
  // disconnect the account when two processes refreshed at once.
  x().oauth.expireAccessTokens();
  const before = tokenCalls();

  const results = await Promise.all(heralds.map((p) => p.runtime.credentials.refreshAfterAuthFailure(row)));

  assert.equal(tokenCalls() - before, 1, 'exactly one refresh call reached X');
  const tokens = new Set(results.map((r) => (r.ok ? r.creds.accessToken : `failed: ${r.failure.message}`)));
  assert.equal(tokens.size, 1, `every process has the same new token: ${[...tokens].join(', ')}`);
  assert.ok(results.every((r) => r.ok));
  const after = await h.runtime.db.kysely.selectFrom('accounts').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
  assert.equal(after.status, 'active');
  assert.equal(after.refresh_lease_id, null, 'the lease was given back');
  const disconnects = await h.runtime.db.kysely.selectFrom('webhook_events').select('id').where('event', '=', 'account.disconnected').execute();
  assert.equal(disconnects.length, 0);
  // The new token works.
  const me = await h.request('GET', '/v1/accounts/health');
  assert.equal(me.status, 200);
  assert.equal(me.body.accounts.find((a: { accountId: string }) => a.accountId === accountId).tokenValid, true);
});

test('a refresher that died holding the lease: the next process takes it over once it runs out', async () => {
  const h = heralds[1]!;
  const { accountId } = await connectAccount(h, 'twitter', { sandbox_user: 'orphaned' });
  const row = await h.runtime.db.kysely.selectFrom('accounts').selectAll().where('account_id', '=', accountId).executeTakeFirstOrThrow();
  // A lease that has already run out, as a crashed process leaves it.
  await h.runtime.db.write((trx) =>
    trx.updateTable('accounts').set({ refresh_lease_id: 'dead-process', refresh_lease_until: Date.now() - 1 }).where('id', '=', row.id).execute(),
  );
  x().oauth.expireAccessTokens();
  const before = tokenCalls();
  const r = await heralds[2]!.runtime.credentials.refreshAfterAuthFailure(row);
  assert.ok(r.ok, r.ok ? '' : r.failure.message);
  assert.equal(tokenCalls() - before, 1);
});

test('a refresh X refuses marks the account once, whoever asked', async () => {
  const h = heralds[3]!;
  const { accountId } = await connectAccount(h, 'twitter', { sandbox_user: 'revoked' });
  const row = await h.runtime.db.kysely.selectFrom('accounts').selectAll().where('account_id', '=', accountId).executeTakeFirstOrThrow();
  await fetch(`${server.rootOf('twitter')}/__sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ kind: 'expired_token', method: 'POST', path: '/2/oauth2/token', forever: true }),
  });
  try {
    const results = await Promise.all(heralds.map((p) => p.runtime.credentials.refreshAfterAuthFailure(row)));
    assert.ok(results.every((r) => !r.ok && r.disconnected));
    const after = await h.runtime.db.kysely.selectFrom('accounts').select('status').where('id', '=', row.id).executeTakeFirstOrThrow();
    assert.equal(after.status, 'needs_reconnect');
  } finally {
    await fetch(`${server.rootOf('twitter')}/__sandbox/faults`, { method: 'DELETE' });
  }
});
