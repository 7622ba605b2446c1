// Webhook delivery against real receivers on 127.0.0.1: the signed bytes, retries on the schedule with
// one event id, time-outs, redirects that are not followed, and 410 that stops everything.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { startHerald, type TestHerald } from '../helpers/herald.ts';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.ts';
import { assertSigned, deleteADraft, eventually, saveSettings } from '../helpers/webhooks.ts';

let h: TestHerald;
const receivers: Receiver[] = [];

async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}

async function deliveries(key: string, query = '') {
  const res = await h.request('GET', `/v1/webhooks/deliveries${query}`, { key });
  assert.equal(res.status, 200, res.text);
  return res.body.deliveries as any[];
}

/** The key's newest delivery, once it has `status`. */
async function newestOnceIs(key: string, status: 'delivered' | 'failed') {
  const [d] = await eventually(async () => {
    const list = await deliveries(key);
    return list[0]?.status === status ? list : undefined;
  });
  return d;
}

before(async () => {
  h = await startHerald({ env: { HERALD_WEBHOOK_RETRY_SCHEDULE: '0.2,0.4' }, webhookTimeoutMs: 500 });
});
after(async () => {
  await h.close();
  for (const r of receivers) await r.close();
});

describe('a delivery', () => {
  test('carries the stored body, every header, and signatures that verify on the raw bytes', async () => {
    const r = await receiver();
    const { key } = await h.newKey();
    const settings = await saveSettings(h, { url: r.url, events: ['post.deleted'] }, key);
    const postId = await deleteADraft(h, key);
    const [got] = await r.waitFor(1);
    assert.equal(got!.method, 'POST');
    assert.equal(got!.headers['content-type'], 'application/json');
    assert.match(String(got!.headers['user-agent']), /^Herald-Webhooks\//);
    assert.equal(got!.headers['x-herald-event'], 'post.deleted');
    assert.match(String(got!.headers['x-herald-event-id']), /^evt_[A-Za-z0-9_-]{20,}$/);
    assert.equal(got!.headers['webhook-id'], got!.headers['x-herald-event-id']);
    const ts = Number(got!.headers['webhook-timestamp']);
    assert.ok(Number.isInteger(ts) && Math.abs(ts - Date.now() / 1000) < 30, 'webhook-timestamp is unix seconds, now');
    assertSigned(got!, settings.secret);
    assert.deepEqual(Object.keys(got!.json), ['id', 'event', 'timestamp', 'data']);
    assert.equal(got!.json.id, got!.headers['x-herald-event-id']);
    assert.match(got!.json.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.deepEqual(got!.json.data, { postId });

    // One byte changed and neither signature holds.
    const tampered = Buffer.from(got!.raw);
    const at = tampered.length - 2;
    tampered.writeUInt8(tampered.readUInt8(at) ^ 1, at);
    const hex = createHmac('sha256', settings.secret).update(tampered).digest('hex');
    assert.notEqual(hex, got!.headers['x-herald-signature']);
    assert.throws(() => assertSigned({ ...got!, raw: tampered }, settings.secret));

    const d = await newestOnceIs(key, 'delivered');
    assert.equal(d.eventId, got!.json.id);
    assert.equal(d.attempts, 1);
    assert.equal(d.lastStatusCode, 200);
    assert.equal(d.lastError, null);
    assert.ok(d.deliveredAt);
  });

  test('500, 500, 200: three attempts of one event id, spaced by the schedule', async () => {
    const metric = async (outcome: string) => {
      const text = await (await fetch(`${h.url}/metrics`)).text();
      return Number(new RegExp(`herald_webhook_deliveries_total\\{outcome="${outcome}"\\} (\\d+)`).exec(text)?.[1] ?? 0);
    };
    const before = { retrying: await metric('retrying'), delivered: await metric('delivered') };
    const r = await receiver();
    r.script({ status: 500 }, { status: 500 });
    const { key } = await h.newKey();
    await saveSettings(h, { url: r.url, events: ['post.deleted'] }, key);
    await deleteADraft(h, key);
    const got = await r.waitFor(3);
    await new Promise((res) => setTimeout(res, 700));
    assert.equal(r.received.length, 3, 'nothing after the 2xx');
    assert.equal(new Set(got.map((g) => g.headers['x-herald-event-id'])).size, 1, 'the same event id on every attempt');
    assert.ok(got.every((g) => g.raw.equals(got[0]!.raw)), 'the same bytes on every attempt');
    const gaps = [got[1]!.at - got[0]!.at, got[2]!.at - got[1]!.at];
    assert.ok(gaps[0]! >= 190 && gaps[0]! < 3000, `first retry after ~0.2 s, was ${gaps[0]} ms`);
    assert.ok(gaps[1]! >= 390 && gaps[1]! < 3000, `second retry after ~0.4 s, was ${gaps[1]} ms`);
    const [d] = await deliveries(key);
    assert.equal(d.status, 'delivered');
    assert.equal(d.attempts, 3);
    const detail = await h.request('GET', `/v1/webhooks/deliveries/${d.id}`, { key });
    assert.deepEqual(detail.body.history.map((a: any) => a.statusCode), [500, 500, 200]);
    assert.deepEqual(detail.body.history.map((a: any) => a.attempt), [1, 2, 3]);
    // Every attempt is counted for operators (herald_webhook_deliveries_total by outcome).
    assert.equal((await metric('retrying')) - before.retrying, 2);
    assert.equal((await metric('delivered')) - before.delivered, 1);
  });

  test('when the schedule is used up the delivery is failed', async () => {
    const r = await receiver();
    r.fallback = { status: 503 };
    const { key } = await h.newKey();
    await saveSettings(h, { url: r.url, events: ['post.deleted'] }, key);
    await deleteADraft(h, key);
    const d = await newestOnceIs(key, 'failed');
    assert.equal(d.attempts, 3, 'the first send and one per scheduled retry');
    assert.equal(d.lastStatusCode, 503);
    assert.equal(d.nextAttemptAt, null);
    assert.equal(r.received.length, 3);
  });

  test('a receiver slower than the time-out is a failed attempt', async () => {
    const r = await receiver();
    r.script({ status: 200, delayMs: 1500 });
    const { key } = await h.newKey();
    await saveSettings(h, { url: r.url, events: ['post.deleted'] }, key);
    await deleteADraft(h, key);
    const d = await newestOnceIs(key, 'delivered');
    assert.equal(d.attempts, 2, 'the slow answer counted as a failure and was retried');
    const detail = await h.request('GET', `/v1/webhooks/deliveries/${d.id}`, { key });
    const [first] = detail.body.history;
    assert.equal(first.statusCode, null);
    assert.match(first.error, /no answer within 500 ms/);
    assert.ok(first.durationMs >= 450 && first.durationMs < 1400, `gave up at the time-out, took ${first.durationMs} ms`);
  });

  test('a 301 is not followed and counts as a failure', async () => {
    const target = await receiver();
    const r = await receiver();
    r.fallback = { status: 301, headers: { location: target.url } };
    const { key } = await h.newKey();
    await saveSettings(h, { url: r.url, events: ['post.deleted'] }, key);
    await deleteADraft(h, key);
    const d = await newestOnceIs(key, 'failed');
    assert.equal(d.lastStatusCode, 301);
    assert.match(d.lastError, /redirects are not followed/);
    assert.equal(target.received.length, 0, 'the redirect target never heard from Herald');
  });

  test('a 410 disables the settings and stops deliveries until they are saved again', async () => {
    const r = await receiver();
    r.script({ status: 410 });
    const { key } = await h.newKey();
    await saveSettings(h, { url: r.url, events: ['post.deleted'] }, key);
    await deleteADraft(h, key);
    const d = await newestOnceIs(key, 'failed');
    assert.equal(d.attempts, 1, 'no retry after 410');
    assert.equal(d.lastStatusCode, 410);
    const settings = await h.request('GET', '/v1/webhooks/settings', { key });
    assert.ok(settings.body.disabledAt, 'settings disabled');
    assert.match(settings.body.disabledReason, /410/);

    await deleteADraft(h, key);
    await new Promise((res) => setTimeout(res, 500));
    assert.equal(r.received.length, 1, 'nothing is recorded or sent while disabled');
    assert.equal((await deliveries(key)).length, 1);

    const again = await saveSettings(h, { url: r.url, events: ['post.deleted'] }, key);
    assert.equal((again as any).disabledAt, null);
    await deleteADraft(h, key);
    await r.waitFor(2);
  });
});
