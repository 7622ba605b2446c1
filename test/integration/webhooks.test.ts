// Webhook delivery against a real receiver on 127.0.0.1: the signed bytes and every header. What happens
// when the receiver fails (5xx, time-out, redirect, 410) or Herald crashes is in test/faults/webhooks.test.ts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { startHerald, type TestHerald } from '../helpers/herald.ts';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.ts';
import { assertSigned, deleteADraft, newestDeliveryOnceIs, saveSettings } from '../helpers/webhooks.ts';

let h: TestHerald;
const receivers: Receiver[] = [];

async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}

before(async () => {
  h = await startHerald();
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
    const from = Math.floor(Date.now() / 1000);
    const postId = await deleteADraft(h, key);
    const [got] = await r.waitFor(1);
    assert.equal(got!.method, 'POST');
    assert.equal(got!.headers['content-type'], 'application/json');
    assert.match(String(got!.headers['user-agent']), /^Herald-Webhooks\//);
    assert.equal(got!.headers['x-herald-event'], 'post.deleted');
    assert.match(String(got!.headers['x-herald-event-id']), /^evt_[A-Za-z0-9_-]{20,}$/);
    assert.equal(got!.headers['webhook-id'], got!.headers['x-herald-event-id']);
    const ts = Number(got!.headers['webhook-timestamp']);
    assert.ok(Number.isInteger(ts) && ts >= from && ts <= Math.ceil(Date.now() / 1000), 'webhook-timestamp is unix seconds, now');
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

    const d = await newestDeliveryOnceIs(h, key, 'delivered');
    assert.equal(d.eventId, got!.json.id);
    assert.equal(d.attempts, 1);
    assert.equal(d.lastStatusCode, 200);
    assert.equal(d.lastError, null);
    assert.ok(d.deliveredAt);
  });
});
