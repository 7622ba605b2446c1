// PATCH /v1/posts/{id} (API.md section 12): changing a draft or scheduled post, checked like a create,
// with version / If-Match, idempotency, post.updated, and a change that races the scheduler firing the
// post being all or nothing.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { connectAccount } from '../helpers/connect.ts';
import { testClock, type TestClock } from '../helpers/clock.ts';
import { posted, startWorld, waitFinal, type World } from '../helpers/e2e.ts';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.ts';
import { eventually, saveSettings } from '../helpers/webhooks.ts';

let w: World;
let clock: TestClock;
let receiver: Receiver;
let x: string;
let threads: string;
const HOUR = 3_600_000;

before(async () => {
  clock = testClock();
  w = await startWorld({ clock });
  receiver = await startReceiver();
  x = (await connectAccount(w.h, 'twitter')).accountId;
  threads = (await connectAccount(w.h, 'threads')).accountId;
  await saveSettings(w.h, { url: receiver.url, events: ['post.updated', 'post.scheduled'] });
});
after(async () => {
  await w.close();
  await receiver.close();
});

const at = (ms: number) => new Date(clock.now() + ms).toISOString();

async function schedule(content: string, platforms = [{ platform: 'twitter', accountId: x }]) {
  const res = await w.h.request('POST', '/v1/posts', { body: { content, scheduledFor: at(HOUR), platforms } });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

/** The first delivered event of that name matching `match`, once it arrives. */
const eventOf = (name: string, match: (e: any) => boolean) =>
  eventually(async () => receiver.received.map((r) => r.json as any).find((e) => e.event === name && match(e)), 10_000, name);

const patch = (id: string, body: unknown, headers: Record<string, string> = {}) => w.h.request('PATCH', `/v1/posts/${id}`, { body, headers });

describe('changing a scheduled post', () => {
  test('content changes, the version rises, the time and targets stay, post.updated is sent', async () => {
    const post = await schedule('before');
    assert.equal(post.version, 1);
    const res = await patch(post.id, { content: 'after' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.content, 'after');
    assert.equal(res.body.version, 2);
    assert.equal(res.body.status, 'scheduled');
    assert.equal(res.body.scheduledFor, post.scheduledFor);
    assert.deepEqual(res.body.platforms.map((p: any) => p.accountId), [x]);
    assert.equal((await w.h.request('GET', `/v1/posts/${post.id}`)).body.content, 'after');
    const updated = await eventOf('post.updated', (e) => e.data.postId === post.id);
    assert.deepEqual(updated.data, { postId: post.id, version: 2 });
  });

  test('platforms and mediaItems replace the whole list; a new time moves it and announces post.scheduled', async () => {
    const post = await schedule('two lists');
    const later = at(2 * HOUR);
    const res = await patch(post.id, { platforms: [{ platform: 'threads', accountId: threads }], scheduledFor: later });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.platforms.map((p: any) => p.platform), ['threads']);
    assert.equal(res.body.scheduledFor, new Date(later).toISOString());
    await eventOf('post.scheduled', (e) => e.data.postId === post.id && e.data.scheduledFor === new Date(later).toISOString());
  });

  test('modes move: back to draft, then scheduled again, then published now', async () => {
    const post = await schedule('modes');
    const draft = await patch(post.id, { isDraft: true });
    assert.equal(draft.status, 200, draft.text);
    assert.equal(draft.body.status, 'draft');
    const again = await patch(post.id, { scheduledFor: at(HOUR) });
    assert.equal(again.body.status, 'scheduled');
    const now = await patch(post.id, { publishNow: true, content: 'published by a PATCH' });
    assert.equal(now.status, 200, now.text);
    assert.equal(now.body.status, 'published');
    assert.equal(posted(w.emu('twitter'), { text: 'published by a PATCH' }).length, 1);
  });

  test('the change is checked like a create: shape B errors, 422 for a platform rule, contradictions 400', async () => {
    const post = await schedule('rules');
    const long = await patch(post.id, { content: 'x'.repeat(281) });
    assert.equal(long.status, 422, long.text);
    assert.deepEqual(Object.keys(long.body).sort(), ['code', 'error', 'param', 'type']);
    assert.equal(long.body.code, 'invalid_field_value');
    assert.equal(long.body.param, 'content');
    const both = await patch(post.id, { isDraft: true, publishNow: true });
    assert.equal(both.status, 400);
    assert.equal(both.body.type, 'invalid_request_error');
    const unknown = await patch(post.id, { scheduleFor: at(HOUR) });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.param, 'scheduleFor');
    assert.equal((await w.h.request('GET', `/v1/posts/${post.id}`)).body.version, 1, 'nothing changed');
  });

  test('If-Match: the current version changes it, a stale one is 412 VERSION_MISMATCH', async () => {
    const post = await schedule('versions');
    const stale = await patch(post.id, { content: 'no' }, { 'if-match': '"7"' });
    assert.equal(stale.status, 412, stale.text);
    assert.equal(stale.body.code, 'VERSION_MISMATCH');
    const ok = await patch(post.id, { content: 'yes' }, { 'if-match': '"1"' });
    assert.equal(ok.status, 200, ok.text);
    const again = await patch(post.id, { content: 'late' }, { 'if-match': '1' });
    assert.equal(again.status, 412);
    const bad = await patch(post.id, { content: 'late' }, { 'if-match': 'yesterday' });
    assert.equal(bad.status, 400);
  });

  test('Idempotency-Key: a repeat answers the first change and changes nothing more', async () => {
    const post = await schedule('idempotent');
    const key = randomUUID();
    const first = await patch(post.id, { content: 'once' }, { 'idempotency-key': key });
    const second = await patch(post.id, { content: 'once' }, { 'idempotency-key': key });
    assert.equal(second.status, 200);
    assert.equal(second.headers.get('idempotent-replayed'), 'true');
    assert.equal(second.text, first.text);
    assert.equal((await w.h.request('GET', `/v1/posts/${post.id}`)).body.version, 2);
  });

  test('a published post: 409 POST_NOT_EDITABLE; an unknown or another key\'s post: 404', async () => {
    const res = await w.h.request('POST', '/v1/posts', { body: { content: 'out already', publishNow: true, platforms: [{ platform: 'twitter', accountId: x }] } });
    const refused = await patch(res.body.id, { content: 'too late' });
    assert.equal(refused.status, 409, refused.text);
    assert.equal(refused.body.code, 'POST_NOT_EDITABLE');
    assert.equal((await patch('post_doesnotexist000000000', { content: 'x' })).status, 404);
    const other = await w.h.newKey();
    const foreign = await w.h.request('PATCH', `/v1/posts/${res.body.id}`, { body: { content: 'x' }, key: other.key });
    assert.equal(foreign.status, 404);
    assert.deepEqual(Object.keys(foreign.body).sort(), ['code', 'error']);
  });
});

