// @herald/sdk against a real Herald and the platform emulators: every resource, typed errors (shape A
// and B, request id), paging with for await, an idempotent create retried across a dropped connection
// (one post), a 429 retried after its Retry-After, and verifyWebhook on a real delivery.
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  AuthenticationError,
  ConflictError,
  InvalidRequestError,
  NotFoundError,
  WebhookVerificationError,
  createHerald,
  verifyWebhook,
  type Herald,
} from '@herald/sdk';
import { CALLBACK } from '../helpers/connect.ts';
import { startWorld, type World } from '../helpers/e2e.ts';
import { approveConsent } from '../helpers/platform.ts';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.ts';

let w: World;
let herald: Herald;
let receiver: Receiver;
let accountId: string;

before(async () => {
  w = await startWorld();
  receiver = await startReceiver();
  herald = createHerald({ baseUrl: w.h.url, apiKey: w.h.key });
});
after(async () => {
  await receiver.close();
  await w.close();
});

/** A proxy in front of Herald; `decide` may answer a request itself, or drop Herald's answer. */
async function startProxy(decide: (req: { method: string; url: string; headers: Record<string, unknown>; n: number }) => 'forward' | 'drop-answer' | { status: number; headers: Record<string, string>; body: string }) {
  const seen: { method: string; url: string; headers: Record<string, unknown> }[] = [];
  const target = new URL(w.h.url);
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry = { method: req.method!, url: req.url!, headers: req.headers as Record<string, unknown> };
      seen.push(entry);
      const what = decide({ ...entry, n: seen.length });
      if (typeof what === 'object') {
        res.writeHead(what.status, what.headers).end(what.body);
        return;
      }
      const upstream = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        const body: Buffer[] = [];
        answer.on('data', (c: Buffer) => body.push(c));
        answer.on('end', () => {
          // Herald has answered (and stored the answer); the client never hears it.
          if (what === 'drop-answer') return void req.socket.destroy();
          res.writeHead(answer.statusCode!, answer.headers).end(Buffer.concat(body));
        });
      });
      upstream.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

