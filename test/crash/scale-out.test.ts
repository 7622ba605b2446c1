// The scale-out of docs/operations.md ("A scale-out on one machine"), run as an operator runs it: the
// emulators as their own process (`herald sandbox`, its printed settings given to every Herald process),
// and `herald start` processes on one PostgreSQL database: two `--role api` and two `--role worker`.
//   1. Every /v1 operation of /openapi.json answers on each API process, and work begun on one is carried
//      on by the other (no affinity): a connect started on one completes on the other, a post created on
//      one is read, changed, retried, edited and unpublished on the other.
//      The media library is on the s3 store (a real S3-compatible server), as a scale-out needs: a file
//      uploaded through one process is read, changed, published and deleted through the other.
//   2. kill -9 of a worker and of an API process while publishNow and scheduled posts are in flight: the
//      cut-off requests, sent again with the same Idempotency-Key to the other API process, get their post;
//      every post ends published, and no platform holds any of them twice.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { openDatabase } from '../../src/db/database.ts';
import { approveConsent } from '../helpers/platform.ts';
import { createTestDatabase, usingPostgres, type TestDatabase } from '../helpers/herald.ts';
import { HERALD_MAIN, processEnv, startHeraldProcess, type HeraldProcess } from '../helpers/process.ts';
import { uploadRaw } from '../helpers/media.ts';
import { s3Env, startS3Server, type TestS3Server } from '../helpers/s3-server.ts';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.ts';
import { until } from '../helpers/wait.ts';

const skip = !usingPostgres && 'split roles need PostgreSQL (the embedded database runs one process)';
const CALLBACK = 'https://app.example.com/cb';

let database: TestDatabase;
let sandbox: ChildProcess;
let sandboxUrl: string;
let receiver: Receiver;
let s3: TestS3Server;
let env: Record<string, string>;
let apiKey: string;
const procs = new Map<string, HeraldProcess>();

/** `herald sandbox` on a free port; resolves with its URL and the settings it prints (NAME=value lines). */
function startSandbox(): Promise<{ child: ChildProcess; url: string; settings: Record<string, string> }> {
  const child = spawn(process.execPath, [HERALD_MAIN, 'sandbox', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const check = () => {
      const url = /Platform emulators on (http:\/\/[^\s:]+:\d+)/.exec(out)?.[1];
      const settings = Object.fromEntries([...out.matchAll(/^(HERALD_[A-Z_]+)=(.*)$/gm)].map((m) => [m[1]!, m[2]!]));
      // The settings follow the first line; all of them are printed in one go.
      if (url && Object.keys(settings).length > 0 && out.endsWith('\n')) resolve({ child, url, settings });
    };
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      check();
    });
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => reject(new Error(`herald sandbox exited with ${code}:\n${out}`)));
  });
}

async function start(name: string): Promise<HeraldProcess> {
  const proc = await startHeraldProcess(env, name.startsWith('api') ? 'api' : 'worker');
  procs.set(name, proc);
  return proc;
}

async function call(url: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${apiKey}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as any };
}

const control = (path: string, body?: unknown) =>
  fetch(`${sandboxUrl}${path}`, { method: body === undefined ? 'GET' : 'POST', headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) }).then((r) => r.json() as Promise<any>);

before(async () => {
  if (skip) return;
  database = await createTestDatabase();
  const s = await startSandbox();
  sandbox = s.child;
  sandboxUrl = s.url;
  receiver = await startReceiver();
  s3 = await startS3Server();
  env = processEnv(database, {
    ...s.settings,
    ...s3Env(s3),
    HERALD_ALLOW_PRIVATE_NETWORKS: 'true',
    HERALD_RATE_LIMIT_PER_MINUTE: '100000',
    HERALD_PLATFORM_TIMEOUT_MS: '5000',
    HERALD_PUBLISH_LEASE_MS: '3000',
    HERALD_PUBLISH_WAIT_MS: '30000',
  });
  const created = spawnSync(process.execPath, [HERALD_MAIN, 'keys', 'create', '--name', 'scale-out', '--json'], { env, encoding: 'utf8' });
  assert.equal(created.status, 0, created.stderr);
  apiKey = JSON.parse(created.stdout).key;
  await Promise.all(['api-1', 'api-2', 'worker-1', 'worker-2'].map(start));
});

after(async () => {
  if (skip) return;
  await Promise.all([...procs.values()].map((p) => p.kill()));
  sandbox.kill('SIGTERM');
  await receiver.close();
  await s3.close();
  await database.drop();
});

