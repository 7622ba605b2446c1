// account.expiring (API.md section 12): a token that ends within HERALD_EXPIRY_WARNING_DAYS and cannot be
// renewed without the user is announced once per expiry, even with several processes asking, and shows
// in health as a warning with RECONNECT. Tokens Herald renews itself are never announced.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { connectAccount } from '../helpers/connect.ts';
import { startWorld, type World } from '../helpers/e2e.ts';
import { testClock, type TestClock } from '../helpers/clock.ts';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.ts';
import { eventually, saveSettings } from '../helpers/webhooks.ts';

const DAY = 24 * 3_600_000;
const WEEK = 7 * DAY;
let w: World;
let clock: TestClock;
let receiver: Receiver;

before(async () => {
  clock = testClock();
  w = await startWorld({ clock });
  receiver = await startReceiver();
  await saveSettings(w.h, { url: receiver.url, events: ['account.expiring'] });
});
after(async () => {
  await w.close();
  await receiver.close();
});

const expiring = () => receiver.received.map((r) => r.json as any).filter((e) => e.event === 'account.expiring');

test('an Instagram token (a Facebook user token) ending in 3 days: announced once, health warns RECONNECT', async () => {
  const ig = (await connectAccount(w.h, 'instagram', { sandbox_pages: '1' })).accountId;
  const x = (await connectAccount(w.h, 'twitter')).accountId;
  const row = await w.h.runtime.db.kysely.selectFrom('accounts').selectAll().where('account_id', '=', ig).executeTakeFirstOrThrow();
  const ends = row.token_expires_at!;
  // 57 days later the 60-day token has 3 days left (Herald's clock moves; the platform's does not need to).
  clock.advance(ends - clock.now() - 3 * DAY);
  // X renews its own tokens with the refresh token: never announced, however close its expiry.
  await w.h.runtime.db.writable.updateTable('accounts').set({ token_expires_at: clock.now() + DAY }).where('account_id', '=', x).execute();

  const announced = await Promise.all([w.h.runtime.credentials.announceExpiring(WEEK), w.h.runtime.credentials.announceExpiring(WEEK)]);
  assert.equal(announced[0] + announced[1], 1, 'one announcement for one expiry');
  assert.equal(await w.h.runtime.credentials.announceExpiring(WEEK), 0);
  const event = await eventually(async () => expiring().find((e) => e.data.accountId === ig));
  assert.deepEqual(event.data, { platform: 'instagram', accountId: ig, username: event.data.username, expiresAt: new Date(ends).toISOString() });
  assert.equal(expiring().filter((e) => e.data.accountId === x).length, 0);

  const health = (await w.h.request('GET', '/v1/accounts/health')).body.accounts.find((a: any) => a.accountId === ig);
  assert.equal(health.health, 'warning');
  assert.ok(health.recommendations.some((r: any) => r.code === 'RECONNECT'), JSON.stringify(health.recommendations));
});

test('a new expiry is announced again, once', async () => {
  const ig = (await connectAccount(w.h, 'instagram', { sandbox_user: 'renewed', sandbox_pages: '1' })).accountId;
  const first = clock.now() + 2 * DAY;
  await w.h.runtime.db.writable.updateTable('accounts').set({ token_expires_at: first }).where('account_id', '=', ig).execute();
  assert.equal(await w.h.runtime.credentials.announceExpiring(WEEK), 1);
  const later = clock.now() + 4 * DAY;
  await w.h.runtime.db.writable.updateTable('accounts').set({ token_expires_at: later }).where('account_id', '=', ig).execute();
  assert.equal(await w.h.runtime.credentials.announceExpiring(WEEK), 1, 'a different expiry is a new announcement');
  assert.equal(await w.h.runtime.credentials.announceExpiring(WEEK), 0);
  await eventually(async () => (expiring().filter((e) => e.data.accountId === ig).length === 2 ? true : undefined));
});
