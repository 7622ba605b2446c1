// Fault matrix: webhook delivery. Each row is a fault and the outcome API.md section 7 promises:
//   receiver answers 500, 500, then 200  → retried on the schedule with the same event id and bytes, then delivered
//   receiver answers 503 every time      → one attempt per scheduled retry, then the delivery is failed
//   receiver slower than the time-out    → the attempt counts as failed (no answer), is retried, then delivered
//   receiver answers 301                 → the redirect is not followed, counts as failed, the target never hears
//   receiver answers 410                 → no retry; the settings are disabled and nothing is sent until saved again
//   Herald killed after the change, before the send → the event survives and is delivered once after restart
// The retry schedule is shortened (HERALD_WEBHOOK_RETRY_SCHEDULE=0.2,0.4) and the time-out is 2 s: far above any
// real answer here even on a loaded machine; the slow receiver holds its answer for a minute.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase } from '../../src/db/database.ts';
import { createTestDatabase, startHerald, type TestDatabase, type TestHerald } from '../helpers/herald.ts';
import { processEnv, startHeraldProcess, type HeraldProcess } from '../helpers/process.ts';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.ts';
import { deleteADraft, eventually, listDeliveries, newestDeliveryOnceIs, saveSettings } from '../helpers/webhooks.ts';

let h: TestHerald;
const receivers: Receiver[] = [];
const databases: TestDatabase[] = [];
const processes: HeraldProcess[] = [];
const cleanups: (() => Promise<void>)[] = [];

async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}

async function history(key: string, deliveryId: string): Promise<any[]> {
  const res = await h.request('GET', `/v1/webhooks/deliveries/${deliveryId}`, { key });
  assert.equal(res.status, 200, res.text);
  return res.body.history;
}

/** A fresh key subscribed to post.deleted at `r`, and one draft deleted: one event on its way to `r`. */
async function oneEventTo(r: Receiver): Promise<string> {
  const { key } = await h.newKey();
  await saveSettings(h, { url: r.url, events: ['post.deleted'] }, key);
  await deleteADraft(h, key);
  return key;
}

before(async () => {
  h = await startHerald({ env: { HERALD_WEBHOOK_RETRY_SCHEDULE: '0.2,0.4' }, webhookTimeoutMs: 2_000 });
});
after(async () => {
  for (const p of processes) await p.kill();
  for (const c of cleanups) await c();
  await h.close();
  for (const r of receivers) await r.close();
  for (const d of databases) await d.drop();
});

test('receiver answers 500, 500, then 200 → retried on the schedule with the same event id and bytes, then delivered', async () => {
  const metric = async (outcome: string) => {
    const text = await (await fetch(`${h.url}/metrics`)).text();
    return Number(new RegExp(`herald_webhook_deliveries_total\\{outcome="${outcome}"\\} (\\d+)`).exec(text)?.[1] ?? 0);
  };
  const before = { retrying: await metric('retrying'), delivered: await metric('delivered') };
  const r = await receiver();
  r.script({ status: 500 }, { status: 500 });
  const key = await oneEventTo(r);
  // Delivered is final: once the delivery says so, nothing more can be sent for it.
  const d = await newestDeliveryOnceIs(h, key, 'delivered');
  const got = r.received.slice();
  assert.equal(got.length, 3, 'three attempts, nothing after the 2xx');
  assert.equal(new Set(got.map((g) => g.headers['x-herald-event-id'])).size, 1, 'the same event id on every attempt');
  assert.equal(new Set(got.map((g) => g.headers['webhook-id'])).size, 1, 'the same webhook-id on every attempt');
  assert.ok(got.every((g) => g.raw.equals(got[0]!.raw)), 'the same bytes on every attempt');
  // Not before their time; how long after depends on the machine and is not asserted.
  const gaps = [got[1]!.at - got[0]!.at, got[2]!.at - got[1]!.at];
  assert.ok(gaps[0]! >= 190, `first retry after 0.2 s, was ${gaps[0]} ms`);
  assert.ok(gaps[1]! >= 390, `second retry after 0.4 s, was ${gaps[1]} ms`);
  assert.equal(d.attempts, 3);
  assert.equal(d.eventId, got[0]!.json.id);
  const attempts = await history(key, d.id);
  assert.deepEqual(attempts.map((a) => a.statusCode), [500, 500, 200]);
  assert.deepEqual(attempts.map((a) => a.attempt), [1, 2, 3]);
  // Every attempt is counted for operators (herald_webhook_deliveries_total by outcome).
  assert.equal((await metric('retrying')) - before.retrying, 2);
  assert.equal((await metric('delivered')) - before.delivered, 1);
});

test('receiver answers 503 every time → one attempt per scheduled retry, then the delivery is failed', async () => {
  const r = await receiver();
  r.fallback = { status: 503 };
  const key = await oneEventTo(r);
  const d = await newestDeliveryOnceIs(h, key, 'failed');
  assert.equal(d.attempts, 3, 'the first send and one per scheduled retry');
  assert.equal(d.lastStatusCode, 503);
  assert.equal(d.nextAttemptAt, null, 'failed is final: nothing more is planned');
  assert.equal(r.received.length, 3, 'nothing after the schedule is used up');
  assert.equal(new Set(r.received.map((g) => g.headers['x-herald-event-id'])).size, 1);
});