test('every /v1 operation answers on every API process, and work begun on one is carried on by the other', { skip, timeout: 300_000 }, async () => {
  const served = new Map<string, Set<string>>();
  const on = (name: string) => {
    const url = procs.get(name)!.url;
    return async (method: string, path: string, route: string, body?: unknown, headers?: Record<string, string>) => {
      const r = await call(url, method, path, body, headers);
      served.set(`${method} ${route}`, (served.get(`${method} ${route}`) ?? new Set()).add(name));
      return r;
    };
  };

  for (const [a, b] of [['api-1', 'api-2'], ['api-2', 'api-1']] as const) {
    const A = on(a);
    const B = on(b);
    const tag = `${a}→${b}`;
    // Connect: the consent starts on one process and completes on the other (the state is in the database).
    const connectVia = async (platform: string, user: string, extra: Record<string, string> = {}) => {
      const begun = await A('GET', `/v1/connect/${platform}?redirect_url=${encodeURIComponent(CALLBACK)}`, '/v1/connect/{platform}');
      assert.equal(begun.status, 200, JSON.stringify(begun.body));
      const { code, state } = await approveConsent(begun.body.authUrl, { sandbox_user: user, ...extra });
      const done = await B('POST', `/v1/connect/${platform}`, '/v1/connect/{platform}', { code, state, redirect_url: CALLBACK });
      assert.equal(done.status, 200, JSON.stringify(done.body));
      return done.body.accountId as string;
    };
    const x = await connectVia('twitter', `so_x_${a}`, { sandbox_subscription: 'Premium' });
    const extra = await connectVia('threads', `so_t_${a}`);
    assert.equal((await B('GET', '/v1/accounts', '/v1/accounts')).body.accounts.some((acc: any) => acc.accountId === extra), true);
    assert.equal((await A('GET', '/v1/accounts/health', '/v1/accounts/health')).status, 200);
    assert.equal((await B('DELETE', `/v1/accounts/threads/${encodeURIComponent(extra)}`, '/v1/accounts/{platform}/{accountId}')).status, 200);

    // Webhooks saved on one, sent by a worker, read and redelivered on the other.
    const saved = await A('POST', '/v1/webhooks/settings', '/v1/webhooks/settings', { url: receiver.url, events: ['post.published', 'post.deleted', 'post.failed'] });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.equal((await B('GET', '/v1/webhooks/settings', '/v1/webhooks/settings')).body.url, receiver.url);
    assert.equal((await A('POST', '/v1/webhooks/secret/rotate', '/v1/webhooks/secret/rotate')).status, 200);
    assert.equal((await B('POST', '/v1/webhooks/test', '/v1/webhooks/test', { event: 'post.published' })).status, 200);

    // A post that fails on X, created on one process, retried on the other.
    await control('/twitter/__sandbox/faults', { kind: 'validation', method: 'POST', path: '/2/tweets', count: 1 });
    const failed = await A('POST', '/v1/posts', '/v1/posts', { content: `fails first ${tag}`, publishNow: true, platforms: [{ platform: 'twitter', accountId: x }] }, { 'idempotency-key': randomUUID() });
    assert.equal(failed.status, 201, JSON.stringify(failed.body));
    assert.equal(failed.body.status, 'failed', JSON.stringify(failed.body));
    const retried = await B('POST', `/v1/posts/${failed.body.id}/retry`, '/v1/posts/{postId}/retry');
    assert.equal(retried.body.status, 'published', JSON.stringify(retried.body));
    const edited = await A('POST', `/v1/posts/${failed.body.id}/edit`, '/v1/posts/{postId}/edit', { content: `edited ${tag}` });
    assert.equal(edited.status, 200, JSON.stringify(edited.body));
    const unpublished = await B('POST', `/v1/posts/${failed.body.id}/unpublish`, '/v1/posts/{postId}/unpublish', {});
    assert.equal(unpublished.body.platforms[0].unpublished, true, JSON.stringify(unpublished.body));

    // A draft created on one process, changed, read, listed and deleted on the other.
    const draft = await A('POST', '/v1/posts', '/v1/posts', { content: `draft ${tag}`, isDraft: true });
    assert.equal((await B('PATCH', `/v1/posts/${draft.body.id}`, '/v1/posts/{postId}', { content: `changed ${tag}` })).body.content, `changed ${tag}`);
    assert.equal((await A('GET', `/v1/posts/${draft.body.id}`, '/v1/posts/{postId}')).body.content, `changed ${tag}`);
    assert.ok((await B('GET', '/v1/posts?limit=100', '/v1/posts')).body.posts.some((p: any) => p.id === draft.body.id));
    assert.equal((await B('DELETE', `/v1/posts/${draft.body.id}`, '/v1/posts/{postId}')).status, 200);
    assert.equal((await A('POST', '/v1/posts/validate', '/v1/posts/validate', { content: 'ok?', publishNow: true, platforms: [{ platform: 'twitter', accountId: x }] })).body.valid, true);
    const bulk = await B('POST', '/v1/posts/bulk', '/v1/posts/bulk', { posts: [{ content: `bulk ${tag}`, isDraft: true }] });
    assert.equal(bulk.body.created, 1, JSON.stringify(bulk.body));

    // The media library: uploaded through one process into the bucket, read, changed, published (by a
    // worker) and deleted through the other; an import by URL the same way.
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 40, b: 90 } } }).png().toBuffer();
    const uploaded = await uploadRaw({ url: procs.get(a)!.url, key: apiKey }, png, 'image/png', '?altText=' + encodeURIComponent(`alt ${tag}`));
    served.set('POST /v1/media', (served.get('POST /v1/media') ?? new Set()).add(a));
    assert.equal(uploaded.status, 201, uploaded.text);
    const mediaId = uploaded.body.id as string;
    assert.ok((await s3.objectKeys()).includes(`${mediaId}/original`));
    assert.equal((await B('GET', `/v1/media/${mediaId}`, '/v1/media/{id}')).body.width, 64);
    assert.ok((await B('GET', '/v1/media?limit=100', '/v1/media')).body.media.some((m: any) => m.id === mediaId));
    assert.equal((await B('PATCH', `/v1/media/${mediaId}`, '/v1/media/{id}', { altText: `changed ${tag}` })).body.altText, `changed ${tag}`);
    const withMedia = await B('POST', '/v1/posts', '/v1/posts', { content: `library media ${tag}`, mediaItems: [{ mediaId }], publishNow: true, platforms: [{ platform: 'twitter', accountId: x }] }, { 'idempotency-key': randomUUID() });
    assert.equal(withMedia.body.status, 'published', JSON.stringify(withMedia.body));
    const imported = await A('POST', '/v1/media/import', '/v1/media/import', { url: `${sandboxUrl}/media/sample.jpg` }, { 'idempotency-key': randomUUID() });
    assert.equal(imported.status, 201, JSON.stringify(imported.body));
    assert.equal((await B('GET', `/v1/media/${imported.body.id}`, '/v1/media/{id}')).body.contentType, 'image/jpeg');
    assert.equal((await B('DELETE', `/v1/media/${imported.body.id}`, '/v1/media/{id}')).status, 200);
    assert.equal((await A('GET', `/v1/media/${imported.body.id}`, '/v1/media/{id}')).status, 404);

    // The posting queue set on one process, used by a create on the other.
    const slots = await A('PUT', '/v1/queue', '/v1/queue', { timezone: 'UTC', slots: [{ day: 'mon', time: '09:00' }] });
    assert.equal(slots.status, 200, JSON.stringify(slots.body));
    assert.equal((await B('GET', '/v1/queue', '/v1/queue')).body.slots.length, 1);
    const queued = await B('POST', '/v1/posts', '/v1/posts', { content: `queued ${tag}`, queue: true, platforms: [{ platform: 'twitter', accountId: x }] });
    assert.equal(queued.body.status, 'scheduled', JSON.stringify(queued.body));
    assert.equal((await A('DELETE', `/v1/posts/${queued.body.id}`, '/v1/posts/{postId}')).status, 200);
    assert.equal((await A('DELETE', '/v1/queue', '/v1/queue')).status, 200);

    // Deliveries recorded by one process, sent by a worker, read and redelivered on either.
    const deliveries = await until('deliveries to be sent', async () => {
      const list = await A('GET', '/v1/webhooks/deliveries?limit=100', '/v1/webhooks/deliveries');
      return list.body.deliveries.length > 0 && list.body.deliveries.every((d: any) => d.status === 'delivered') ? list.body.deliveries : undefined;
    });
    assert.equal((await B('GET', `/v1/webhooks/deliveries/${deliveries[0].id}`, '/v1/webhooks/deliveries/{id}')).status, 200);
    assert.equal((await A('POST', `/v1/webhooks/deliveries/${deliveries[0].id}/redeliver`, '/v1/webhooks/deliveries/{id}/redeliver')).status, 200);
    assert.equal((await B('DELETE', '/v1/webhooks/settings', '/v1/webhooks/settings')).status, 200);
  }

  // Every operation the API documents was answered by both processes.
  const doc = (await (await fetch(`${procs.get('api-1')!.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
  const documented = Object.entries(doc.paths)
    .filter(([path]) => path.startsWith('/v1/'))
    .flatMap(([path, ops]) => Object.keys(ops).filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m)).map((m) => `${m.toUpperCase()} ${path}`));
  const missing = documented.filter((op) => served.get(op)?.size !== 2);
  assert.deepEqual(missing, [], 'operations not exercised on both API processes (add them above)');
});

test('kill -9 of a worker and of an API process mid-flight: every post published once, cut-off requests answered by the other API process', { skip, timeout: 300_000 }, async () => {
  const api1 = procs.get('api-1')!.url;
  const api2 = procs.get('api-2')!.url;
  const begun = await call(api1, 'GET', `/v1/connect/facebook?redirect_url=${encodeURIComponent(CALLBACK)}`);
  const consent = await approveConsent(begun.body.authUrl, { sandbox_user: 'so_pages', sandbox_pages: '4' });
  const pages = (await call(api2, 'POST', '/v1/connect/facebook', { code: consent.code, state: consent.state, redirect_url: CALLBACK })).body.accounts.map((a: any) => a.accountId) as string[];
  // Slow platforms keep attempts in flight when the kills come.
  await control('/meta/__sandbox/latency', { ms: 1_500 });

  const due = new Date(Date.now() + 2_000).toISOString();
  const scheduled: string[] = [];
  for (let i = 0; i < 20; i++) {
    const r = await call(i % 2 ? api1 : api2, 'POST', '/v1/posts', { content: `so scheduled ${i}`, scheduledFor: due, platforms: [{ platform: 'facebook', accountId: pages[i % pages.length] }] });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    scheduled.push(r.body.id);
  }
  const now = Array.from({ length: 20 }, (_, i) => ({ key: randomUUID(), body: { content: `so now ${i}`, publishNow: true, platforms: [{ platform: 'facebook', accountId: pages[i % pages.length] }] } }));
  // All sent to the API process that will be killed; the clients lose their connections.
  const cut = now.map((r) => call(api1, 'POST', '/v1/posts', r.body, { 'idempotency-key': r.key }).catch(() => null));
  const watcher = openDatabase({ dataDir: database.dataDir, databaseUrl: database.databaseUrl });
  try {
    await until('attempts in flight on both kinds of process', async () => {
      const n = await watcher.kysely.selectFrom('post_targets').select((eb) => eb.fn.countAll<number>().as('n')).where('status', '=', 'publishing').executeTakeFirstOrThrow();
      return Number(n.n) >= 25;
    });
  } finally {
    await watcher.close();
  }
  await Promise.all([procs.get('worker-1')!.kill(), procs.get('api-1')!.kill()]);
  await Promise.all(cut);

  // The clients send the same requests to the other API process until they are answered: 409 while the
  // dead request's claim lasts, then the post that request created.
  const answers = await Promise.all(
    now.map((r) =>
      until(`the answer to "${r.body.content}"`, async () => {
        const res = await call(api2, 'POST', '/v1/posts', r.body, { 'idempotency-key': r.key });
        if (res.status === 409 && res.body.code === 'idempotency_key_in_use') return undefined;
        assert.equal(res.status, 201, JSON.stringify(res.body));
        return res.body.id as string;
      }, { everyMs: 200 }),
    ),
  );
  assert.equal(new Set(answers).size, now.length, 'one post per key');
  await Promise.all([start('worker-1'), start('api-1')]);
  await control('/meta/__sandbox/latency', { ms: 0 });

  const ids = [...scheduled, ...answers];
  const finals = await until('every post to be final', async () => {
    const posts = await Promise.all(ids.map((id) => call(api2, 'GET', `/v1/posts/${id}`).then((r) => r.body)));
    return posts.every((p) => ['published', 'partial', 'failed'].includes(p.status)) ? posts : undefined;
  }, { capMs: 120_000, everyMs: 250 });
  for (const p of finals) assert.equal(p.status, 'published', JSON.stringify(p));
  const ledger = (await control('/meta/__sandbox/ledger')).posts.filter((e: any) => e.text.startsWith('so '));
  const texts = ledger.map((e: any) => e.text).sort();
  assert.deepEqual(texts, [...new Set(texts)], 'no post twice');
  assert.equal(texts.length, ids.length, 'every post once');
  const onPlatform = new Set(ledger.map((e: any) => e.id));
  for (const p of finals) assert.ok(onPlatform.has(p.platforms[0].platformPostId), `${p.content}: its platform post exists`);
  // Posts created count: nothing made twice by the replays either.
  const rows = await (async () => {
    const db = openDatabase({ dataDir: database.dataDir, databaseUrl: database.databaseUrl });
    try {
      return await db.kysely.selectFrom('posts').select('content').where('content', 'like', 'so now %').execute();
    } finally {
      await db.close();
    }
  })();
  assert.equal(rows.length, now.length);
});
