// First comments (platformSpecificData.firstComment, API.md section 12): posted by the same account once
// its target is published, through the platform's comment capability. A comment is a platform write like
// a publish and follows the same rules: it is claimed (own attempt id and lease) before the platform is
// called, checkpointed, and an outcome that cannot be known is asked about (capability.find) before
// anything is sent again. It never touches its target: a failed comment leaves the target published, and
// a retry sends only the comment.
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { CredentialsService } from '../accounts/credentials.ts';
import type { AccountRow, Database, DbTx, PostRow, TargetRow } from '../db/schema.ts';
import type { Writer } from '../db/writer.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { Clock } from '../lib/clock.ts';
import { newAttemptId } from '../lib/ids.ts';
import { createHeartbeat } from '../lib/heartbeat.ts';
import { fromJson } from '../lib/json.ts';
import type { Platform, PlatformRegistry } from '../platforms/registry.ts';
import { failure, StaleAttemptError, type CommentRequest, type PlatformFailure } from '../platforms/types.ts';
import { commentOfUnpublished } from '../posts/posts-dal.ts';
import type { PostSettings } from '../posts/post-settings.ts';
import { targetContent } from '../posts/target-content.ts';
import { decide, isPermanent, type RetryPolicy } from './policy.ts';

/** The first comment a target asks for (its merged settings' firstComment), or null. */
export function firstCommentOf(settings: Record<string, unknown>): string | null {
  const text = settings.firstComment;
  return typeof text === 'string' && text.trim() !== '' ? text : null;
}

type CommentFinish =
  | { kind: 'published'; commentId: string }
  | { kind: 'failed'; code: string; message: string; needsReconcile: number }
  | { kind: 'retry'; at: number; code: string; message: string; needsReconcile: number };

