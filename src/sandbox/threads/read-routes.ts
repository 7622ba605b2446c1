// Reading as graph.threads.net answers it: the profile, containers and posts by id, the paginated lists
// of a user's posts (/threads) and replies (/replies), and the top-level replies to one of the user's
// posts (/{media-id}/replies, which needs threads_read_replies).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { emulatorBaseUrl, type ErrorReply } from '../kit/emulator.ts';
import { SAMPLE_MEDIA } from '../media.ts';
import { authenticate, isError, ownUser, type Caller, type ThreadsContext } from './context.ts';
import { fieldsOf, graphTime, invalidParam, missingPermission, param, pick, send, timeParam, unsupported } from './graph.ts';
import type { Post, SandboxUser } from './store.ts';

const DEFAULT_LIMIT = 25;
const MAX_LIMIT = 100;

function profile(ctx: ThreadsContext, req: FastifyRequest, prefix: string, user: SandboxUser): Record<string, unknown> {
  return {
    id: user.id,
    username: user.username,
    name: user.name,
    threads_profile_picture_url: `${emulatorBaseUrl(req, prefix)}/avatars/${user.id}.jpg`,
    threads_biography: `${user.name} in the Herald sandbox`,
  };
}

function postView(ctx: ThreadsContext, post: Post, viewer?: string): Record<string, unknown> {
  const user = ctx.store.users.get(post.userId);
  return {
    id: post.id,
    media_product_type: 'THREADS',
    media_type: post.mediaType,
    media_url: post.mediaType === 'IMAGE' || post.mediaType === 'VIDEO' ? post.media[0]?.url : undefined,
    permalink: ctx.store.permalink(post),
    owner: { id: post.userId },
    username: user?.username,
    text: post.text.length > 0 ? post.text : undefined,
    timestamp: graphTime(post.createdAt),
    shortcode: post.shortcode,
    is_quote_post: false,
    is_reply: post.replyToId !== undefined,
    replied_to: post.replyToId ? { id: post.replyToId } : undefined,
    is_reply_owned_by_me: post.replyToId !== undefined && viewer !== undefined ? post.userId === viewer : undefined,
    hide_status: post.replyToId !== undefined ? 'NOT_HUSHED' : undefined,
    root_post: { id: post.rootId },
    reply_audience: post.replyControl,
    topic_tag: post.topicTag,
    children: post.mediaType === 'CAROUSEL_ALBUM' ? { data: post.media.map((_, i) => ({ id: `${post.id}_${i}` })) } : undefined,
  };
}

/** Newest first, bounded by since/until, paged with opaque after/before cursors (post ids). */
function listPosts(ctx: ThreadsContext, req: FastifyRequest, prefix: string, caller: Caller, replies: boolean): { error: ErrorReply } | { body: Record<string, unknown> } {
  const since = timeParam(param(req, 'since'));
  const until = timeParam(param(req, 'until'));
  if (Number.isNaN(since) || Number.isNaN(until)) return { error: invalidParam('(#100) Params since and until must be Unix timestamps or dates') };
  const all = [...ctx.store.posts.values()]
    .filter((p) => p.userId === caller.user.id && (p.replyToId !== undefined) === replies)
    .filter((p) => (since === undefined || p.createdAt >= since) && (until === undefined || p.createdAt <= until))
    .reverse();
  return { body: page(ctx, req, prefix, caller, all) };
}

/** The top-level replies to a post, newest first unless `reverse=false`. */
function listReplies(ctx: ThreadsContext, req: FastifyRequest, prefix: string, caller: Caller, postId: string): { error: ErrorReply } | { body: Record<string, unknown> } {
  const reverse = param(req, 'reverse') ?? 'true';
  if (reverse !== 'true' && reverse !== 'false') return { error: invalidParam('(#100) Param reverse must be a boolean') };
  const replies = [...ctx.store.posts.values()].filter((p) => p.replyToId === postId);
  return { body: page(ctx, req, prefix, caller, reverse === 'true' ? replies.reverse() : replies) };
}

