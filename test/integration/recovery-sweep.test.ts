// The recovery sweep (PublishingEngine.sweep) re-queues a pending target whose job went missing, but not a
// target that is merely waiting its turn behind a backlog: late is measured from the oldest publishing
// job still waiting in the queue, not from now, so a worker that is behind is not handed a second job
// for every target it has not reached yet. An API-only Herald (no worker takes the jobs) on a clock the
// test moves.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createEmulators } from '../../src/sandbox/index.ts';
import { startEmulatorServer, type EmulatorServer } from '../../src/sandbox/server.ts';
import { testClock } from '../helpers/clock.ts';
import { connectAccount } from '../helpers/connect.ts';
import { startHerald, type TestHerald } from '../helpers/herald.ts';

let server: EmulatorServer;
let h: TestHerald;
const clock = testClock();

before(async () => {
  server = await startEmulatorServer(createEmulators({ processingMs: 0 }));
  h = await startHerald({ role: 'api', emulators: server, clock, leaseMs: 2_000 });
});
after(async () => {
  await h.close();
  await server.close();
});

test('a late target behind a backlog waits its turn; once no older job waits, a target without a job is re-queued', async () => {
  const { accountId } = await connectAccount(h, 'twitter', { sandbox_user: 'sweep' });
  const ids: string[] = [];
  for (let i = 1; i <= 2; i++) {
    const res = await h.request('POST', '/v1/posts', {
      body: { content: `sweep ${i} ${Date.now()}`, scheduledFor: new Date(clock.now() + 60_000 * i).toISOString(), platforms: [{ platform: 'twitter', accountId }] },
    });
    assert.equal(res.status, 201, res.text);
    ids.push(res.body.id);
  }
  const { kysely } = h.runtime.db;
  // The second post's job is lost; the first post's job still waits (no worker runs here).
  await h.runtime.db.write((trx) => trx.deleteFrom('jobs').where('payload', '=', JSON.stringify({ postId: ids[1] })).execute());
  // Both posts are long overdue.
  clock.advance(10 * 60_000);
  assert.equal(await h.runtime.engine.sweep(), 0, 'the second target is due after a job still waiting: not lost');

  // The first post's job is gone too: nothing older waits, so both targets are re-queued.
  await h.runtime.db.write((trx) => trx.deleteFrom('jobs').where('payload', '=', JSON.stringify({ postId: ids[0] })).execute());
  assert.equal(await h.runtime.engine.sweep(), 2);
  const requeued = await kysely.selectFrom('jobs').select('payload').where('queue', '=', 'publish-target').execute();
  assert.equal(requeued.length, 2);
});