describe('resources', () => {
  test('connect, accounts, health', async () => {
    const start = await herald.connect.start('twitter', { redirect_url: CALLBACK });
    const { code, state } = await approveConsent(start.authUrl);
    const done = await herald.connect.complete('twitter', { code: code!, state: state ?? undefined, redirect_url: CALLBACK });
    accountId = done.accountId;
    const { accounts } = await herald.accounts.list({ platform: 'twitter' });
    assert.deepEqual(accounts.map((a) => a.accountId), [accountId]);
    const health = await herald.accounts.health();
    assert.equal(health.accounts[0]!.health, 'healthy');
  });

  test('posts: create, get, list, update, validate, bulk, unpublish, retry, delete', async () => {
    const published = await herald.posts.create({ content: 'from the SDK', publishNow: true, platforms: [{ platform: 'twitter', accountId }] });
    assert.equal(published.status, 'published');
    assert.equal((await herald.posts.get(published.id)).platforms[0]!.platformPostId, published.platforms[0]!.platformPostId);
    const draft = await herald.posts.create({ content: 'a draft', isDraft: true });
    const changed = await herald.posts.update(draft.id, { content: 'a draft, changed' }, { ifMatch: draft.version });
    assert.equal(changed.version, draft.version + 1);
    await assert.rejects(herald.posts.update(draft.id, { content: 'stale' }, { ifMatch: draft.version }), (err: ConflictError) => err instanceof ConflictError && err.code === 'VERSION_MISMATCH');
    const checked = await herald.posts.validate({ content: 'x'.repeat(281), publishNow: true, platforms: [{ platform: 'twitter', accountId }] });
    assert.equal(checked.valid, false);
    const bulk = await herald.posts.bulk({ posts: [{ content: 'one', isDraft: true }, { content: 'two' }] }, { dryRun: true });
    assert.deepEqual([bulk.created, bulk.results.map((r) => r.valid)], [0, [true, false]]);
    const csv = await herald.posts.bulk('content,isDraft\nfrom csv,true\n');
    assert.equal(csv.created, 1);
    await assert.rejects(herald.posts.retry(published.id), (err: ConflictError) => err instanceof ConflictError && err.code === 'NO_FAILED_TARGETS');
    const down = await herald.posts.unpublish(published.id);
    assert.equal(down.platforms[0]!.unpublished, true);
    assert.deepEqual(await herald.posts.delete(draft.id), { id: draft.id, deleted: true });
  });

  test('queue and webhooks, deliveries paged with for await', async () => {
    const q = await herald.queue.set({ timezone: 'Europe/Paris', slots: [{ day: 'tue', time: '10:30' }] });
    assert.equal(q.upcoming.length, 10);
    assert.deepEqual((await herald.queue.get()).slots, q.slots);
    assert.deepEqual(await herald.queue.delete(), { deleted: true });
    const settings = await herald.webhooks.saveSettings({ url: receiver.url, events: ['post.deleted', 'webhook.test'] });
    assert.equal((await herald.webhooks.getSettings()).url, receiver.url);
    assert.equal((await herald.webhooks.test('webhook.test')).delivered, true);
    for (let i = 0; i < 3; i++) await herald.posts.delete((await herald.posts.create({ content: `delivered ${i}`, isDraft: true })).id);
    const ids: string[] = [];
    for await (const d of herald.webhooks.deliveries.iterate({ limit: 1 })) ids.push(d.id);
    assert.ok(ids.length >= 3 && new Set(ids).size === ids.length, `paged one by one: ${ids.length}`);
    assert.equal((await herald.webhooks.deliveries.get(ids[0]!)).id, ids[0]);
    assert.equal((await herald.webhooks.deliveries.redeliver(ids[0]!)).id, ids[0]);
    const rotated = await herald.webhooks.rotateSecret();
    assert.notEqual(rotated.secret, settings.secret);
    assert.deepEqual(await herald.webhooks.deleteSettings(), { deleted: true });
    assert.deepEqual(await herald.system.health(), { status: 'ok' });
  });

  test('posts paged with for await: every post once, newest first', async () => {
    const mine = createHerald({ baseUrl: w.h.url, apiKey: (await w.h.newKey('pager')).key });
    const made: string[] = [];
    for (let i = 0; i < 7; i++) made.push((await mine.posts.create({ content: `page ${i}`, isDraft: true })).id);
    const seen: string[] = [];
    for await (const p of mine.posts.iterate({ limit: 3 })) seen.push(p.id);
    assert.deepEqual(seen, made.reverse());
  });
});

describe('errors', () => {
  test('401, 404, shape B on create, each with its fields and the request id', async () => {
    const stranger = createHerald({ baseUrl: w.h.url, apiKey: 'hk_not_a_real_key_0000000000000000000000000000' });
    await assert.rejects(stranger.posts.list(), (err: AuthenticationError) => {
      assert.ok(err instanceof AuthenticationError);
      assert.equal(err.status, 401);
      assert.equal(err.code, 'AUTH_INVALID_KEY');
      assert.match(err.requestId ?? '', /\S/);
      return true;
    });
    await assert.rejects(herald.posts.get('post_nope'), (err: NotFoundError) => err instanceof NotFoundError && err.code === 'NOT_FOUND');
    await assert.rejects(herald.posts.create({ content: 'no mode' }), (err: InvalidRequestError) => {
      assert.ok(err instanceof InvalidRequestError);
      assert.deepEqual([err.status, err.type, err.code, err.param], [400, 'invalid_request_error', 'missing_required_field', 'publishNow']);
      return true;
    });
  });
});

