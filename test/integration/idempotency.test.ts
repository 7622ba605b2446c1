// Idempotency-Key on POST /v1/posts (API.md section 5): replay, a different request, concurrency,
// scope per API key, expiry, a claimer that died, and the claim-id fence that stops a slow claimer's writes.
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createIdempotencyStore } from '../../src/http/idempotency.ts';
import { sha256Hex } from '../../src/lib/crypto.ts';
import { canonicalJson } from '../../src/lib/json.ts';
import { testClock } from '../helpers/clock.ts';
import { startHerald, type TestHerald } from '../helpers/herald.ts';

const clock = testClock();
let h: TestHerald;

before(async () => {
  h = await startHerald({ clock });
});
after(() => h.close());

const create = (key: string, body: unknown, apiKey?: string) =>
  h.request('POST', '/v1/posts', { body, key: apiKey, headers: { 'idempotency-key': key } });

async function count(apiKey?: string) {
  return (await h.request('GET', '/v1/posts?limit=100', { key: apiKey })).body.posts.length as number;
}

describe('Idempotency-Key', () => {
  test('a repeat returns the first answer and creates nothing', async () => {
    const { key: apiKey } = await h.newKey('replay');
    const k = randomUUID();
    const first = await create(k, { content: 'once', isDraft: true }, apiKey);
    assert.equal(first.status, 201);
    assert.equal(first.headers.get('idempotent-replayed'), null);
    const second = await create(k, { content: 'once', isDraft: true }, apiKey);
    assert.equal(second.status, 201);
    assert.equal(second.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(second.body, first.body);
    // Same JSON with keys in another order is the same request.
    const third = await h.request('POST', '/v1/posts', { raw: '{"isDraft":true,"content":"once"}', key: apiKey, headers: { 'idempotency-key': k, 'content-type': 'application/json' } });
    assert.equal(third.headers.get('idempotent-replayed'), 'true');
    assert.equal(await count(apiKey), 1);
  });

  test('errors are replayed too (only 5xx, 401 and 429 are not stored)', async () => {
    const k = randomUUID();
    const first = await create(k, { isDraft: true });
    assert.equal(first.status, 400);
    const again = await create(k, { isDraft: true });
    assert.equal(again.status, 400);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(again.body, first.body);
  });

  test('the same key with another request is a 422', async () => {
    const k = randomUUID();
    assert.equal((await create(k, { content: 'a', isDraft: true })).status, 201);
    const other = await create(k, { content: 'b', isDraft: true });
    assert.equal(other.status, 422);
    assert.deepEqual(other.body, { error: other.body.error, type: 'idempotency_error', code: 'idempotency_key_reused', param: 'Idempotency-Key' });
  });

  test('a key that is not a UUID is a 400', async () => {
    const res = await create('order-42', { content: 'x', isDraft: true });
    assert.equal(res.status, 400);
    assert.equal(res.body.param, 'Idempotency-Key');
    assert.equal(res.body.code, 'invalid_field_value');
  });

  test('10 concurrent identical requests create one post', async () => {
    const { key: apiKey } = await h.newKey('concurrent');
    const k = randomUUID();
    const results = await Promise.all(Array.from({ length: 10 }, () => create(k, { content: 'race', isDraft: true }, apiKey)));
    const created = results.filter((r) => r.status === 201);
    const inFlight = results.filter((r) => r.status === 409);
    assert.equal(created.length + inFlight.length, 10, results.map((r) => r.status).join(','));
    assert.ok(created.length >= 1);
    assert.equal(new Set(created.map((r) => r.body.id)).size, 1, 'every 201 names the same post');
    for (const r of inFlight) assert.deepEqual(r.body, { error: r.body.error, type: 'idempotency_error', code: 'idempotency_key_in_use', param: 'Idempotency-Key' });
    assert.equal(await count(apiKey), 1);
  });

  test('keys are scoped to the API key', async () => {
    const a = await h.newKey('a');
    const b = await h.newKey('b');
    const k = randomUUID();
    const ra = await create(k, { content: 'shared key', isDraft: true }, a.key);
    const rb = await create(k, { content: 'shared key', isDraft: true }, b.key);
    assert.equal(rb.headers.get('idempotent-replayed'), null);
    assert.notEqual(ra.body.id, rb.body.id);
  });

  test('keys expire after 24 hours', async () => {
    const { key: apiKey } = await h.newKey('expiry');
    const k = randomUUID();
    const first = await create(k, { content: 'day one', isDraft: true }, apiKey);
    clock.advance(23 * 3_600_000);
    assert.equal((await create(k, { content: 'day one', isDraft: true }, apiKey)).headers.get('idempotent-replayed'), 'true');
    clock.advance(2 * 3_600_000);
    const later = await create(k, { content: 'day one', isDraft: true }, apiKey);
    assert.equal(later.status, 201);
    assert.equal(later.headers.get('idempotent-replayed'), null);
    assert.notEqual(later.body.id, first.body.id);
    assert.equal(await count(apiKey), 2);
  });

  test('a claimer that died after creating its post is answered with that post, not a second one', async () => {
    const { key: apiKey, id: apiKeyId } = await h.newKey('crash');
    const k = randomUUID();
    const first = await create(k, { content: 'survivor', isDraft: true }, apiKey);
    // As if the process died between the commit and storing the response: the claim is still in
    // flight, its lease over, and it names the post it created.
    await h.runtime.db.kysely
      .updateTable('idempotency_keys')
      .set({ state: 'in_flight', response_status: null, response_body: null, locked_until: clock.now() - 1 })
      .where('api_key_id', '=', apiKeyId)
      .execute();
    const again = await create(k, { content: 'survivor', isDraft: true }, apiKey);
    assert.equal(again.status, 201);
    assert.equal(again.body.id, first.body.id);
    assert.equal(await count(apiKey), 1);
  });

  test('a claimer that died before creating anything lets the next request proceed once its lease is over', async () => {
    const { key: apiKey, id: apiKeyId } = await h.newKey('crash-early');
    const k = randomUUID();
    const body = { content: 'after the crash', isDraft: true };
    // The exact claim the lost request left behind: same request hash, in flight, nothing created.
    const store = createIdempotencyStore({ write: h.runtime.db.write, clock, leaseMs: 60_000 });
    const lost = await store.claim(apiKeyId, k, requestHash(body));
    assert.equal(lost.kind, 'claimed');
    assert.equal((await create(k, body, apiKey)).status, 409, 'lease still held');
    clock.advance(61_000);
    const taken = await create(k, body, apiKey);
    assert.equal(taken.status, 201);
    assert.equal(taken.headers.get('idempotent-replayed'), null);
    assert.equal((await create(k, body, apiKey)).headers.get('idempotent-replayed'), 'true');
    assert.equal(await count(apiKey), 1);
  });
});

describe('Idempotency store fencing', () => {
  const setup = async (name: string) => {
    const { id: apiKeyId } = await h.newKey(name);
    const store = createIdempotencyStore({ write: h.runtime.db.write, clock, leaseMs: 1_000 });
    return { apiKeyId, store, key: randomUUID() };
  };
  const row = (apiKeyId: string, key: string) =>
    h.runtime.db.kysely.selectFrom('idempotency_keys').selectAll().where('api_key_id', '=', apiKeyId).where('key', '=', key).executeTakeFirst();

  test('a slow claimer whose key was taken over can neither bind a resource nor store or drop the answer', async () => {
    const { apiKeyId, store, key } = await setup('fence-slow');
    const slow = await store.claim(apiKeyId, key, 'h');
    assert.equal(slow.kind, 'claimed');
    clock.advance(1_001);
    const next = await store.claim(apiKeyId, key, 'h');
    assert.equal(next.kind, 'claimed');
    const slowRef = { apiKeyId, key, claimId: (slow as { claimId: string }).claimId };
    const nextRef = { apiKeyId, key, claimId: (next as { claimId: string }).claimId };
    assert.notEqual(slowRef.claimId, nextRef.claimId);

    await assert.rejects(
      h.runtime.db.write((trx) => store.attachResource(trx, slowRef, 'post_from_the_slow_one')),
      (e: { status?: number; code?: string }) => e.status === 409 && e.code === 'IDEMPOTENCY_KEY_IN_USE',
    );
    await store.complete(slowRef, 201, '{"stale":true}');
    await store.release(slowRef);
    const held = await row(apiKeyId, key);
    assert.equal(held?.claim_id, nextRef.claimId);
    assert.equal(held?.state, 'in_flight');
    assert.equal(held?.resource_id, null);

    await h.runtime.db.write((trx) => store.attachResource(trx, nextRef, 'post_of_the_holder'));
    await store.complete(nextRef, 201, '{"id":"post_of_the_holder"}');
    const replay = await store.claim(apiKeyId, key, 'h');
    assert.deepEqual(replay, { kind: 'replay', status: 201, body: '{"id":"post_of_the_holder"}' });
  });

  test('releasing a key that already created something keeps it, unlocked, so the next request recovers that resource', async () => {
    const { apiKeyId, store, key } = await setup('fence-release');
    const first = await store.claim(apiKeyId, key, 'h');
    assert.equal(first.kind, 'claimed');
    const ref = { apiKeyId, key, claimId: (first as { claimId: string }).claimId };
    await h.runtime.db.write((trx) => store.attachResource(trx, ref, 'post_already_made'));
    await store.release(ref); // e.g. the answer was a 5xx after the post was committed
    const again = await store.claim(apiKeyId, key, 'h');
    assert.equal(again.kind, 'recovered');
    assert.equal((again as { resourceId: string }).resourceId, 'post_already_made');
  });

  test('releasing a key that created nothing frees it for a fresh claim', async () => {
    const { apiKeyId, store, key } = await setup('fence-free');
    const first = await store.claim(apiKeyId, key, 'h');
    await store.release({ apiKeyId, key, claimId: (first as { claimId: string }).claimId });
    assert.equal(await row(apiKeyId, key), undefined);
    assert.equal((await store.claim(apiKeyId, key, 'other request')).kind, 'claimed');
  });
});

function requestHash(body: unknown): string {
  return sha256Hex(`POST /v1/posts\n${canonicalJson(body)}`);
}
