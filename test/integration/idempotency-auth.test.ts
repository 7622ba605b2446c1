// The order of checks with an Idempotency-Key (API.md section 4: authentication, rate limit, idempotency,
// validation). On PostgreSQL the key, its rate limit and the claim are one statement (http/auth.ts,
// IdempotencyStore.claimInside): these pin that a key that fails either check claims nothing, and that a
// bad key is answered 401 before a body or header that would be a 400.
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connectAccount } from '../helpers/connect.ts';
import { startHerald, usingPostgres, type TestHerald } from '../helpers/herald.ts';

let h: TestHerald;

before(async () => {
  h = await startHerald({ env: { HERALD_RATE_LIMIT_PER_MINUTE: '3', HERALD_AUTH_FAILURES_PER_MINUTE: '1000' } });
});
after(() => h.close());

const claimsOf = (key: string) => h.runtime.db.writable.selectFrom('idempotency_keys').select(['api_key_id', 'state']).where('key', '=', key).execute();
const draft = { content: 'checked first', isDraft: true };
const createWith = (apiKey: string, idempotencyKey: string, body: unknown = draft) =>
  h.request('POST', '/v1/posts', { key: apiKey, body, headers: { 'idempotency-key': idempotencyKey } });

describe('the key is checked before the idempotency claim', () => {
  test('an unknown key, or one revoked after it was used, is a 401 and claims nothing', async () => {
    const unknown = randomUUID();
    const res = await createWith(`hk_${'u'.repeat(43)}`, unknown);
    assert.equal(res.status, 401, res.text);
    assert.deepEqual(await claimsOf(unknown), []);

    const { key, id } = await h.newKey('revoked');
    assert.equal((await createWith(key, randomUUID())).status, 201, 'the key worked (and this process has seen it)');
    assert.equal(await h.runtime.keys.revoke(id), true);
    const afterRevoke = randomUUID();
    const refused = await createWith(key, afterRevoke);
    assert.equal(refused.status, 401, refused.text);
    assert.deepEqual(await claimsOf(afterRevoke), []);
  });

  test('a request over its key\'s rate limit is a 429 and claims nothing; the key is free for a later try', async () => {
    const { key, id } = await h.newKey('limited');
    for (let i = 0; i < 3; i++) assert.equal((await h.request('GET', '/v1/posts', { key })).status, 200);
    const k = randomUUID();
    const over = await createWith(key, k);
    assert.equal(over.status, 429, over.text);
    assert.equal(over.body.code, 'RATE_LIMIT_EXCEEDED');
    assert.equal(over.headers.get('x-ratelimit-remaining'), '0');
    assert.deepEqual(await claimsOf(k), []);
    // Another key with the same Idempotency-Key is not blocked by anything the limited request left.
    const other = await h.newKey('other');
    const created = await createWith(other.key, k);
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(await claimsOf(k), [{ api_key_id: other.id, state: 'done' }]);
    assert.notEqual(other.id, id);
  });

  test('a bad key is a 401 before a body that is not JSON or an Idempotency-Key that is not a UUID; a good key gets those 400s, counted', async () => {
    const bad = `hk_${'b'.repeat(43)}`;
    const { key } = await h.newKey('malformed');
    const notJson = (apiKey: string) =>
      h.request('POST', '/v1/posts', { key: apiKey, raw: '{"content": "x", ', headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() } });
    assert.equal((await notJson(bad)).status, 401);
    const malformed = await notJson(key);
    assert.equal(malformed.status, 400, malformed.text);
    assert.equal(malformed.headers.get('x-ratelimit-remaining'), '2', 'the request was counted against the key');

    assert.equal((await createWith(bad, 'order-42')).status, 401);
    const notUuid = await createWith(key, 'order-42');
    assert.equal(notUuid.status, 400, notUuid.text);
    assert.equal(notUuid.body.param, 'Idempotency-Key');
    assert.equal(notUuid.headers.get('x-ratelimit-remaining'), '1');
  });

  test('with a key seen for the first time: claimed, replayed, a different body 422, all behind the key\'s limit', async () => {
    const { key } = await h.newKey('fresh');
    const k = randomUUID();
    const first = await createWith(key, k);
    assert.equal(first.status, 201, first.text);
    assert.equal(first.headers.get('x-ratelimit-remaining'), '2');
    const replay = await createWith(key, k);
    assert.equal(replay.status, 201);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.equal(replay.text, first.text);
    assert.equal(replay.headers.get('x-ratelimit-remaining'), '1');
    const reused = await createWith(key, k, { content: 'another body', isDraft: true });
    assert.equal(reused.status, 422, reused.text);
    assert.equal(reused.body.code, 'idempotency_key_reused');
    assert.equal((await createWith(key, k)).status, 429, 'a replay is counted too');
  });
});

describe('a burst of revoked keys on PostgreSQL', () => {
  test('answers every request 401 with fewer connections than requests (the claim\'s connection is given back before the bad-key limit takes one)', { skip: !usingPostgres && 'PostgreSQL only (DATABASE_URL)', timeout: 120_000 }, async () => {
    // The timeout guards against a hang (every connection held while waiting for another); nothing here waits on time.
    const small = await startHerald({ env: { HERALD_DB_POOL_SIZE: '2', HERALD_AUTH_FAILURES_PER_MINUTE: '1000' } });
    try {
      const { accountId } = await connectAccount(small, 'twitter');
      const { key, keyId: id } = small; // the key the account was connected with
      const body = { content: 'burst', isDraft: true, platforms: [{ platform: 'twitter', accountId }] };
      const send = () => small.request('POST', '/v1/posts', { key, body, headers: { 'idempotency-key': randomUUID() } });
      assert.equal((await send()).status, 201, 'the key worked (and this process has seen it: the accounts are read with the claim)');
      await small.runtime.keys.revoke(id);
      const statuses = await Promise.all(Array.from({ length: 12 }, send));
      assert.deepEqual(statuses.map((r) => r.status), Array(12).fill(401));
    } finally {
      await small.close();
    }
  });
});
