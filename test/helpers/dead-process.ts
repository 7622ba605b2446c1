// The rows a Herald process leaves behind when it dies mid-work, written directly, so crash tests need
// not kill anything: whatever happens next must come from recovery (lease expiry, the recovery sweep).
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Db } from '../../src/db/database.ts';
import type { Database } from '../../src/db/schema.ts';

/**
 * Every open target of the post as a publish attempt leaves it when its process dies mid-attempt:
 * claimed (status `publishing`, an attempt id, the attempt counted, its start time) under a lease that
 * has run out, and the post `publishing`, its time come when the attempt started. Returns the target ids.
 */
export async function abandonAttempt(db: Kysely<Database>, postId: string, startedAt: number): Promise<string[]> {
  const targets = await db.selectFrom('post_targets').selectAll().where('post_id', '=', postId).where('status', 'in', ['pending', 'publishing']).execute();
  const now = Date.now();
  for (const t of targets) {
    await db
      .updateTable('post_targets')
      .set({
        status: 'publishing',
        attempt_id: randomUUID(),
        lease_expires_at: now - 1,
        attempts: t.attempts + 1,
        attempt_started_at: startedAt,
        next_attempt_at: startedAt,
        updated_at: startedAt,
      })
      .where('id', '=', t.id)
      .execute();
  }
  const post = await db.selectFrom('posts').select('scheduled_for').where('id', '=', postId).executeTakeFirstOrThrow();
  await db
    .updateTable('posts')
    .set({ status: 'publishing', scheduled_for: post.scheduled_for === null ? null : startedAt, updated_at: startedAt })
    .where('id', '=', postId)
    .execute();
  return targets.map((t) => t.id);
}

/** Publish jobs a worker holds right now (claimed, not finished). */
export async function heldPublishJobs(db: Db): Promise<number> {
  const r = await db.kysely
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('state', '=', 'active')
    .where('queue', 'like', 'publish-%')
    .executeTakeFirstOrThrow();
  return Number(r.n);
}
