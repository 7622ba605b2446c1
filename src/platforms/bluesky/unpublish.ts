// Taking a post down: deleteRecord for the first comment and each post of the chain, newest first (a reply is never left pointing
// at nothing mid-way), then the post itself. Deleting a record that is already gone is a 200 (10.14).
import type { AdapterDeps } from '../deps.ts';
import { failure, type Outcome, type UnpublishRequest } from '../types.ts';
import { confirmedUris } from './checkpoint.ts';
import { didOf, POST_COLLECTION, rkeyOf } from './info.ts';
import { repoContext } from './publish.ts';
import { deletePost } from './records.ts';

export async function unpublishChain(deps: AdapterDeps, request: UnpublishRequest): Promise<Outcome<{ deleted: true }>> {
  const chain = confirmedUris(request.checkpoint);
  const uris = chain.includes(request.platformPostId) ? chain : [request.platformPostId, ...chain];
  // The first comment is a reply that would outlive the post: it is the newest, so it goes first.
  if (request.platformCommentId) uris.push(request.platformCommentId);
  const ctx = repoContext(deps, request);
  for (const uri of [...uris].reverse()) {
    if (didOf(uri) !== ctx.repo || !uri.includes(`/${POST_COLLECTION}/`)) {
      return failure('content_rejected', `${uri} is not a post of this Bluesky account`);
    }
    const deleted = await deletePost(ctx, rkeyOf(uri));
    if (!deleted.ok) return deleted;
  }
  return { ok: true, deleted: true };
}
