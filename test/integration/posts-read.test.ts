// GET and DELETE /v1/posts: filters, keyset pagination that stays stable while posts are created,
// and deletion.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createEmulators } from '../../src/sandbox/index.ts';
import { startEmulatorServer, type EmulatorServer } from '../../src/sandbox/server.ts';
import { behind, testClock } from '../helpers/clock.ts';
import { connectAccount } from '../helpers/connect.ts';
import { waitFinal } from '../helpers/e2e.ts';
import { startHerald, type TestHerald } from '../helpers/herald.ts';

let server: EmulatorServer;
let h: TestHerald;
let x: string;
let threads: string;
const clock = testClock();
const later = () => new Date(Date.now() + 3_600_000).toISOString();

before(async () => {
  server = await startEmulatorServer(createEmulators());
  h = await startHerald({ emulators: server, clock });
  x = (await connectAccount(h, 'twitter')).accountId;
  threads = (await connectAccount(h, 'threads')).accountId;
});
after(async () => {
  await h.close();
  await server.close();
});

async function draft(content: string, key?: string) {
  const res = await h.request('POST', '/v1/posts', { body: { content, isDraft: true }, key });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

describe('paging', () => {
  test('pages cover every post once, newest first, while posts keep being created', async () => {
    const { key } = await h.newKey('pager');
    const created: string[] = [];
    for (let i = 0; i < 45; i++) created.push((await draft(`p${i}`, key)).id);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const q: string = cursor ? `?limit=20&cursor=${encodeURIComponent(cursor)}` : '?limit=20';
      const res = await h.request('GET', `/v1/posts${q}`, { key });
      assert.equal(res.status, 200, res.text);
      seen.push(...res.body.posts.map((p: { id: string }) => p.id));
      assert.equal(res.body.hasMore, res.body.cursor !== null);
      cursor = res.body.cursor;
      pages++;
      // New posts arrive between pages: they sort before the cursor and never disturb later pages.
      await draft(`inserted during page ${pages}`, key);
    } while (cursor);
    assert.equal(pages, 3);
    assert.equal(new Set(seen).size, seen.length, 'no post twice');
    assert.deepEqual(seen, [...created].reverse(), 'every original post, newest first');
  });

  test('default limit is 20; limit=100 returns every post (a limit outside 1..100: test/faults/input.test.ts)', async () => {
    const { key } = await h.newKey('limits');
    for (let i = 0; i < 21; i++) await draft(`d${i}`, key);
    const res = await h.request('GET', '/v1/posts', { key });
    assert.equal(res.body.posts.length, 20);
    assert.equal(res.body.hasMore, true);
    const full = await h.request('GET', '/v1/posts?limit=100', { key });
    assert.equal(full.body.posts.length, 21);
    assert.equal(full.body.cursor, null);
    assert.equal(full.body.hasMore, false);
  });

  test('a cursor that Herald did not issue is a 400', async () => {
    for (const bad of ['nope', 'WzEsMl0', Buffer.from('["a","b"]').toString('base64url')]) {
      const r = await h.request('GET', `/v1/posts?cursor=${bad}`);
      assert.equal(r.status, 400);
      assert.equal(r.body.param, 'cursor');
    }
  });
});