test('receiver slower than the time-out → the attempt counts as failed, is retried with the same event id, then delivered', async () => {
  const r = await receiver();
  r.script({ status: 200, delayMs: 60_000 });
  const key = await oneEventTo(r);
  const d = await newestDeliveryOnceIs(h, key, 'delivered');
  assert.equal(d.attempts, 2, 'the slow answer counted as a failure and was retried');
  const [first, second] = await history(key, d.id);
  assert.equal(first.statusCode, null, 'the late 200 is not taken as an answer');
  assert.match(first.error, /no answer within 2000 ms/);
  // It gave up at the time-out rather than waiting for the late answer: no status code, and the error
  // names the time-out (how much later than 2 s it gave up depends on the machine).
  assert.ok(first.durationMs >= 1_950, `waited for the time-out, took ${first.durationMs} ms`);
  assert.equal(second.statusCode, 200);
  assert.equal(r.received.length, 2);
  assert.equal(r.received[0]!.headers['x-herald-event-id'], r.received[1]!.headers['x-herald-event-id']);
});

test('receiver answers 301 → the redirect is not followed and counts as failed; its target never hears from Herald', async () => {
  const target = await receiver();
  const r = await receiver();
  r.fallback = { status: 301, headers: { location: target.url } };
  const key = await oneEventTo(r);
  const d = await newestDeliveryOnceIs(h, key, 'failed');
  assert.equal(d.attempts, 3, 'each 301 was a failed attempt, retried on the schedule');
  assert.equal(d.lastStatusCode, 301);
  assert.match(d.lastError, /redirects are not followed/);
  assert.deepEqual((await history(key, d.id)).map((a) => a.statusCode), [301, 301, 301]);
  assert.equal(target.received.length, 0, 'the redirect target never heard from Herald');
});

test('receiver answers 410 → no retry, the settings are disabled and nothing is sent to that URL until they are saved again', async () => {
  const r = await receiver();
  r.script({ status: 410 });
  const key = await oneEventTo(r);
  const d = await newestDeliveryOnceIs(h, key, 'failed');
  assert.equal(d.attempts, 1, 'no retry after 410');
  assert.equal(d.lastStatusCode, 410);
  const settings = await h.request('GET', '/v1/webhooks/settings', { key });
  assert.ok(settings.body.disabledAt, 'settings disabled');
  assert.match(settings.body.disabledReason, /410/);

  // An event's delivery is written in the transaction of the change, so once the deletion has answered
  // a delivery either exists or never will; without one nothing can be sent.
  await deleteADraft(h, key);
  assert.equal((await listDeliveries(h, key)).length, 1, 'nothing recorded while disabled');
  assert.equal(r.received.length, 1, 'nor sent');

  const again = await saveSettings(h, { url: r.url, events: ['post.deleted'] }, key);
  assert.equal((again as any).disabledAt, null);
  await deleteADraft(h, key);
  await r.waitFor(2);
});

test('Herald killed (SIGKILL) after the change is committed, before the send → the event is delivered once after restart on the same database', async () => {
  const r = await receiver();
  const db = await createTestDatabase();
  databases.push(db);
  // A key and its settings, then the process that makes the change. It runs the API alone, so the kill
  // certainly comes before any send; SIGKILL means nothing can be flushed on the way out.
  const setup = await startHerald({ role: 'api', database: db });
  const { key, keyId } = setup;
  await saveSettings(setup, { url: r.url, events: ['post.deleted'] });
  await setup.close();
  const proc = await startHeraldProcess(processEnv(db, { HERALD_ALLOW_PRIVATE_NETWORKS: 'true' }), 'api');
  processes.push(proc);
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${proc.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const created = await call('POST', '/v1/posts', { content: 'deleted just before the crash', isDraft: true });
  assert.equal(created.status, 201);
  const postId = created.body.id as string;
  assert.equal((await call('DELETE', `/v1/posts/${postId}`)).status, 200);
  await proc.kill();
  assert.equal(r.received.length, 0, 'nothing was sent before the crash');

  // The event was committed with the deletion: both are on disk after the kill.
  const peek = openDatabase({ dataDir: db.dataDir, databaseUrl: db.databaseUrl });
  const [row] = await peek.kysely.selectFrom('webhook_deliveries').selectAll().where('api_key_id', '=', keyId).execute();
  const post = await peek.kysely.selectFrom('posts').select('id').where('id', '=', postId).executeTakeFirst();
  await peek.close();
  assert.ok(row, 'the delivery was written with the change');
  assert.equal(row.status, 'pending');
  assert.equal(row.attempts, 0);
  assert.equal(post, undefined, 'the change itself is committed');

  const restarted = await startHerald({ database: db });
  let closed = false;
  cleanups.push(async () => {
    if (!closed) await restarted.close();
  });
  const [got] = await r.waitFor(1);
  assert.equal(got!.json.event, 'post.deleted');
  assert.deepEqual(got!.json.data, { postId });
  assert.equal(got!.headers['x-herald-event-id'], row.event_id, 'the event keeps the id it was written with');
  const d = await eventually(async () => {
    const [first] = await listDeliveries(restarted, key);
    return first?.status === 'delivered' ? first : undefined;
  });
  assert.equal(d.attempts, 1);
  // Stopping Herald waits for whatever it has in hand: a second send, if any, would have arrived by now.
  closed = true;
  await restarted.close();
  assert.equal(r.received.length, 1, 'delivered once');
});