export function createCommentRunner(deps: {
  db: Kysely<Database>;
  write: Writer['write'];
  /** For the single-statement writes (heartbeats, checkpoints); default write. */
  writeOne?: Writer['writeOne'];
  clock: Clock;
  log: Logger;
  queue: JobQueue;
  adapters: PlatformRegistry;
  credentials: CredentialsService;
  policy: RetryPolicy;
  leaseMs: number;
}) {
  const { db, write, clock, log, queue, adapters, credentials, policy, leaseMs } = deps;
  const writeOne = deps.writeOne ?? write;
  // A comment call may outlast the lease (up to the platform time-out): its lease is renewed meanwhile.
  const heartbeat = createHeartbeat({
    everyMs: Math.floor(leaseMs / 3),
    renew: async (held) => {
      const now = clock.now();
      const rows = await writeOne((trx) =>
        trx
          .updateTable('post_targets')
          .set({ comment_lease_expires_at: now + leaseMs })
          .where('id', 'in', held.map((h) => h.ref))
          .where('comment_attempt_id', 'in', held.map((h) => h.id))
          .where('comment_status', '=', 'publishing')
          .returning('comment_attempt_id')
          .execute(),
      );
      return new Set(rows.map((r) => r.comment_attempt_id!));
    },
    onError: (err) => log.warn({ err }, 'could not renew first-comment leases; trying again'),
    lost: () => new StaleAttemptError(),
  });

  type Claimed =
    | null
    | { kind: 'later'; at: number }
    | { kind: 'claimed'; attemptId: string; target: TargetRow; post: PostRow };

  /** Takes the comment of a published target; null when there is nothing (due) to do. */
  async function claim(targetId: string, now: number): Promise<Claimed> {
    return write(async (trx): Promise<Claimed> => {
      const target = await trx.selectFrom('post_targets').selectAll().where('id', '=', targetId).executeTakeFirst();
      if (!target || target.comment_status === null) return null;
      if (target.comment_status === 'published' || target.comment_status === 'failed') return null;
      if (target.status !== 'published') {
        // Unpublished while its comment waited (or was in flight and came back to be tried again): there
        // is nothing left to reply to. Settled here, or the sweep would bring the job back forever. One in
        // flight now is left to finish (its lease says so).
        if (target.comment_status === 'publishing' && (target.comment_lease_expires_at ?? 0) > now) return null;
        await trx.updateTable('post_targets').set(commentOfUnpublished).where('id', '=', targetId).execute();
        return null;
      }
      let needsReconcile = target.comment_needs_reconcile;
      if (target.comment_status === 'publishing') {
        if ((target.comment_lease_expires_at ?? 0) > now) return { kind: 'later', at: target.comment_lease_expires_at! + 1000 };
        // The attempt that held it vanished mid-call: what it sent must be found before anything else.
        needsReconcile = Math.max(1, needsReconcile);
      } else if ((target.comment_next_attempt_at ?? 0) > now + 50) {
        return { kind: 'later', at: target.comment_next_attempt_at! };
      }
      const attemptId = newAttemptId();
      const attempts = target.comment_status === 'publishing' ? target.comment_attempts : target.comment_attempts + 1;
      await trx
        .updateTable('post_targets')
        .set({
          comment_status: 'publishing',
          comment_attempt_id: attemptId,
          comment_lease_expires_at: now + leaseMs,
          comment_attempts: attempts,
          comment_needs_reconcile: needsReconcile,
          comment_started_at: needsReconcile > 0 ? target.comment_started_at : now,
        })
        .where('id', '=', targetId)
        .execute();
      const post = await trx.selectFrom('posts').selectAll().where('id', '=', target.post_id).executeTakeFirstOrThrow();
      return { kind: 'claimed', attemptId, target: { ...target, comment_attempts: attempts, comment_needs_reconcile: needsReconcile }, post };
    });
  }

  async function saveCheckpoint(targetId: string, attemptId: string, checkpoint: Record<string, unknown> | null, now: number) {
    const r = await writeOne((trx) =>
      trx
        .updateTable('post_targets')
        .set({ comment_lease_expires_at: now + leaseMs, ...(checkpoint ? { comment_checkpoint: JSON.stringify(checkpoint) } : {}) })
        .where('id', '=', targetId)
        .where('comment_attempt_id', '=', attemptId)
        .where('comment_status', '=', 'publishing')
        .executeTakeFirst(),
    );
    if (Number(r.numUpdatedRows) !== 1) throw new StaleAttemptError();
  }

  async function finish(targetId: string, attemptId: string, result: CommentFinish): Promise<void> {
    await write(async (trx) => {
      const released = { comment_attempt_id: null, comment_lease_expires_at: null };
      const set =
        result.kind === 'published'
          ? { ...released, comment_status: 'published' as const, comment_id: result.commentId, comment_error: null, comment_error_code: null, comment_needs_reconcile: 0, comment_next_attempt_at: null }
          : result.kind === 'failed'
            ? { ...released, comment_status: 'failed' as const, comment_error: result.message, comment_error_code: result.code, comment_needs_reconcile: result.needsReconcile, comment_next_attempt_at: null }
            : { ...released, comment_status: 'pending' as const, comment_error: result.message, comment_error_code: result.code, comment_needs_reconcile: result.needsReconcile, comment_next_attempt_at: result.at };
      const r = await trx.updateTable('post_targets').set(set).where('id', '=', targetId).where('comment_attempt_id', '=', attemptId).executeTakeFirst();
      if (Number(r.numUpdatedRows) === 1 && result.kind === 'retry') await queue.enqueue(trx, [{ queue: 'publish-comment', payload: { targetId }, runAt: result.at }]);
    });
  }

  async function loadAccount(target: TargetRow): Promise<AccountRow | undefined> {
    return db
      .selectFrom('accounts')
      .selectAll()
      .where('api_key_id', '=', target.api_key_id)
      .where('platform', '=', target.platform)
      .where('account_id', '=', target.account_id)
      .executeTakeFirst();
  }

  function onFailure(f: PlatformFailure, attempts: number, reconciles: number): CommentFinish {
    const d = decide(policy, f, attempts, reconciles, clock.now());
    if (d.kind === 'reconcile') return { kind: 'retry', at: d.at, code: 'outcome_unknown', message: `outcome unknown, checking with the platform: ${f.message}`, needsReconcile: reconciles + 1 };
    if (d.kind === 'retry') return { kind: 'retry', at: d.at, code: f.category, message: `will retry: ${f.message}`, needsReconcile: 0 };
    return { kind: 'failed', code: f.category, message: f.message, needsReconcile: f.category === 'outcome_unknown' ? Math.max(1, reconciles) : 0 };
  }

  async function run(target: TargetRow, post: PostRow, attemptId: string): Promise<CommentFinish> {
    const adapter = adapters[target.platform as Platform];
    const capability = adapter.comment;
    const settings = targetContent({
      platform: target.platform as Platform,
      content: post.content,
      media: [],
      postSettings: fromJson<PostSettings | null>(post.post_settings, null) ?? {},
      customContent: target.custom_content,
      customMedia: null,
      platformSpecificData: fromJson<Record<string, unknown> | null>(target.platform_specific_data, null),
    }).settings;
    const text = firstCommentOf(settings);
    if (!capability || !text) return { kind: 'failed', code: 'internal', message: 'this target has no first comment to post', needsReconcile: 0 };
    const row = await loadAccount(target);
    if (!row) return { kind: 'failed', code: 'account_disconnected', message: `the ${target.platform} account ${target.account_id} was disconnected`, needsReconcile: target.comment_needs_reconcile };
    let cred = await credentials.forAccount(row);
    if (!cred.ok) return { kind: 'failed', code: 'auth_expired', message: cred.failure.message, needsReconcile: target.comment_needs_reconcile };

    const request: CommentRequest = {
      account: cred.creds,
      platformPostId: target.platform_post_id!,
      content: text,
      settings,
      checkpoint: fromJson<Record<string, unknown> | null>(target.comment_checkpoint, null),
      saveCheckpoint: async (checkpoint) => {
        await saveCheckpoint(target.id, attemptId, checkpoint, clock.now());
        request.checkpoint = checkpoint;
      },
      attemptStartedAt: target.comment_started_at ?? clock.now(),
    };
    const withRefresh = async <T extends { ok: boolean }>(call: () => Promise<T | PlatformFailure>) => {
      const first = await call();
      if (first.ok || (first as PlatformFailure).category !== 'auth_expired') return first;
      cred = await credentials.refreshAfterAuthFailure(row);
      if (!cred.ok) return first;
      request.account = cred.creds;
      return call();
    };

    const reconciles = target.comment_needs_reconcile;
    if (reconciles > 0) {
      const found = await withRefresh(() => capability.find(request));
      if (!found.ok) {
        const f = found as PlatformFailure;
        if (!isPermanent(f.category)) return onFailure(failure('outcome_unknown', f.message), target.comment_attempts, reconciles);
        // The question stays open: whatever comes next (a retry) asks again before it sends.
        return { kind: 'failed', code: f.category, message: f.message, needsReconcile: reconciles };
      }
      if (found.found === true) return { kind: 'published', commentId: found.platformCommentId };
      if (found.found === 'unknown') return onFailure(failure('outcome_unknown', found.message), target.comment_attempts, reconciles);
    }
    const sent = await withRefresh(() => capability.send(request));
    if (sent.ok) return { kind: 'published', commentId: sent.platformCommentId };
    return onFailure(sent, target.comment_attempts, 0);
  }

  return {
    /** The publish-comment job. */
    async process(targetId: string): Promise<void> {
      const claimed = await claim(targetId, clock.now());
      if (!claimed) return;
      if (claimed.kind === 'later') {
        await write((trx) => queue.enqueue(trx, [{ queue: 'publish-comment', payload: { targetId }, runAt: claimed.at }]));
        return;
      }
      let result: CommentFinish;
      heartbeat.add(claimed.attemptId, targetId);
      try {
        result = await run(claimed.target, claimed.post, claimed.attemptId);
      } catch (err) {
        if (err instanceof StaleAttemptError) {
          heartbeat.remove(claimed.attemptId);
          return;
        }
        log.error({ err, targetId }, 'first comment attempt failed unexpectedly');
        // It may have reached the platform: ask before sending again.
        result = onFailure(failure('outcome_unknown', 'internal error while posting the first comment'), claimed.target.comment_attempts, claimed.target.comment_needs_reconcile);
      }
      await finish(targetId, claimed.attemptId, result).finally(() => heartbeat.remove(claimed.attemptId));
      log.info({ targetId, result: result.kind }, 'first comment attempt finished');
    },

    /** The recovery sweep's part for comments: those whose attempt vanished or whose job went missing. */
    async sweep(): Promise<number> {
      const now = clock.now();
      const ids = await orphans(now, Math.max(5_000, 2 * leaseMs), 500);
      if (ids.length > 0) await write((trx) => queue.enqueue(trx, ids.map((targetId) => ({ queue: 'publish-comment' as const, payload: { targetId }, runAt: now }))));
      return ids.length;
    },
  };

  async function orphans(now: number, graceMs: number, limit: number): Promise<string[]> {
      const rows = await db
        .selectFrom('post_targets')
        .select('id')
        .where((eb) =>
          eb.or([
            eb.and([eb('comment_status', '=', 'publishing'), eb('comment_lease_expires_at', '<', now)]),
            eb.and([eb('comment_status', '=', 'pending'), eb('comment_next_attempt_at', '<', now - graceMs)]),
          ]),
        )
        .limit(limit)
        .execute();
      return rows.map((r) => r.id);
  }
}

/** Inside the transaction that marks a target published: its first comment becomes due now. */
export async function scheduleFirstComment(trx: DbTx, queue: JobQueue, targetId: string, now: number): Promise<void> {
  await trx
    .updateTable('post_targets')
    .set({ comment_status: 'pending', comment_next_attempt_at: now, comment_attempts: 0, comment_needs_reconcile: 0, comment_checkpoint: null, comment_id: null, comment_error: null, comment_error_code: null })
    .where('id', '=', targetId)
    .execute();
  await queue.enqueue(trx, [{ queue: 'publish-comment', payload: { targetId } }]);
}

export type CommentRunner = ReturnType<typeof createCommentRunner>;
