// POST /v1/posts/{id}/retry: publishes the failed targets again, exactly like publishNow, and posts the
// failed first comments of published targets again (only the comment). Published targets are never
// touched.
import type { Writer } from '../db/writer.ts';
import { errors } from '../contract/errors.ts';
import type { Clock } from '../lib/clock.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { PostsDal } from '../posts/posts-dal.ts';
import type { PostOut } from '../posts/schemas.ts';
import { settlePostStatus } from '../posts/status.ts';
import type { PublishingEngine } from './engine.ts';

export function createRetryService(deps: {
  write: Writer['write'];
  clock: Clock;
  posts: PostsDal;
  queue: JobQueue;
  engine: Pick<PublishingEngine, 'startNow' | 'waitUntilSettled' | 'fallbackDelayMs'>;
  publishWaitMs: number;
  get(apiKeyId: string, postId: string): Promise<PostOut>;
}) {
  const { write, clock, posts, queue, engine } = deps;
  return {
    async retry(apiKeyId: string, postId: string): Promise<PostOut> {
      const now = clock.now();
      const retried = await write(async (trx) => {
        const found = await posts.getForUpdate(trx, postId);
        if (!found || found.post.api_key_id !== apiKeyId) throw errors.notFound(`no post ${postId}`);
        if (found.targets.some((t) => t.status === 'publishing')) {
          throw errors.conflict(`post ${postId} has a target being published right now; retry once it is final`);
        }
        const failed = found.targets.filter((t) => t.status === 'failed');
        const failedComments = found.targets.filter((t) => t.status === 'published' && t.comment_status === 'failed');
        if (failed.length === 0 && failedComments.length === 0) throw errors.conflict(`post ${postId} has nothing failed to retry`, 'NO_FAILED_TARGETS');
        for (const t of failedComments) {
          // An unknown outcome stays one: the comment runner asks the platform before sending again.
          await trx
            .updateTable('post_targets')
            .set({ comment_status: 'pending', comment_attempts: 0, comment_next_attempt_at: now, comment_error: null, comment_error_code: null })
            .where('id', '=', t.id)
            .execute();
        }
        await queue.enqueue(trx, failedComments.map((t) => ({ queue: 'publish-comment' as const, payload: { targetId: t.id } })));
        if (failed.length === 0) return [];
        const ids = failed.map((t) => t.id);
        // A target whose earlier outcome is unknown may be on the platform already: its retry asks first
        // (and publishes only if the platform shows nothing), with a fresh budget of askings.
        const unknown = (t: (typeof failed)[number]) => t.error_code === 'outcome_unknown' || t.needs_reconcile > 0;
        for (const [group, needsReconcile] of [[failed.filter(unknown), 1], [failed.filter((t) => !unknown(t)), 0]] as const) {
          if (group.length === 0) continue;
          await trx
            .updateTable('post_targets')
            .set({
              status: 'pending',
              // A retry is a new run with a fresh budget; attempts counts the attempts of the current run.
              attempts: 0,
              error: null,
              error_code: null,
              attempt_id: null,
              lease_expires_at: null,
              needs_reconcile: needsReconcile,
              next_attempt_at: now,
              updated_at: now,
            })
            .where('id', 'in', group.map((t) => t.id))
            .execute();
        }
        await settlePostStatus(trx, found.post, now);
        await queue.enqueue(trx, [{ queue: 'publish-post', payload: { postId }, runAt: now + engine.fallbackDelayMs }]);
        return ids;
      });
      queue.nudge();
      if (retried.length > 0) {
        engine.startNow(postId, retried);
        await engine.waitUntilSettled(postId, deps.publishWaitMs);
      }
      return deps.get(apiKeyId, postId);
    },
  };
}

export type RetryService = ReturnType<typeof createRetryService>;