describe('retries', () => {
  test('a create whose answer is lost is sent again with the same Idempotency-Key: one post, published once', async () => {
    const proxy = await startProxy(({ method, n }) => (method === 'POST' && n === 1 ? 'drop-answer' : 'forward'));
    try {
      const h = createHerald({ baseUrl: proxy.url, apiKey: w.h.key, retry: { baseDelayMs: 10 } });
      const content = 'lost answer, sent once';
      const post = await h.posts.create({ content, publishNow: true, platforms: [{ platform: 'twitter', accountId }] });
      assert.equal(post.status, 'published');
      const creates = proxy.seen.filter((r) => r.method === 'POST');
      assert.equal(creates.length, 2, 'sent twice');
      assert.match(String(creates[0]!.headers['idempotency-key']), /^[0-9a-f-]{36}$/);
      assert.equal(creates[1]!.headers['idempotency-key'], creates[0]!.headers['idempotency-key'], 'with the same key');
      assert.equal(w.emu('twitter').ledger.list({ accountId }).filter((e) => e.text === content).length, 1, 'X got it once');
      const { posts } = await herald.posts.list({ limit: 100 });
      assert.equal(posts.filter((p) => p.content === content).length, 1);
    } finally {
      await proxy.close();
    }
  });

  test('a 429 is retried after its Retry-After; a POST without a key is not retried after a lost answer', async () => {
    const limited = await startProxy(({ n }) => (n === 1 ? { status: 429, headers: { 'retry-after': '1', 'content-type': 'application/json' }, body: '{"error":"slow down","code":"RATE_LIMIT_EXCEEDED"}' } : 'forward'));
    try {
      const h = createHerald({ baseUrl: limited.url, apiKey: w.h.key });
      assert.ok(Array.isArray((await h.accounts.list()).accounts));
      assert.equal(limited.seen.length, 2);
    } finally {
      await limited.close();
    }
    const lossy = await startProxy(({ method }) => (method === 'POST' ? 'drop-answer' : 'forward'));
    try {
      const h = createHerald({ baseUrl: lossy.url, apiKey: w.h.key, retry: { baseDelayMs: 10 } });
      await assert.rejects(h.webhooks.test('webhook.test'), /no answer from Herald/);
      assert.equal(lossy.seen.length, 1, 'a test send is not repeated blindly');
    } finally {
      await lossy.close();
    }
  });
});

describe('verifyWebhook', () => {
  test("accepts Herald's real delivery under both schemes and refuses a changed body, a stale timestamp, another secret", async () => {
    const { secret } = await herald.webhooks.saveSettings({ url: receiver.url, events: ['webhook.test'] });
    const before = receiver.received.length;
    await herald.webhooks.test('webhook.test');
    const [got] = (await receiver.waitFor(before + 1)).slice(before);
    const event = await verifyWebhook(got!.raw, got!.headers as Record<string, string>, secret);
    assert.equal(event.event, 'webhook.test');
    assert.equal((await verifyWebhook(got!.raw.toString('utf8'), new Headers(got!.headers as Record<string, string>), secret, { scheme: 'herald' })).id, event.id);
    const changed = Buffer.from(got!.raw.toString('utf8').replace('webhook.test', 'webhook.tesT'));
    await assert.rejects(verifyWebhook(changed, got!.headers as Record<string, string>, secret), WebhookVerificationError);
    await assert.rejects(verifyWebhook(changed, got!.headers as Record<string, string>, secret, { scheme: 'herald' }), WebhookVerificationError);
    const sentAt = Number(got!.headers['webhook-timestamp']) * 1000;
    await assert.rejects(verifyWebhook(got!.raw, got!.headers as Record<string, string>, secret, { now: sentAt + 301_000 }), /more than 300 s/);
    assert.ok(await verifyWebhook(got!.raw, got!.headers as Record<string, string>, secret, { now: sentAt + 299_000 }));
    await assert.rejects(verifyWebhook(got!.raw, got!.headers as Record<string, string>, 'whsec_' + Buffer.alloc(32, 1).toString('base64')), WebhookVerificationError);
    const { 'webhook-signature': _dropped, ...stripped } = got!.headers as Record<string, string>;
    await assert.rejects(verifyWebhook(got!.raw, stripped, secret), /required/, 'the Standard Webhooks headers are required by default');
  });
});
