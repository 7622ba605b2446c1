// Durability and safety of delivery: events recorded by a process that never sent them (or died mid-send)
// are delivered by another; concurrent workers never send one attempt twice; the address rule is checked
// again at send time, so settings saved while private networks were allowed cannot reach them later
// (every address form, at save and send time, is a row of test/faults/security.test.ts).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDatabase, startHerald, type TestDatabase, type TestHerald } from '../helpers/herald.ts';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.ts';
import { deleteADraft, eventually, saveSettings } from '../helpers/webhooks.ts';

const receivers: Receiver[] = [];
const databases: TestDatabase[] = [];
async function receiver() {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}
async function database() {
  const db = await createTestDatabase();
  databases.push(db);
  return db;
}

async function deliveryRows(h: TestHerald, keyId: string) {
  return h.runtime.db.writable.selectFrom('webhook_deliveries').selectAll().where('api_key_id', '=', keyId).orderBy('created_at').orderBy('id').execute();
}

/** The Herald a test has running, closed by after() if the test fails midway. */
let shared: TestHerald | null = null;
after(async () => {
  await shared?.close();
  for (const r of receivers) await r.close();
  for (const d of databases) await d.drop();
});

test('events recorded by an API process are delivered by a worker started later, even if one died mid-send', async () => {
  const r = await receiver();
  const db = await database();
  const api = await startHerald({ role: 'api', database: db });
  await saveSettings(api, { url: r.url, events: ['post.deleted'] });
  const postIds = [await deleteADraft(api), await deleteADraft(api), await deleteADraft(api)];
  const rows = await deliveryRows(api, api.keyId);
  assert.equal(rows.length, 3);
  assert.ok(rows.every((d) => d.status === 'pending' && d.attempts === 0));

  // One delivery was claimed by a worker that died before it could write back, one lost its job; the
  // third still has its job.
  const now = Date.now();
  const k = api.runtime.db.writable;
  await k.updateTable('webhook_deliveries').set({ attempt_id: 'dead-worker', lease_expires_at: now - 1 }).where('id', '=', rows[0]!.id).execute();
  await k.updateTable('webhook_deliveries').set({ next_attempt_at: now - 120_000 }).where('id', '=', rows[1]!.id).execute();
  const withJob = rows[2]!.id;
  await k.deleteFrom('jobs').where('queue', '=', 'deliver-webhook').where('payload', 'not like', `%${withJob}%`).execute();
  // Once stopped, the API process has nothing left in hand: what the receiver has now is all it sent.
  await api.close();
  assert.equal(r.received.length, 0, 'an API-only process sends nothing');

  const worker = await startHerald({ role: 'worker', database: db });
  shared = worker;
  const got = await r.waitFor(3);
  assert.deepEqual(got.map((g) => g.json.data.postId).sort(), [...postIds].sort());
  const after = await eventually(async () => {
    const list = await deliveryRows(worker, api.keyId);
    return list.every((d) => d.status === 'delivered') ? list : undefined;
  });
  assert.ok(after.every((d) => d.attempts === 1 && d.attempt_id === null));
  // Stopping the worker waits for whatever it has in hand: a second send would have arrived by now.
  await worker.close();
  shared = null;
  assert.equal(r.received.length, 3, 'each event once');
});

test('workers racing for one delivery send it once', async () => {
  const r = await receiver();
  r.fallback = { status: 200, delayMs: 100 };
  const api = await startHerald({ role: 'api' });
  shared = api;
  await saveSettings(api, { url: r.url, events: ['post.deleted'] });
  await deleteADraft(api);
  const [row] = await deliveryRows(api, api.keyId);
  // Each process() call returns once its attempt (if it claimed one) is sent and written back.
  await Promise.all(Array.from({ length: 6 }, () => api.runtime.webhooks.process(row!.id)));
  const [done] = await deliveryRows(api, api.keyId);
  assert.equal(done!.status, 'delivered');
  assert.equal(done!.attempts, 1);
  const log = await api.runtime.db.writable.selectFrom('webhook_attempts').selectAll().where('delivery_id', '=', row!.id).execute();
  assert.equal(log.length, 1);
  await api.close();
  shared = null;
  assert.equal(r.received.length, 1);
});

test('settings saved while private networks were allowed cannot reach them once the guard is on', async () => {
  const r = await receiver();
  const db = await database();
  const open = await startHerald({ role: 'api', database: db });
  await saveSettings(open, { url: r.url, events: ['post.deleted'] });
  await deleteADraft(open);
  const keyId = open.keyId;
  await open.close();

  const guarded = await startHerald({ database: db, env: { HERALD_ALLOW_PRIVATE_NETWORKS: 'false' } });
  shared = guarded;
  const [blocked] = await eventually(async () => {
    const rows = await deliveryRows(guarded, keyId);
    return rows[0]?.attempts === 1 ? rows : undefined;
  });
  assert.equal(blocked!.last_status_code, null);
  assert.match(blocked!.last_error ?? '', /^blocked: .*private, loopback or reserved/);
  assert.equal(blocked!.status, 'pending', 'a blocked attempt is a failure like any other');
  assert.equal(r.received.length, 0, 'nothing ever reached the loopback receiver');
  await guarded.close();
  shared = null;
});
