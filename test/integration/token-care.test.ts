// Token care: which accounts are refreshed ahead of expiry, and a refresh never overwrites what a
// reconnect stored meanwhile.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createMetaEmulator } from '../../src/sandbox/meta/emulator.ts';
import { createThreadsEmulator } from '../../src/sandbox/threads/emulator.ts';
import { createTikTokEmulator } from '../../src/sandbox/tiktok/emulator.ts';
import { createTwitterEmulator } from '../../src/sandbox/twitter/emulator.ts';
import { connectAccount } from '../helpers/connect.ts';
import { startWorld, type World } from '../helpers/e2e.ts';
import { gate, until } from '../helpers/wait.ts';

let w: World;
before(async () => {
  // Threads refreshes a token only once it is a day old; here at once, so a fresh account can be refreshed.
  w = await startWorld({
    emulatorList: [createTwitterEmulator(), createMetaEmulator(), createThreadsEmulator({ refreshMinAgeMs: 0 }), createTikTokEmulator()],
  });
});
after(() => w.close());

const HOUR = 60 * 60_000;
const rowOf = (accountId: string) => w.h.runtime.db.writable.selectFrom('accounts').selectAll().where('account_id', '=', accountId).executeTakeFirstOrThrow();

test('hundreds of X accounts not yet due do not crowd out a Threads token due days ahead', async () => {
  const db = w.h.runtime.db.writable;
  const x = await rowOf((await connectAccount(w.h, 'twitter', { sandbox_user: 'crowd' })).accountId);
  // 250 X accounts whose two-hour tokens have an hour left: not due (X refreshes 5 min ahead).
  for (let i = 0; i < 250; i += 50) {
    await db
      .insertInto('accounts')
      .values(Array.from({ length: 50 }, (_, j) => ({ ...x, id: `acc_crowd_${i + j}`, account_id: `crowd_${i + j}`, token_expires_at: Date.now() + HOUR })))
      .execute();
  }
  const threads = await rowOf((await connectAccount(w.h, 'threads')).accountId);
  // A 60-day Threads token with three days left: due (Threads refreshes a week ahead).
  await db.updateTable('accounts').set({ token_expires_at: Date.now() + 72 * HOUR }).where('id', '=', threads.id).execute();

  await w.h.runtime.credentials.refreshDue();
  const after = await rowOf(threads.account_id);
  assert.notEqual(after.access_token, threads.access_token, 'the Threads token was refreshed');
  assert.ok(after.token_expires_at! > Date.now() + 30 * 24 * HOUR);
  await db.deleteFrom('accounts').where('id', 'like', 'acc_crowd_%').execute();
});

test('a reconnect during a refresh wins: its tokens are kept and used', async () => {
  const consent = { sandbox_user: 'racer' };
  const { accountId } = await connectAccount(w.h, 'twitter', consent);
  const db = w.h.runtime.db.writable;
  await db.updateTable('accounts').set({ token_expires_at: Date.now() + 60_000 }).where('account_id', '=', accountId).execute();
  // The refresh gets its new tokens from X, then is held until the reconnect has stored its own: the
  // race is set up by the test, not left to timing.
  const adapter = w.h.runtime.adapters.twitter;
  const realRefresh = adapter.refresh;
  const atX = gate();
  const reconnectedGate = gate();
  adapter.refresh = async (account) => {
    const out = await realRefresh.call(adapter, account);
    atX.open();
    await reconnectedGate.opened;
    return out;
  };
  let reconnected;
  let refreshing;
  try {
    refreshing = w.h.runtime.credentials.refreshDue();
    await until('the refresh to have its new tokens from X', () => atX.isOpen());
    await connectAccount(w.h, 'twitter', consent);
    reconnected = await rowOf(accountId);
  } finally {
    reconnectedGate.open();
    adapter.refresh = realRefresh;
  }
  await refreshing;
  const after = await rowOf(accountId);
  assert.equal(after.access_token, reconnected.access_token, "the refresh that started before the reconnect did not overwrite its tokens");
  assert.equal(after.status, 'active');
});

test('health of an account whose token X refuses even after a refresh: error, not valid, reconnect', async () => {
  const { accountId } = await connectAccount(w.h, 'twitter', { sandbox_user: 'refused' });
  w.emu('twitter').faults.add({ kind: 'expired_token', method: 'GET', path: '/2/users/me', forever: true });
  try {
    const res = await w.h.request('GET', '/v1/accounts/health');
    assert.equal(res.status, 200, res.text);
    const entry = res.body.accounts.find((a: { accountId: string }) => a.accountId === accountId);
    assert.equal(entry.health, 'error');
    assert.equal(entry.tokenValid, false);
    assert.deepEqual(entry.missingPermissions, []);
    assert.equal(entry.recommendations[0].code, 'RECONNECT');
    assert.match(entry.recommendations[0].message, /no longer works.*GET \/v1\/connect\/twitter/);
  } finally {
    w.emu('twitter').faults.clear();
  }
});
