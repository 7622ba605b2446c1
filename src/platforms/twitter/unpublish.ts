// Taking a post down: DELETE /2/tweets/:id for the post, each thread item after it and the first comment
// (newest first, so a reply is never left pointing at nothing mid-way). X answers deleted: false for a post that is
// already gone, which is what was wanted.
import type { AdapterDeps } from '../deps.ts';
import type { Outcome, UnpublishRequest } from '../types.ts';
import { callX } from './api.ts';
import { isSuccess, xFailure } from './errors.ts';
import { postedIdsOf } from './publish.ts';

export async function unpublishChain(deps: AdapterDeps, request: UnpublishRequest): Promise<Outcome<{ deleted: true }>> {
  const chain = postedIdsOf(request.checkpoint);
  const ids = chain.includes(request.platformPostId) ? chain : [request.platformPostId, ...chain];
  // The first comment is a reply that would outlive the post: it is the newest, so it goes first.
  if (request.platformCommentId) ids.push(request.platformCommentId);
  for (const id of [...ids].reverse()) {
    const res = await callX(deps, { method: 'DELETE', path: `/2/tweets/${encodeURIComponent(id)}`, token: request.account.accessToken });
    if (!isSuccess(res)) return xFailure(res, deps.clock.now(), 'X refused to delete the post');
  }
  return { ok: true, deleted: true };
}
