// Unpublishing: DELETE /api/v1/statuses/:id for the first comment and the thread's replies (newest first),
// then the post. A
// status already gone counts as deleted; a delete whose answer was lost is checked by reading the status.
import { type Outcome, type UnpublishRequest } from '../types.ts';
import { instanceOf, isFailure } from './client.ts';
import { readCheckpoint } from './checkpoint.ts';
import type { PublishDeps } from './publish.ts';
import { deleteStatus, type Session } from './statuses.ts';

export async function unpublishMastodon(p: PublishDeps, request: UnpublishRequest): Promise<Outcome<{ deleted: true }>> {
  const instance = instanceOf(request.account);
  if (isFailure(instance)) return instance;
  const s: Session = { deps: p.deps, instance, token: request.account.accessToken };
  const cp = readCheckpoint(request.checkpoint);
  const replies = (cp?.posted ?? []).slice(1).filter((id) => id !== request.platformPostId);
  // The first comment is a reply that would outlive the post: it is the newest, so it goes first.
  if (request.platformCommentId) replies.push(request.platformCommentId);
  replies.reverse();
  for (const [i, id] of replies.entries()) {
    const r = await deleteStatus(s, id, `Mastodon did not delete reply ${replies.length - i} of the thread`);
    if (!r.ok) return r;
  }
  const r = await deleteStatus(s, request.platformPostId, 'Mastodon did not delete the post');
  return r.ok ? { ok: true, deleted: true } : r;
}