describe('filters', () => {
  test('status, platform and dates narrow the list', async () => {
    const { key } = await h.newKey('filters');
    const d = await draft('a draft', key);
    const xPost = await h.request('POST', '/v1/posts', { key, body: { content: 'x', scheduledFor: later(), platforms: [{ platform: 'twitter', accountId: x }] } });
    assert.equal(xPost.status, 400, 'accounts belong to the key that connected them');
    await connectAccount(h, 'twitter', {}, key);
    await connectAccount(h, 'threads', {}, key);
    const s1 = await h.request('POST', '/v1/posts', { key, body: { content: 'x', scheduledFor: later(), platforms: [{ platform: 'twitter', accountId: x }] } });
    const s2 = await h.request('POST', '/v1/posts', { key, body: { content: 't', scheduledFor: later(), platforms: [{ platform: 'threads', accountId: threads }] } });
    const ids = (res: { body: { posts: { id: string }[] } }) => res.body.posts.map((p) => p.id).sort();

    assert.deepEqual(ids(await h.request('GET', '/v1/posts?status=draft', { key })), [d.id]);
    assert.deepEqual(ids(await h.request('GET', '/v1/posts?status=scheduled', { key })), [s1.body.id, s2.body.id].sort());
    assert.deepEqual(ids(await h.request('GET', '/v1/posts?platform=threads', { key })), [s2.body.id]);
    assert.deepEqual(ids(await h.request('GET', '/v1/posts?status=scheduled&platform=twitter', { key })), [s1.body.id]);
    assert.deepEqual(ids(await h.request('GET', '/v1/posts?status=published', { key })), []);

    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    assert.equal((await h.request('GET', `/v1/posts?fromDate=${today}&toDate=${today}`, { key })).body.posts.length, 3);
    assert.equal((await h.request('GET', `/v1/posts?fromDate=${tomorrow}`, { key })).body.posts.length, 0);
    assert.equal((await h.request('GET', `/v1/posts?toDate=2000-01-01`, { key })).body.posts.length, 0);

    // Filters hold across pages: the cursor narrows the same filtered list.
    const first = await h.request('GET', `/v1/posts?status=scheduled&fromDate=${today}&limit=1`, { key });
    assert.equal(first.body.hasMore, true);
    const second = await h.request('GET', `/v1/posts?status=scheduled&fromDate=${today}&limit=1&cursor=${encodeURIComponent(first.body.cursor)}`, { key });
    assert.equal(second.body.hasMore, false);
    assert.deepEqual([...ids(first), ...ids(second)].sort(), [s1.body.id, s2.body.id].sort());
  });

  test('bad filters are refused with the parameter named', async () => {
    const cases: [string, string][] = [
      ['status=done', 'status'],
      ['platform=myspace', 'platform'],
      ['fromDate=yesterday', 'fromDate'],
      ['fromDate=2026-02-30', 'fromDate'],
      ['fromDate=2026-05-02&toDate=2026-05-01', 'fromDate'],
      ['sort=asc', 'sort'],
    ];
    for (const [q, param] of cases) {
      const r = await h.request('GET', `/v1/posts?${q}`);
      assert.equal(r.status, 400, q);
      assert.equal(r.body.code, 'VALIDATION_ERROR', q);
      assert.equal(r.body.param, param, q);
    }
  });
});

describe('get and delete', () => {
  test('an unknown post is a 404 in shape A', async () => {
    const r = await h.request('GET', '/v1/posts/post_doesnotexist00000000');
    assert.equal(r.status, 404);
    assert.deepEqual(Object.keys(r.body).sort(), ['code', 'error']);
    assert.equal(r.body.code, 'NOT_FOUND');
  });

  test('delete removes the post and cancels its scheduled targets', async () => {
    const due = new Date(Date.now() + 1500).toISOString();
    const schedule = (content: string) => h.request('POST', '/v1/posts', { body: { content, scheduledFor: due, platforms: [{ platform: 'twitter', accountId: x }] } });
    // Herald's clock is held behind while the post is created and deleted, so it cannot come due
    // before the deletion however slowly these requests go through.
    const witness = await behind(clock, async () => {
      const res = await schedule('soon');
      assert.equal(res.status, 201, res.text);
      // Due at the same moment, to the same account: once it is published, the deleted post's time has
      // come and gone too.
      const other = await schedule('due with it');
      assert.equal(other.status, 201, other.text);
      const del = await h.request('DELETE', `/v1/posts/${res.body.id}`);
      assert.equal(del.status, 200);
      assert.deepEqual(del.body, { id: res.body.id, deleted: true });
      assert.equal((await h.request('GET', `/v1/posts/${res.body.id}`)).status, 404);
      assert.equal((await h.request('DELETE', `/v1/posts/${res.body.id}`)).status, 404);
      return other.body.id as string;
    });
    // Past its time, nothing reached the platform.
    assert.equal((await waitFinal(h, witness)).status, 'published');
    const ledger = (await fetch(`${server.rootOf('twitter')}/__sandbox/ledger`).then((r) => r.json())) as { posts: { text: string }[] };
    assert.equal(ledger.posts.filter((p: { text: string }) => p.text === 'due with it').length, 1);
    assert.equal(ledger.posts.filter((p: { text: string }) => p.text === 'soon').length, 0);
  });
});
