// Per-account publishing limits under concurrency: attempts in flight count, so two posts racing for
// the last slot of a window do not both go out.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connectAccount } from '../helpers/connect.ts';
import { posted, startWorld, type World } from '../helpers/e2e.ts';

let w: World;
before(async () => {
  w = await startWorld();
});
after(() => w.close());

test('two posts racing for the last slot of X’s 15-minute window: one is sent, the other waits', async () => {
  const busy = await connectAccount(w.h, 'twitter', { sandbox_user: 'almost_full' });
  const db = w.h.runtime.db.kysely;
  // 99 of the 100 posts X allows per 15 minutes, as Herald recorded them.
  const seed = await w.h.request('POST', '/v1/posts', { body: { content: 'seed', isDraft: true, platforms: [{ platform: 'twitter', accountId: busy.accountId }] } });
  const template = await db.selectFrom('post_targets').selectAll().where('post_id', '=', seed.body.id).executeTakeFirstOrThrow();
  const now = Date.now();
  await db
    .insertInto('post_targets')
    .values(Array.from({ length: 99 }, (_, i) => ({ ...template, id: `tgt_full${i}`, position: i + 1, status: 'published' as const, published_at: now - 10 * 60_000 + i * 1000, platform_post_id: `full${i}` })))
    .execute();
  // X answers slowly, so both attempts are in flight together.
  w.emu('twitter').faults.add({ kind: 'slow', method: 'POST', path: '/2/tweets', delayMs: 400, count: 2 });
  const stamp = Date.now();
  const created = await Promise.all(
    ['a', 'b'].map((n) => w.h.request('POST', '/v1/posts', { body: { publishNow: true, content: `last slot ${n} ${stamp}`, platforms: [{ platform: 'twitter', accountId: busy.accountId }] } })),
  );
  assert.deepEqual(created.map((r) => r.status), [201, 201]);
  const targets = created.map((r) => r.body.platforms[0]);
  assert.deepEqual(targets.map((t) => t.status).sort(), ['pending', 'published'], JSON.stringify(targets));
  const waiting = targets.find((t) => t.status === 'pending');
  assert.equal(waiting.errorCode, 'rate_limited');
  assert.match(waiting.error, /publishing limit/);
  const sent = posted(w.emu('twitter'), { accountId: busy.accountId }).filter((e) => e.text?.startsWith('last slot'));
  assert.equal(sent.length, 1);
});
