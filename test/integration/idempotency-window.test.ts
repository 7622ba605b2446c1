// Idempotency-Window on POST /v1/posts (what MCP's create_post sends): without an Idempotency-Key, a
// repeat of the same request by the same API key within the window is answered with the first answer;
// the window runs from the first request, so no boundary splits two repeats; afterwards, or with another
// body or another key, a new post is created.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { testClock } from '../helpers/clock.ts';
import { startHerald, type TestHerald } from '../helpers/herald.ts';

const clock = testClock();
let h: TestHerald;

before(async () => {
  h = await startHerald({ clock });
});
after(() => h.close());

const create = (body: unknown, headers: Record<string, string>, key?: string) => h.request('POST', '/v1/posts', { body, headers, key });

describe('Idempotency-Window', () => {
  test('the same draft twice within the window: one post, the second answer replayed', async () => {
    const body = { content: 'window: same twice', isDraft: true, tags: ['a', 'b'] };
    const first = await create(body, { 'idempotency-window': '600' });
    assert.equal(first.status, 201, first.text);
    clock.advance(599_000);
    // Key order does not make another request: the body is compared canonically.
    const again = await create({ tags: ['a', 'b'], isDraft: true, content: 'window: same twice' }, { 'idempotency-window': '600' });
    assert.equal(again.status, 201);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(again.body.id, first.body.id);
    const listed = (await h.request('GET', '/v1/posts?limit=100')).body.posts.filter((p: { content: string }) => p.content === body.content);
    assert.equal(listed.length, 1);
  });

  test('after the window, the same request creates a new post; another body or another key never shares', async () => {
    const body = { content: 'window: expires', isDraft: true };
    const first = await create(body, { 'idempotency-window': '600' });
    const other = await create({ ...body, content: 'window: another body' }, { 'idempotency-window': '600' });
    assert.notEqual(other.body.id, first.body.id);
    const stranger = await h.newKey('stranger');
    const theirs = await create(body, { 'idempotency-window': '600' }, stranger.key);
    assert.equal(theirs.status, 201);
    assert.equal(theirs.headers.get('idempotent-replayed'), null);
    clock.advance(600_001);
    const later = await create(body, { 'idempotency-window': '600' });
    assert.equal(later.status, 201);
    assert.equal(later.headers.get('idempotent-replayed'), null);
    assert.notEqual(later.body.id, first.body.id);
  });

  test('concurrent repeats create one post', async () => {
    const body = { content: 'window: concurrent', isDraft: true };
    const answers = await Promise.all(Array.from({ length: 8 }, () => create(body, { 'idempotency-window': '600' })));
    const created = new Set(answers.filter((a) => a.status === 201).map((a) => a.body.id));
    assert.equal(created.size, 1, JSON.stringify(answers.map((a) => [a.status, a.body])));
    for (const a of answers.filter((x) => x.status !== 201)) assert.equal(a.body.code, 'idempotency_key_in_use');
  });

  test('a bad window, or both headers at once, is a 400 naming the header', async () => {
    for (const value of ['0', '-5', 'ten', '86401', '1.5']) {
      const res = await create({ content: 'x', isDraft: true }, { 'idempotency-window': value });
      assert.equal(res.status, 400, value);
      assert.equal(res.body.param, 'Idempotency-Window');
    }
    const both = await create({ content: 'x', isDraft: true }, { 'idempotency-window': '60', 'idempotency-key': crypto.randomUUID() });
    assert.equal(both.status, 400);
    assert.equal(both.body.param, 'Idempotency-Window');
  });
});
