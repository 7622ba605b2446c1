// Deleting as graph.threads.net does it (docs: "Delete Posts"): DELETE /{threads-media-id} removes one of
// the caller's own posts or replies (threads_basic and threads_delete), at most 100 per profile per day,
// and answers {success, deleted_id}. A post that is gone, or someone else's, is not there (100/33).
import type { FastifyInstance } from 'fastify';
import { authenticate, isError, type ThreadsContext } from './context.ts';
import { graphError, send, unsupported } from './graph.ts';

export function registerDeleteRoutes(app: FastifyInstance, ctx: ThreadsContext): void {
  app.delete('/v1.0/:id', async (req, reply) => {
    const caller = authenticate(ctx, req, ['threads_basic', 'threads_delete']);
    if (isError(caller)) return send(reply, caller);
    const { id } = req.params as { id: string };
    const post = ctx.store.posts.get(id);
    if (!post || post.userId !== caller.user.id) return send(reply, unsupported('DELETE', id));
    const now = ctx.now();
    if (ctx.store.deletedInWindow(caller.user.id, now) >= ctx.settings.deleteQuota) {
      // Threads documents the limit, not the error it answers with; a Graph throttle is the closest.
      return send(reply, graphError({ status: 400, code: 4, type: 'OAuthException', message: `(#4) This profile has deleted ${ctx.settings.deleteQuota} posts through the API in 24 hours, the most it may` }));
    }
    ctx.store.deletePost(post, now);
    ctx.emu.ledger.record({
      id,
      accountId: caller.user.id,
      kind: 'delete',
      text: post.text,
      media: [],
      createdAt: now,
      extra: { deletedId: id, ...(post.replyToId ? { replyToId: post.replyToId } : {}) },
    });
    return { success: true, deleted_id: id };
  });
}
