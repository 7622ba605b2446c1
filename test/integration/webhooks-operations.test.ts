// The operations API: the delivery log (filters, keyset pages, retention), redelivery and test sends.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { systemClock } from '../../src/lib/clock.ts';
import { accountConnected, postDeleted, postScheduled, type CatalogEvent } from '../../src/events/catalog.ts';
import { createOutbox } from '../../src/webhooks/outbox.ts';
import { startHerald, type TestHerald } from '../helpers/herald.ts';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.ts';
import { assertSigned, eventually, saveSettings } from '../helpers/webhooks.ts';

let h: TestHerald;
let r: Receiver;

before(async () => {
  h = await startHerald({ env: { HERALD_WEBHOOK_RETRY_SCHEDULE: '0.2,0.4' }, webhookTimeoutMs: 2_000 });
  r = await startReceiver();
});
after(async () => {
  await h.close();
  await r.close();
});

/** Records events the way every service does: through the outbox, in a transaction. */
async function record(keyId: string, events: CatalogEvent[]) {
  const outbox = createOutbox({ clock: systemClock, queue: h.runtime.queue });
  await h.runtime.db.write((trx) => outbox.record(trx, keyId, events));
  h.runtime.queue.nudge();
}

async function list(key: string, query = '') {
  const res = await h.request('GET', `/v1/webhooks/deliveries${query}`, { key });
  assert.equal(res.status, 200, res.text);
  return res.body as { deliveries: any[]; cursor: string | null; hasMore: boolean };
}

const settled = (key: string, n: number) =>
  eventually(async () => {
    const page = await list(key, '?limit=100');
    return page.deliveries.length === n && page.deliveries.every((d) => d.status !== 'pending') ? page.deliveries : undefined;
  });

