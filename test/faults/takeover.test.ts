// Short leases and calls still in flight. A process that died mid-call may have sent a request the
// platform has not answered yet; its lease (seconds) ends long before that request's time-out. The
// attempt that takes the target over asks the platform first, and a "not there" is trusted only once
// the dead call can no longer be answered: until then the target waits (asked about again later,
// without using up an asking), and nothing is sent.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { testClock } from '../helpers/clock.ts';
import { connectAccount } from '../helpers/connect.ts';
import { abandonAttempt } from '../helpers/dead-process.ts';
import { posted, startWorld, waitFinal, type World } from '../helpers/e2e.ts';
import { until } from '../helpers/wait.ts';

const clock = testClock();
let w: World;
// The harness lease is 5 s; a platform call may take up to 10 minutes here.
before(async () => {
  w = await startWorld({ clock, env: { HERALD_PLATFORM_TIMEOUT_MS: '600000' } });
});
after(() => w.close());

test('a target taken over from a dead attempt is not sent while the dead call could still be answered', async () => {
  const x = w.emu('twitter');
  const { accountId } = await connectAccount(w.h, 'twitter', { sandbox_user: 'in_flight' });
  const content = `in flight ${Date.now()}`;
  const created = await w.h.request('POST', '/v1/posts', { body: { content, scheduledFor: new Date(Date.now() + 3_600_000).toISOString(), platforms: [{ platform: 'twitter', accountId }] } });
  assert.equal(created.status, 201, created.text);
  const since = Date.now();
  // Its process died just now, its lease just over; whatever it sent to X may still be on its way.
  await abandonAttempt(w.h.runtime.db.writable, created.body.id, clock.now() - 1_000);

  // Recovery takes it over and asks X, which has nothing (yet): the target waits, nothing is sent.
  const waiting = await until('the takeover to ask X and wait', async () => {
    const post = (await w.h.request('GET', `/v1/posts/${created.body.id}`)).body;
    const t = post.platforms[0];
    return t.status === 'pending' && t.errorCode === 'outcome_unknown' ? { post, sends: x.calls.filter((c) => c.at >= since && c.method === 'POST' && c.path === '/2/tweets').length } : undefined;
  });
  assert.equal(waiting.sends, 0, 'nothing sent while the dead call could still be answered');
  assert.ok(x.calls.some((c) => c.at >= since && c.method === 'GET'), 'X was asked');
  assert.match(waiting.post.platforms[0].error, /may still be answered/);

  // Once that call's time-out has passed, "not there" is an answer: published, once.
  clock.advance(600_000);
  const done = await waitFinal(w.h, created.body.id);
  assert.equal(done.status, 'published', JSON.stringify(done));
  assert.equal(posted(x, { text: content }).length, 1);
});