describe('a change racing the scheduler', () => {
  test('run together many times: the post goes out exactly once, as it was or as changed, never half of each', async () => {
    const outcomes = { changed: 0, refused: 0 };
    for (let i = 0; i < 15; i++) {
      const post = await schedule(`race ${i} before`, [
        { platform: 'twitter', accountId: x },
        { platform: 'threads', accountId: threads },
      ]);
      clock.advance(HOUR);
      const [change] = await Promise.all([
        patch(post.id, { content: `race ${i} after` }),
        w.h.runtime.engine.processPost(post.id),
      ]);
      const final = await waitFinal(w.h, post.id);
      assert.equal(final.status, 'published', JSON.stringify(final));
      const texts = [
        ...posted(w.emu('twitter')).filter((e) => e.text?.startsWith(`race ${i} `)).map((e) => e.text),
        ...posted(w.emu('threads')).filter((e) => e.text?.startsWith(`race ${i} `)).map((e) => e.text),
      ];
      assert.equal(texts.length, 2, `one post per target: ${texts.join(' | ')}`);
      if (change.status === 200) {
        outcomes.changed++;
        assert.deepEqual(texts, [`race ${i} after`, `race ${i} after`], 'the change won: both targets publish it');
      } else {
        outcomes.refused++;
        assert.equal(change.status, 409, change.text);
        assert.equal(change.body.code, 'POST_NOT_EDITABLE');
        assert.deepEqual(texts, [`race ${i} before`, `race ${i} before`], 'the scheduler won: the post as it was');
      }
    }
    assert.equal(outcomes.changed + outcomes.refused, 15);
  });
});
