// A post's status follows from its targets (API.md section 5). Kept pure so every write path agrees, and
// one function writes it (settlePostStatus), so every path also announces post.completed the same way.
import type { DbTx } from '../db/schema.ts';
import type { PostRow, PostStatus, TargetRow, TargetStatus } from '../db/schema.ts';
import { postCompleted, type CatalogEvent } from '../events/catalog.ts';
import { presentTarget } from './present.ts';
import { prepare } from '../db/prepared.ts';

// Written whenever a post's status moves (every claim and write-back): built and compiled once.
const setStatus = prepare<[PostStatus, number, number | null, string]>(4, (db, status, updatedAt, publishedAt, postId) =>
  db.updateTable('posts').set({ status, updated_at: updatedAt, published_at: publishedAt }).where('id', '=', postId),
);

export interface TargetState {
  status: TargetStatus;
  attempts: number;
}

/** `scheduled` until the post's time has come and no attempt has started; then it is publishing. */
export function derivePostStatus(post: { is_draft: number; scheduled_for: number | null }, targets: readonly TargetState[], now: number): PostStatus {
  if (post.is_draft === 1) return 'draft';
  const running = targets.filter((t) => t.status === 'pending' || t.status === 'publishing');
  if (running.length > 0) {
    const untouched = running.length === targets.length && targets.every((t) => t.status === 'pending' && t.attempts === 0);
    return untouched && post.scheduled_for !== null && post.scheduled_for > now ? 'scheduled' : 'publishing';
  }
  // An unpublished target was published (then taken down on purpose): it counts as published.
  const published = targets.filter((t) => t.status === 'published' || t.status === 'unpublished').length;
  if (published === targets.length) return 'published';
  if (published === 0) return 'failed';
  return 'partial';
}

export const FINAL_POST_STATUSES: ReadonlySet<PostStatus> = new Set(['published', 'partial', 'failed']);

/**
 * Recomputes a post's status from its targets inside the caller's transaction, and returns the events
 * the change announces (post.completed when it becomes final). `known`: the post's targets as this
 * transaction left them, when the caller has them (read under the post's lock); else they are read.
 */
export async function settlePostStatus(trx: DbTx, post: PostRow, now: number, known?: readonly TargetRow[]): Promise<CatalogEvent[]> {
  const targets = known ?? (await trx.selectFrom('post_targets').selectAll().where('post_id', '=', post.id).orderBy('position').execute());
  const { written, events } = sendPostStatus(trx, post, now, targets);
  await written;
  return events;
}

/** Where a post's status moves once its targets are `targets` (null: it stays), and what that announces. */
export function nextPostStatus(post: PostRow, now: number, targets: readonly TargetRow[]): { status: PostStatus; publishedAt: number | null; events: CatalogEvent[] } | null {
  const status = derivePostStatus(post, targets, now);
  if (status === post.status) return null;
  const becameFinal = FINAL_POST_STATUSES.has(status) && !FINAL_POST_STATUSES.has(post.status);
  const publishedAt = becameFinal && targets.some((t) => t.status === 'published') ? now : post.published_at;
  return { status, publishedAt, events: becameFinal ? [postCompleted({ postId: post.id, status, platforms: targets.map(presentTarget) })] : [] };
}

/**
 * settlePostStatus for a caller that has the targets and sends its statements together: the update (if
 * the status moves) is sent at once, and its promise returned beside the events, for the caller to wait on.
 */
export function sendPostStatus(trx: DbTx, post: PostRow, now: number, targets: readonly TargetRow[]): { written: Promise<unknown> | null; events: CatalogEvent[] } {
  const next = nextPostStatus(post, now, targets);
  if (!next) return { written: null, events: [] };
  return { written: setStatus.execute(trx, next.status, now, next.publishedAt, post.id), events: next.events };
}
