// Per-account publishing limits (X allows 100 posts per 15 minutes per user): a target over the limit
// waits for the window instead of failing, and attempts in flight hold slots, so two posts racing for
// the last slot of a window do not both go out.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createLimits } from '../../src/publishing/limits.ts';
import { StaleAttemptError } from '../../src/platforms/types.ts';
import { connectAccount } from '../helpers/connect.ts';
import { posted, publishNow, startWorld, type World } from '../helpers/e2e.ts';

let w: World;
before(async () => {
  w = await startWorld();
});
after(() => w.close());

/** `count` posts of the account as Herald recorded them, published one a second from `firstAt`. */
async function seedPublished(accountId: string, count: number, firstAt: number): Promise<void> {
  const db = w.h.runtime.db.writable;
  const seed = await w.h.request('POST', '/v1/posts', { body: { content: 'seed', isDraft: true, platforms: [{ platform: 'twitter', accountId }] } });
  const template = await db.selectFrom('post_targets').selectAll().where('post_id', '=', seed.body.id).executeTakeFirstOrThrow();
  await db
    .insertInto('post_targets')
    .values(
      Array.from({ length: count }, (_, i) => ({
        ...template,
        id: `${template.id}_${i}`,
        position: i + 1,
        status: 'published' as const,
        published_at: firstAt + i * 1000,
        platform_post_id: `${accountId}_${i}`,
      })),
    )
    .execute();
}

test('an account over its publishing limit waits for the window instead of failing', async () => {
  const busy = await connectAccount(w.h, 'twitter', { sandbox_user: 'prolific' });
  const firstAt = Date.now() - 14 * 60_000;
  await seedPublished(busy.accountId, 100, firstAt);
  const post = await publishNow(w.h, { content: `one too many ${Date.now()}`, platforms: [{ platform: 'twitter', accountId: busy.accountId }] });
  assert.equal(post.status, 'publishing');
  const t = post.platforms[0];
  assert.equal(t.status, 'pending');
  assert.equal(t.errorCode, 'rate_limited');
  assert.match(t.error, /publishing limit/);
  // The window frees when the oldest of the 100 leaves it.
  assert.ok(Math.abs(Date.parse(t.nextAttemptAt) - (firstAt + 15 * 60_000)) < 5000, t.nextAttemptAt);
  assert.equal(posted(w.emu('twitter'), { text: post.content }).length, 0, 'nothing sent over the limit');
});

test('two posts racing for the last slot of X’s 15-minute window: one is sent, the other waits', async () => {
  const busy = await connectAccount(w.h, 'twitter', { sandbox_user: 'almost_full' });
  await seedPublished(busy.accountId, 99, Date.now() - 10 * 60_000);
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

/** A target of the account claimed by an attempt (as attempts.claim leaves it), started at `startedAt`. */
async function claimedTarget(accountId: string, attemptId: string, startedAt: number): Promise<string> {
  const draft = await w.h.request('POST', '/v1/posts', { body: { content: `claimed ${attemptId}`, isDraft: true, platforms: [{ platform: 'twitter', accountId }] } });
  const db = w.h.runtime.db.writable;
  const { id: targetId } = await db.selectFrom('post_targets').select('id').where('post_id', '=', draft.body.id).executeTakeFirstOrThrow();
  await db
    .updateTable('post_targets')
    .set({ status: 'publishing', attempt_id: attemptId, attempt_started_at: startedAt, lease_expires_at: Date.now() + 60_000 })
    .where('id', '=', targetId)
    .execute();
  return targetId;
}

/** X's window (100 per 15 minutes) for a fresh account with `room` slots left, and a way to ask for one. */
async function xAccountWithRoom(sandboxUser: string, room: number) {
  const { db } = w.h.runtime;
  const limits = createLimits({ write: db.write, dialect: db.dialect });
  const { accountId } = await connectAccount(w.h, 'twitter', { sandbox_user: sandboxUser });
  await seedPublished(accountId, 100 - room, Date.now() - 10 * 60_000);
  return {
    accountId,
    take: (targetId: string, attemptId: string) => limits.takeSlot({ targetId, attemptId, platform: 'twitter', accountId }, [{ max: 100, windowMs: 15 * 60_000 }], Date.now()),
  };
}

test('slots are taken one at a time under the account lock, whatever order the attempts started in', async () => {
  const { accountId, take } = await xAccountWithRoom('slot_order', 1);

  // The attempt that started later asks first (its claim committed first) and gets the last slot; the
  // one that started earlier must then wait, not count itself ahead of it.
  const earlier = await claimedTarget(accountId, 'att_earlier', Date.now() - 1000);
  const later = await claimedTarget(accountId, 'att_later', Date.now());
  // An attempt that lost its target takes nothing.
  await assert.rejects(take(later, 'att_gone'), StaleAttemptError);
  assert.equal(await take(later, 'att_later'), null);
  const waitUntil = await take(earlier, 'att_earlier');
  assert.ok(typeof waitUntil === 'number' && waitUntil > Date.now(), String(waitUntil));

  // A slot lapses with the lease of an attempt that died holding it.
  await w.h.runtime.db.writable.updateTable('post_targets').set({ lease_expires_at: Date.now() - 1 }).where('id', '=', later).execute();
  assert.equal(await take(earlier, 'att_earlier'), null);
});

test('of many attempts asking at once for the last two slots, exactly two get one', async () => {
  const { accountId, take } = await xAccountWithRoom('slot_rush', 2);
  const ids = Array.from({ length: 8 }, (_, i) => `att_rush_${i}`);
  const targets = await Promise.all(ids.map((id, i) => claimedTarget(accountId, id, Date.now() - i)));
  const answers = await Promise.all(targets.map((targetId, i) => take(targetId, ids[i]!)));
  assert.equal(answers.filter((a) => a === null).length, 2, JSON.stringify(answers));
  const holders = await w.h.runtime.db.writable.selectFrom('post_targets').select('id').where('id', 'in', targets).where('holds_limit_slot', '=', 1).execute();
  assert.equal(holders.length, 2);
});
