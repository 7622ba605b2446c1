// Idempotency-Key on POST /v1/posts (API.md section 5): errors replayed, the key's format, scope per API
// key, and the claim-id fence that stops a slow claimer's writes. Replay, a different request, concurrency,
// expiry and a claimer that died are rows of the fault matrix: test/faults/idempotency.test.ts.
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createIdempotencyStore } from '../../src/idempotency/idempotency-store.ts';
import { compose } from '../../src/posts/compose.ts';
import { createInOneStatement } from '../../src/posts/create-statement.ts';
import { resolveMode } from '../../src/posts/rules.ts';
import { testClock } from '../helpers/clock.ts';
import { connectAccount } from '../helpers/connect.ts';
import { startHerald, usingPostgres, type TestHerald } from '../helpers/herald.ts';
import { uploadOk } from '../helpers/media.ts';

const clock = testClock();
let h: TestHerald;

before(async () => {
  h = await startHerald({ clock });
});
after(() => h.close());

const create = (key: string, body: unknown, apiKey?: string) =>
  h.request('POST', '/v1/posts', { body, key: apiKey, headers: { 'idempotency-key': key } });

describe('Idempotency-Key', () => {
  test('errors are replayed too (only 5xx, 401 and 429 are not stored)', async () => {
    const k = randomUUID();
    const first = await create(k, { isDraft: true });
    assert.equal(first.status, 400);
    const again = await create(k, { isDraft: true });
    assert.equal(again.status, 400);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(again.body, first.body);
  });

  test('a replay is the first answer byte for byte, targets included', async () => {
    const { accountId } = await connectAccount(h, 'twitter');
    const body = JSON.stringify({
      content: 'same bytes',
      scheduledFor: new Date(clock.now() + 86_400_000).toISOString(),
      tags: ['a'],
      platforms: [{ platform: 'twitter', accountId, customContent: 'for X', platformSpecificData: { replySettings: 'following' } }],
    });
    const headers = { authorization: `Bearer ${h.key}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() };
    const first = await fetch(`${h.url}/v1/posts`, { method: 'POST', headers, body });
    const replay = await fetch(`${h.url}/v1/posts`, { method: 'POST', headers, body });
    assert.equal(first.status, 201);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.equal(await replay.text(), await first.text());
  });

  test('a key that is not a UUID is a 400', async () => {
    const res = await create('order-42', { content: 'x', isDraft: true });
    assert.equal(res.status, 400);
    assert.equal(res.body.param, 'Idempotency-Key');
    assert.equal(res.body.code, 'invalid_field_value');
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
});

describe('Idempotency store fencing', () => {
  const setup = async (name: string) => {
    const { id: apiKeyId } = await h.newKey(name);
    const store = createIdempotencyStore({ write: h.runtime.db.write, clock, leaseMs: 1_000, maxHoldMs: 60_000 });
    return { apiKeyId, store, key: randomUUID() };
  };
  const row = (apiKeyId: string, key: string) =>
    h.runtime.db.writable.selectFrom('idempotency_keys').selectAll().where('api_key_id', '=', apiKeyId).where('key', '=', key).executeTakeFirst();

  test('a slow claimer whose key was taken over can neither bind a resource nor store or drop the answer', async () => {
    const { apiKeyId, store, key } = await setup('fence-slow');
    const slow = await store.claim(apiKeyId, key, 'h');
    assert.equal(slow.kind, 'claimed');
    // Its process stalls: nothing renews the claim while the clock passes its lease.
    store.forget({ apiKeyId, key, claimId: (slow as { claimId: string }).claimId });
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

  // PostgreSQL writes a draft, scheduled or publish-now create in one statement (posts/create-statement.ts)
  // instead of a transaction: the same fence, and nothing written when the key's webhooks want its events,
  // nor when a library file it names is gone.
  test('the one-statement create (with media uses) writes nothing for a slow claimer, nor when the key\'s webhooks want its events, nor when a file is gone', { skip: !usingPostgres && 'PostgreSQL only' }, async () => {
    const { apiKeyId, store, key } = await setup('fence-one-statement');
    const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 1, g: 2, b: 3 } } }).jpeg().toBuffer();
    let mediaIds = [(await uploadOk(h, jpeg, 'image/jpeg')).id as string, (await uploadOk(h, jpeg, 'image/jpeg')).id as string];
    const { db, queue } = h.runtime;
    const inOneStatement = createInOneStatement({ writeOne: db.writeOne, queue })!;
    const now = clock.now();
    const body = { content: 'one statement', scheduledFor: new Date(now + 86_400_000).toISOString(), platforms: [{ platform: 'twitter' as const, accountId: 'acc_1' }] };
    const write = (claimId: string) => {
      const c = compose({ apiKeyId, body, plan: resolveMode(body, now), now, fallbackDelayMs: 0 });
      const w = { apiKeyId, post: c.post, targets: c.targets, jobs: c.jobs, events: c.events.map((e) => e.event), mediaIds, claim: { apiKeyId, key, claimId }, answerJson: '{"answer":true}' };
      return { postId: c.post.id as string, run: () => inOneStatement(w) };
    };
    const written = async (postId: string) => ({
      posts: (await db.writable.selectFrom('posts').select('id').where('id', '=', postId).execute()).length,
      targets: (await db.writable.selectFrom('post_targets').select('id').where('post_id', '=', postId).execute()).length,
      jobs: (await db.writable.selectFrom('jobs').select('id').where('payload', 'like', `%${postId}%`).execute()).length,
      uses: (await db.writable.selectFrom('media_uses').select('media_id').where('post_id', '=', postId).execute()).length,
    });

    const slow = (await store.claim(apiKeyId, key, 'h')) as { claimId: string };
    store.forget({ apiKeyId, key, claimId: slow.claimId });
    clock.advance(1_001);
    const holder = (await store.claim(apiKeyId, key, 'h')) as { claimId: string };
    const lost = write(slow.claimId);
    assert.equal(await lost.run(), 'claim_lost');
    assert.deepEqual(await written(lost.postId), { posts: 0, targets: 0, jobs: 0, uses: 0 });
    assert.equal((await row(apiKeyId, key))?.state, 'in_flight');

    const named = mediaIds;
    mediaIds = [named[0]!, 'med_gone'];
    const gone = write(holder.claimId);
    assert.equal(await gone.run(), 'media_gone');
    assert.deepEqual(await written(gone.postId), { posts: 0, targets: 0, jobs: 0, uses: 0 });
    assert.equal((await row(apiKeyId, key))?.state, 'in_flight');
    mediaIds = named;

    await db.writable
      .insertInto('webhook_settings')
      .values({ api_key_id: apiKeyId, url: 'https://example.com/hook', events: JSON.stringify(['post.deleted', 'post.scheduled']), secret: 'x', disabled_at: null, disabled_reason: null, created_at: now, updated_at: now })
      .execute();
    const wanted = write(holder.claimId);
    assert.equal(await wanted.run(), 'webhooks');
    assert.deepEqual(await written(wanted.postId), { posts: 0, targets: 0, jobs: 0, uses: 0 });
    assert.equal((await row(apiKeyId, key))?.state, 'in_flight');

    await db.writable.updateTable('webhook_settings').set({ events: JSON.stringify(['post.deleted']) }).where('api_key_id', '=', apiKeyId).execute();
    const made = write(holder.claimId);
    assert.equal(await made.run(), 'created');
    assert.deepEqual(await written(made.postId), { posts: 1, targets: 1, jobs: 1, uses: 2 });
    const done = await row(apiKeyId, key);
    assert.deepEqual([done?.state, done?.resource_id, done?.response_status, done?.response_body], ['done', made.postId, 201, '{"answer":true}']);
  });
});
