// A post's status follows from its targets (API.md section 5). Kept pure so every write path agrees.
import type { PostStatus, TargetStatus } from '../db/schema.ts';

export interface TargetState {
  status: TargetStatus;
  attempts: number;
}

export function derivePostStatus(post: { is_draft: number; scheduled_for: number | null }, targets: readonly TargetState[]): PostStatus {
  if (post.is_draft === 1) return 'draft';
  const running = targets.filter((t) => t.status === 'pending' || t.status === 'publishing');
  if (running.length > 0) {
    const untouched = running.length === targets.length && targets.every((t) => t.status === 'pending' && t.attempts === 0);
    return untouched && post.scheduled_for !== null ? 'scheduled' : 'publishing';
  }
  const published = targets.filter((t) => t.status === 'published').length;
  if (published === targets.length) return 'published';
  if (published === 0) return 'failed';
  return 'partial';
}

export const FINAL_POST_STATUSES: ReadonlySet<PostStatus> = new Set(['published', 'partial', 'failed']);
