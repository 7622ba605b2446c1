// Taking a post down: DELETE /{threads-media-id} (needs threads_delete; Threads allows 100 deletes per
// profile per day) for the post, each thread item after it and the first comment, newest first, so a reply is never left
// pointing at nothing mid-way. The items come from the publish checkpoint. A post Threads no longer has
// counts as deleted; a lost answer is safe to send again.
import type { AdapterDeps } from '../deps.ts';
import { graphOk, parseGraphError } from '../meta/graph-errors.ts';
import { failure, type Outcome, type UnpublishRequest } from '../types.ts';
import type { ThreadsApi } from './api.ts';
import { threadsFailure } from './errors.ts';
import { readCheckpoint } from './steps.ts';

export async function threadsUnpublish(deps: AdapterDeps, api: ThreadsApi, request: UnpublishRequest): Promise<Outcome<{ deleted: true }>> {
  const chain = readCheckpoint(request.checkpoint).published.map((p) => p.id);
  const ids = chain.includes(request.platformPostId) ? chain : [request.platformPostId, ...chain];
  // The first comment is a reply that would outlive the post: it is the newest, so it goes first.
  if (request.platformCommentId) ids.push(request.platformCommentId);
  for (const id of [...ids].reverse()) {
    const res = await api.delete(id, request.account.accessToken);
    // (#100) subcode 33: no such post (any more), which is what was wanted.
    const err = res.sent === true ? parseGraphError(res.body) : null;
    if (err?.code === 100 && err.error_subcode === 33) continue;
    if (!graphOk(res)) return threadsFailure(res, deps.clock.now(), 'Threads delete');
    if ((res.body as { success?: unknown } | null)?.success === false) return failure('platform_unavailable', 'Threads did not confirm the delete; sending it again is safe');
  }
  return { ok: true, deleted: true };
}