describe('the delivery log', () => {
  test('pages cover every delivery once, newest first; status and event filters narrow it', async () => {
    const { key, id } = await h.newKey();
    await saveSettings(h, { url: r.url, events: ['post.deleted', 'account.connected'] }, key);
    for (let i = 0; i < 3; i++) {
      await record(id, [
        ...Array.from({ length: 5 }, (_, j) => postDeleted(`post_${i}_${j}`)),
        accountConnected({ platform: 'twitter', accountId: `${i}`, username: `u${i}` }),
        postScheduled('not subscribed', Date.now() + 60_000),
      ]);
    }
    const all = await settled(key, 18);
    assert.ok(all.every((d) => d.status === 'delivered'));

    const seen: any[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await list(key, `?limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      assert.equal(page.hasMore, page.cursor !== null);
      seen.push(...page.deliveries);
      cursor = page.cursor;
      pages++;
    } while (cursor);
    assert.equal(pages, 3);
    assert.equal(new Set(seen.map((d) => d.id)).size, 18, 'no delivery twice');
    const order = [...seen].sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1));
    assert.deepEqual(seen.map((d) => d.id), order.map((d) => d.id), 'newest first, ties by id');
    assert.deepEqual(Object.keys(seen[0]).sort(), [
      'attempts', 'createdAt', 'deliveredAt', 'event', 'eventId', 'id', 'lastDurationMs', 'lastError', 'lastStatusCode', 'nextAttemptAt', 'status', 'url',
    ]);

    assert.equal((await list(key, '?event=account.connected')).deliveries.length, 3);
    assert.equal((await list(key, '?event=post.scheduled')).deliveries.length, 0, 'unsubscribed events are not recorded');
    assert.equal((await list(key, '?status=delivered&limit=100')).deliveries.length, 18);
    assert.equal((await list(key, '?status=failed')).deliveries.length, 0);
    assert.equal((await list(key)).deliveries.length, 18, 'default limit 20');
  });

  test('bad queries are 400 naming the parameter', async () => {
    for (const [q, param] of [['?limit=0', 'limit'], ['?limit=101', 'limit'], ['?status=lost', 'status'], ['?event=post.exploded', 'event'], ['?cursor=nope', 'cursor'], ['?since=1', 'since']]) {
      const res = await h.request('GET', `/v1/webhooks/deliveries${q}`);
      assert.equal(res.status, 400, q);
      assert.equal(res.body.code, 'VALIDATION_ERROR');
      assert.equal(res.body.param, param, q);
    }
  });

  test('deliveries past the 30-day retention are neither listed nor kept after the purge', async () => {
    const { key, id } = await h.newKey();
    await saveSettings(h, { url: r.url, events: ['post.deleted'] }, key);
    await record(id, [postDeleted('old'), postDeleted('new')]);
    const [newer, older] = await settled(key, 2);
    const longAgo = Date.now() - 31 * 24 * 60 * 60_000;
    await h.runtime.db.writable.updateTable('webhook_events').set({ created_at: longAgo }).where('id', '=', older.eventId).execute();
    await h.runtime.db.writable.updateTable('webhook_deliveries').set({ created_at: longAgo }).where('id', '=', older.id).execute();
    assert.deepEqual((await list(key)).deliveries.map((d) => d.id), [newer.id]);
    assert.equal((await h.request('GET', `/v1/webhooks/deliveries/${older.id}`, { key })).status, 404);
    assert.ok((await h.runtime.webhooks.purge()) >= 1);
    const left = await h.runtime.db.writable.selectFrom('webhook_deliveries').select('id').where('api_key_id', '=', id).execute();
    assert.deepEqual(left.map((d) => d.id), [newer.id]);
    assert.equal((await h.runtime.db.writable.selectFrom('webhook_attempts').select('id').where('delivery_id', '=', older.id).execute()).length, 0);
  });
});

describe('redeliver', () => {
  test('sends one more attempt now with the same event id and bytes', async () => {
    const { key, id } = await h.newKey();
    const secret = (await saveSettings(h, { url: r.url, events: ['post.deleted'] }, key)).secret;
    r.fallback = { status: 500 };
    const before = r.received.length;
    await record(id, [postDeleted('p1')]);
    const [failed] = await settled(key, 1);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.attempts, 3);
    r.fallback = { status: 200 };

    const res = await h.request('POST', `/v1/webhooks/deliveries/${failed.id}/redeliver`, { key });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.id, failed.id);
    assert.equal(res.body.status, 'delivered');
    assert.equal(res.body.attempts, 4);
    assert.equal(res.body.lastStatusCode, 200);
    const sent = r.received.slice(before);
    assert.equal(sent.length, 4);
    assert.ok(sent.every((s) => s.headers['x-herald-event-id'] === failed.eventId && s.raw.equals(sent[0]!.raw)));
    assertSigned(sent[3]!, secret);
    const detail = await h.request('GET', `/v1/webhooks/deliveries/${failed.id}`, { key });
    assert.deepEqual(detail.body.history.map((a: any) => [a.statusCode, a.redelivery]), [[500, false], [500, false], [500, false], [200, true]]);
  });

  test('a failed redelivery of a delivered event leaves it delivered, with the failure in its history', async () => {
    const { key, id } = await h.newKey();
    await saveSettings(h, { url: r.url, events: ['post.deleted'] }, key);
    r.fallback = { status: 200 };
    await record(id, [postDeleted('p2')]);
    const [delivered] = await settled(key, 1);
    assert.equal(delivered.status, 'delivered');
    r.fallback = { status: 503 };
    const res = await h.request('POST', `/v1/webhooks/deliveries/${delivered.id}/redeliver`, { key });
    r.fallback = { status: 200 };
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.status, 'delivered');
    assert.equal(res.body.lastStatusCode, 503);
    assert.equal(res.body.deliveredAt, delivered.deliveredAt);
    const detail = await h.request('GET', `/v1/webhooks/deliveries/${delivered.id}`, { key });
    assert.deepEqual(detail.body.history.map((a: any) => [a.statusCode, a.redelivery]), [[200, false], [503, true]]);
  });

  test("another key's delivery, or an unknown one, is 404; without settings 400; while disabled 409", async () => {
    const { key, id } = await h.newKey();
    await saveSettings(h, { url: r.url, events: ['post.deleted'] }, key);
    await record(id, [postDeleted('p2')]);
    const [d] = await settled(key, 1);
    const other = await h.newKey();
    await saveSettings(h, { url: r.url, events: ['post.deleted'] }, other.key);
    for (const [k, path] of [[other.key, d.id], [key, 'whd_unknown']]) {
      const res = await h.request('POST', `/v1/webhooks/deliveries/${path}/redeliver`, { key: k });
      assert.equal(res.status, 404, res.text);
      assert.equal(res.body.code, 'NOT_FOUND');
    }
    assert.equal((await h.request('GET', `/v1/webhooks/deliveries/${d.id}`, { key: other.key })).status, 404);
    assert.deepEqual((await list(other.key)).deliveries, []);

    await h.runtime.db.writable.updateTable('webhook_settings').set({ disabled_at: Date.now(), disabled_reason: 'test' }).where('api_key_id', '=', id).execute();
    const disabled = await h.request('POST', `/v1/webhooks/deliveries/${d.id}/redeliver`, { key });
    assert.equal(disabled.status, 409);
    assert.equal(disabled.body.code, 'WEBHOOKS_DISABLED');
    await h.request('DELETE', '/v1/webhooks/settings', { key });
    const none = await h.request('POST', `/v1/webhooks/deliveries/${d.id}/redeliver`, { key });
    assert.equal(none.status, 400);
    assert.equal(none.body.code, 'VALIDATION_ERROR');
  });
});

describe('POST /v1/webhooks/test', () => {
  test('without settings: 400', async () => {
    const { key } = await h.newKey();
    const res = await h.request('POST', '/v1/webhooks/test', { key, body: { event: 'webhook.test' } });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'VALIDATION_ERROR');
  });

  test('sends a signed, realistic sample and reports the outcome; nothing is logged as a delivery', async () => {
    const { key } = await h.newKey();
    const secret = (await saveSettings(h, { url: r.url, events: ['post.failed'] }, key)).secret;
    const before = r.received.length;
    const res = await h.request('POST', '/v1/webhooks/test', { key, body: { event: 'post.published' } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.delivered, true);
    assert.equal(res.body.statusCode, 200);
    assert.ok(Number.isInteger(res.body.durationMs) && res.body.durationMs >= 0);
    assert.equal(res.body.error, undefined);
    const got = r.received[before]!;
    assert.equal(got.headers['x-herald-event'], 'post.published');
    assertSigned(got, secret);
    assert.equal(got.json.event, 'post.published');
    assert.deepEqual(Object.keys(got.json.data).sort(), ['accountId', 'platform', 'platformPostId', 'platformPostUrl', 'postId', 'status']);
    assert.deepEqual((await list(key)).deliveries, []);
  });

  test('a failing receiver: delivered false with its status code and an error', async () => {
    const { key } = await h.newKey();
    await saveSettings(h, { url: r.url, events: ['post.failed'] }, key);
    r.script({ status: 503 });
    const res = await h.request('POST', '/v1/webhooks/test', { key, body: { event: 'account.disconnected' } });
    assert.equal(res.status, 200);
    assert.equal(res.body.delivered, false);
    assert.equal(res.body.statusCode, 503);
    assert.match(res.body.error, /503/);

    r.script({ status: 200, delayMs: 60_000 }); // far past the time-out
    const slow = await h.request('POST', '/v1/webhooks/test', { key, body: { event: 'webhook.test' } });
    assert.equal(slow.body.delivered, false);
    assert.equal(slow.body.statusCode, null);
    assert.match(slow.body.error, /no answer within 2000 ms/);

    const bad = await h.request('POST', '/v1/webhooks/test', { key, body: { event: 'post.exploded' } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.param, 'event');
  });

  test('a 410 to a test send is reported and changes nothing: the settings stay live and real events still go', async () => {
    const { key, id } = await h.newKey();
    await saveSettings(h, { url: r.url, events: ['post.deleted'] }, key);
    r.script({ status: 410 });
    const res = await h.request('POST', '/v1/webhooks/test', { key, body: { event: 'webhook.test' } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.delivered, false);
    assert.equal(res.body.statusCode, 410);
    const settings = await h.request('GET', '/v1/webhooks/settings', { key });
    assert.equal(settings.body.disabledAt, null, 'only a real delivery answered 410 disables the settings');
    assert.equal(settings.body.disabledReason, null);

    const heard = r.received.length;
    await record(id, [{ event: 'post.deleted', data: { postId: 'post_after_a_test_410' } }]);
    const got = await r.waitFor(heard + 1);
    assert.equal(got[heard]!.json.data.postId, 'post_after_a_test_410', 'a real event is still delivered');
  });
});
