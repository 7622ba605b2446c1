// The posting queue (API.md section 12): weekly slots per key, `queue: true` on create and PATCH, and two
// queued creates at once never take the same slot.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { connectAccount } from '../helpers/connect.ts';
import { startWorld, type World } from '../helpers/e2e.ts';

let w: World;
let x: string;

before(async () => {
  w = await startWorld();
  x = (await connectAccount(w.h, 'twitter')).accountId;
});
after(() => w.close());

const ALL_WEEK = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].flatMap((day) => ['08:00', '12:00', '18:00'].map((time) => ({ day, time })));

test('PUT, GET and DELETE /v1/queue; upcoming lists the next 10 free slots', async () => {
  const { key } = await w.h.newKey();
  assert.equal((await w.h.request('GET', '/v1/queue', { key })).status, 404);
  const put = await w.h.request('PUT', '/v1/queue', { key, body: { timezone: 'Europe/Paris', slots: [{ day: 'mon', time: '09:00' }, { day: 'thu', time: '17:30' }] } });
  assert.equal(put.status, 200, put.text);
  assert.equal(put.body.upcoming.length, 10);
  for (const t of put.body.upcoming) assert.ok(Date.parse(t) > Date.now());
  const got = await w.h.request('GET', '/v1/queue', { key });
  assert.deepEqual(got.body, put.body);
  const del = await w.h.request('DELETE', '/v1/queue', { key });
  assert.deepEqual(del.body, { deleted: true });
  assert.equal((await w.h.request('GET', '/v1/queue', { key })).status, 404);
});

test('bad slots and time zones are 400 with the param', async () => {
  const cases: [unknown, string][] = [
    [{ timezone: 'Mars/Olympus', slots: [] }, 'timezone'],
    [{ timezone: 'UTC', slots: [{ day: 'mon', time: '25:00' }] }, 'slots[0].time'],
    [{ timezone: 'UTC', slots: [{ day: 'someday', time: '09:00' }] }, 'slots[0].day'],
    [{ timezone: 'UTC', slots: [{ day: 'mon', time: '09:00' }, { day: 'mon', time: '09:00' }] }, 'slots[1]'],
  ];
  for (const [body, param] of cases) {
    const res = await w.h.request('PUT', '/v1/queue', { body });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.param, param);
  }
});

test('queue: true takes the next free slot; the next queued post the one after', async () => {
  const { key } = await w.h.newKey();
  const mine = (await connectAccount(w.h, 'twitter', { sandbox_user: 'queuer' }, key)).accountId;
  const q = (await w.h.request('PUT', '/v1/queue', { key, body: { timezone: 'America/New_York', slots: ALL_WEEK } })).body;
  const first = await w.h.request('POST', '/v1/posts', { key, body: { content: 'queued 1', queue: true, platforms: [{ platform: 'twitter', accountId: mine }] } });
  assert.equal(first.status, 201, first.text);
  assert.equal(first.body.status, 'scheduled');
  assert.equal(first.body.scheduledFor, q.upcoming[0]);
  assert.equal(first.body.timezone, 'America/New_York', 'a queued post is read in the queue time zone');
  const second = await w.h.request('POST', '/v1/posts', { key, body: { content: 'queued 2', queue: true, platforms: [{ platform: 'twitter', accountId: mine }] } });
  assert.equal(second.body.scheduledFor, q.upcoming[1]);
  const now = (await w.h.request('GET', '/v1/queue', { key })).body;
  assert.equal(now.upcoming[0], q.upcoming[2], 'taken slots are no longer upcoming');
  // Deleting a queued post frees its slot.
  await w.h.request('DELETE', `/v1/posts/${first.body.id}`, { key });
  assert.equal((await w.h.request('GET', '/v1/queue', { key })).body.upcoming[0], q.upcoming[0]);
});

test('twenty queued creates at once take twenty different slots', async () => {
  const { key } = await w.h.newKey();
  const mine = (await connectAccount(w.h, 'twitter', { sandbox_user: 'crowd' }, key)).accountId;
  await w.h.request('PUT', '/v1/queue', { key, body: { timezone: 'UTC', slots: ALL_WEEK } });
  const created = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      w.h.request('POST', '/v1/posts', { key, body: { content: `crowd ${i}`, queue: true, platforms: [{ platform: 'twitter', accountId: mine }] } }),
    ),
  );
  for (const c of created) assert.equal(c.status, 201, c.text);
  const times = created.map((c) => c.body.scheduledFor);
  assert.equal(new Set(times).size, 20, `distinct slots: ${times.join(', ')}`);
});

test('queue without slots: 400 param queue; queue with another mode: 400; PATCH with queue: true moves a draft to a slot', async () => {
  const { key } = await w.h.newKey();
  const mine = (await connectAccount(w.h, 'twitter', { sandbox_user: 'slotless' }, key)).accountId;
  const target = [{ platform: 'twitter', accountId: mine }];
  const none = await w.h.request('POST', '/v1/posts', { key, body: { content: 'x', queue: true, platforms: target } });
  assert.equal(none.status, 400, none.text);
  assert.equal(none.body.param, 'queue');
  const both = await w.h.request('POST', '/v1/posts', { key, body: { content: 'x', queue: true, publishNow: true, platforms: target } });
  assert.equal(both.status, 400);
  assert.equal(both.body.param, 'publishNow');
  const q = (await w.h.request('PUT', '/v1/queue', { key, body: { timezone: 'UTC', slots: ALL_WEEK } })).body;
  const draft = await w.h.request('POST', '/v1/posts', { key, body: { content: 'draft first', isDraft: true, platforms: target } });
  const moved = await w.h.request('PATCH', `/v1/posts/${draft.body.id}`, { key, body: { queue: true } });
  assert.equal(moved.status, 200, moved.text);
  assert.equal(moved.body.status, 'scheduled');
  assert.equal(moved.body.scheduledFor, q.upcoming[0]);
  assert.ok(x);
});