/** One page of posts (already in order), with `limit` and opaque after cursors (post ids). */
function page(ctx: ThreadsContext, req: FastifyRequest, prefix: string, caller: Caller, all: Post[]): Record<string, unknown> {
  const limitRaw = Number(param(req, 'limit') ?? DEFAULT_LIMIT);
  const limit = Number.isInteger(limitRaw) && limitRaw > 0 ? Math.min(limitRaw, MAX_LIMIT) : DEFAULT_LIMIT;
  const after = param(req, 'after');
  const start = after ? all.findIndex((p) => Buffer.from(after, 'base64url').toString() === p.id) + 1 : 0;
  const slice = all.slice(start, start + limit);
  const fields = fieldsOf(req);
  const body: Record<string, unknown> = { data: slice.map((p) => pick(postView(ctx, p, caller.user.id), fields)) };
  if (slice.length > 0) {
    const cursor = (p: Post) => Buffer.from(p.id).toString('base64url');
    const paging: Record<string, unknown> = { cursors: { before: cursor(slice[0]!), after: cursor(slice.at(-1)!) } };
    if (start + limit < all.length) {
      const next = new URL(`${emulatorBaseUrl(req, prefix)}${req.url.slice(prefix.length).split('?')[0]}`);
      for (const [k, v] of Object.entries(req.query as Record<string, string>)) if (k !== 'access_token') next.searchParams.set(k, v);
      next.searchParams.set('after', cursor(slice.at(-1)!));
      paging.next = next.toString();
    }
    body.paging = paging;
  }
  return body;
}

export function registerReadRoutes(app: FastifyInstance, ctx: ThreadsContext): void {
  const prefix = app.prefix;

  app.get('/v1.0/:userId/threads', async (req, reply) => {
    const caller = authenticate(ctx, req);
    if (isError(caller)) return send(reply, caller);
    const notMine = ownUser(caller, (req.params as { userId: string }).userId, 'GET');
    if (notMine) return send(reply, notMine);
    const out = listPosts(ctx, req, prefix, caller, false);
    return 'error' in out ? send(reply, out.error) : out.body;
  });

  // One path, two edges: a user's own replies (/{user-id}/replies) and the replies to a post of theirs
  // (/{media-id}/replies, Reply Management: threads_read_replies).
  app.get('/v1.0/:id/replies', async (req, reply) => {
    const caller = authenticate(ctx, req);
    if (isError(caller)) return send(reply, caller);
    const { id } = req.params as { id: string };
    const post = ctx.store.posts.get(id);
    if (post && (post.userId === caller.user.id || ctx.store.posts.get(post.rootId)?.userId === caller.user.id)) {
      if (!caller.scopes.includes('threads_read_replies')) return send(reply, missingPermission('threads_read_replies'));
      const out = listReplies(ctx, req, prefix, caller, id);
      return 'error' in out ? send(reply, out.error) : out.body;
    }
    const notMine = ownUser(caller, id, 'GET');
    if (notMine) return send(reply, notMine);
    const out = listPosts(ctx, req, prefix, caller, true);
    return 'error' in out ? send(reply, out.error) : out.body;
  });

  app.get('/v1.0/:id', async (req, reply) => {
    const caller = authenticate(ctx, req);
    if (isError(caller)) return send(reply, caller);
    const { id } = req.params as { id: string };
    const fields = fieldsOf(req);
    if (id === 'me' || id === caller.user.id) return pick(profile(ctx, req, prefix, caller.user), fields);
    const container = ctx.store.containers.get(id);
    if (container && container.userId === caller.user.id) {
      const { status, errorMessage } = ctx.store.status(container, ctx.now(), ctx.settings.processingMs);
      return pick({ id, status, error_message: errorMessage }, fields);
    }
    const post = ctx.store.posts.get(id);
    if (post && post.userId === caller.user.id) return pick(postView(ctx, post, caller.user.id), fields);
    return send(reply, unsupported('GET', id));
  });

  // The profile picture URL /me hands out.
  app.get('/avatars/:file', async (_req, reply) => {
    const sample = SAMPLE_MEDIA['sample.jpg']!;
    return reply.type(sample.contentType).send(sample.bytes);
  });
}
