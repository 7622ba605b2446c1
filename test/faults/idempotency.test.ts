// Fault matrix: Idempotency-Key on POST /v1/posts. Each row is a fault and the outcome Herald must show:
//   1. sequential replay → the first answer again (Idempotent-Replayed: true), nothing created
//   2. 10 concurrent identical requests → one post; every other answer is that post or 409 in use
//   3. same key, different body → 422 idempotency_key_reused, nothing created
//   4. expiry (injected clock) → replayed at 23 h; after 24 h the key is free and a new post is made
//   5. crash between claim and insert → the dead claim is 409 while its lease lasts, then the next request proceeds once
//   6. crash after insert (post made, answer never stored) → the next request gets that post, not a second one
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createIdempotencyStore } from '../../src/idempotency/idempotency-store.ts';
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

/** Posts of an API key (each test uses its own key, so this counts what the test created). */
async function count(apiKey: string) {
  return (await h.request('GET', '/v1/posts?limit=100', { key: apiKey })).body.posts.length as number;
}

/** The hash Herald stores for a POST /v1/posts with this body (as src/http/idempotency-hook.ts makes it). */
function requestHash(body: unknown): string {
  return sha256Hex(`POST /v1/posts\n${canonicalJson(body)}`);
}

test('sequential replay: the same request again returns the first answer with Idempotent-Replayed, and creates nothing', async () => {
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
  assert.deepEqual(third.body, first.body);
  assert.equal(await count(apiKey), 1);
});

test('10 concurrent identical requests: one post; every other answer is that post or 409 idempotency_key_in_use', async () => {
  const { key: apiKey } = await h.newKey('concurrent');
  const k = randomUUID();
  const results = await Promise.all(Array.from({ length: 10 }, () => create(k, { content: 'race', isDraft: true }, apiKey)));
  const created = results.filter((r) => r.status === 201);
  const inFlight = results.filter((r) => r.status === 409);
  assert.equal(created.length + inFlight.length, 10, results.map((r) => r.status).join(','));
  assert.ok(created.length >= 1);
  assert.equal(new Set(created.map((r) => r.body.id)).size, 1, 'every 201 names the same post');
  assert.equal(created.filter((r) => r.headers.get('idempotent-replayed') === null).length, 1, 'one request created it; any other 201 is a replay');
  for (const r of inFlight) assert.deepEqual(r.body, { error: r.body.error, type: 'idempotency_error', code: 'idempotency_key_in_use', param: 'Idempotency-Key' });
  assert.equal(await count(apiKey), 1);
});

test('same key, different body: 422 idempotency_key_reused, and nothing is created', async () => {
  const { key: apiKey } = await h.newKey('reused');
  const k = randomUUID();
  assert.equal((await create(k, { content: 'a', isDraft: true }, apiKey)).status, 201);
  const other = await create(k, { content: 'b', isDraft: true }, apiKey);
  assert.equal(other.status, 422);
  assert.deepEqual(other.body, { error: other.body.error, type: 'idempotency_error', code: 'idempotency_key_reused', param: 'Idempotency-Key' });
  assert.equal(await count(apiKey), 1);
});

test('expiry (injected clock): a key is replayed at 23 h; after 24 h it is free and the same request creates a new post', async () => {
  const { key: apiKey } = await h.newKey('expiry');
  const k = randomUUID();
  const first = await create(k, { content: 'day one', isDraft: true }, apiKey);
  clock.advance(23 * 3_600_000);
  const replay = await create(k, { content: 'day one', isDraft: true }, apiKey);
  assert.equal(replay.headers.get('idempotent-replayed'), 'true');
  assert.equal(replay.body.id, first.body.id);
  clock.advance(2 * 3_600_000);
  const later = await create(k, { content: 'day one', isDraft: true }, apiKey);
  assert.equal(later.status, 201);
  assert.equal(later.headers.get('idempotent-replayed'), null);
  assert.notEqual(later.body.id, first.body.id);
  assert.equal(await count(apiKey), 2);
});

test('crash between claim and insert: the dead claim is 409 while its lease lasts (seconds); after it the next request proceeds and creates one post', async () => {
  const { key: apiKey, id: apiKeyId } = await h.newKey('crash-early');
  const k = randomUUID();
  const body = { content: 'after the crash', isDraft: true };
  // The exact claim the lost request left behind, with the lease Herald gives (HERALD_PUBLISH_LEASE_MS):
  // same request hash, in flight, nothing created; its process is gone, so nothing renews it.
  const leaseMs = h.runtime.config.publishLeaseMs;
  const store = createIdempotencyStore({ write: h.runtime.db.write, clock, leaseMs, maxHoldMs: 60_000 });
  const lost = await store.claim(apiKeyId, k, requestHash(body));
  assert.equal(lost.kind, 'claimed');
  if (lost.kind === 'claimed') store.forget({ apiKeyId, key: k, claimId: lost.claimId });
  const blocked = await create(k, body, apiKey);
  assert.equal(blocked.status, 409, 'lease still held');
  assert.equal(blocked.body.code, 'idempotency_key_in_use');
  clock.advance(leaseMs + 1_000);
  const taken = await create(k, body, apiKey);
  assert.equal(taken.status, 201);
  assert.equal(taken.headers.get('idempotent-replayed'), null);
  const again = await create(k, body, apiKey);
  assert.equal(again.headers.get('idempotent-replayed'), 'true');
  assert.equal(again.body.id, taken.body.id);
  assert.equal(await count(apiKey), 1);
});

test('crash after insert: a claimer that died after creating its post is answered with that post, not a second one', async () => {
  const { key: apiKey, id: apiKeyId } = await h.newKey('crash-late');
  const k = randomUUID();
  const first = await create(k, { content: 'survivor', isDraft: true }, apiKey);
  // As if the process died between the commit and storing the response: the claim is still in
  // flight, its lease over, and it names the post it created.
  await h.runtime.db.writable
    .updateTable('idempotency_keys')
    .set({ state: 'in_flight', response_status: null, response_body: null, locked_until: clock.now() - 1 })
    .where('api_key_id', '=', apiKeyId)
    .execute();
  const again = await create(k, { content: 'survivor', isDraft: true }, apiKey);
  assert.equal(again.status, 201);
  assert.equal(again.body.id, first.body.id);
  assert.equal(await count(apiKey), 1);
  const third = await create(k, { content: 'survivor', isDraft: true }, apiKey);
  assert.equal(third.headers.get('idempotent-replayed'), 'true', 'the recovered answer is stored and replayed from then on');
  assert.equal(third.body.id, first.body.id);
});
