// Reading as graph.threads.net answers it: the profile, containers and posts by id, and the
// paginated lists of a user's posts (/threads) and replies (/replies).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { emulatorBaseUrl, type ErrorReply } from '../kit/emulator.ts';
import { SAMPLE_MEDIA } from '../media.ts';
import { authenticate, isError, ownUser, type Caller, type ThreadsContext } from './context.ts';
import { fieldsOf, graphTime, invalidParam, param, pick, send, timeParam, unsupported } from './graph.ts';
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

function postView(ctx: ThreadsContext, post: Post): Record<string, unknown> {
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
  const limitRaw = Number(param(req, 'limit') ?? DEFAULT_LIMIT);
  const limit = Number.isInteger(limitRaw) && limitRaw > 0 ? Math.min(limitRaw, MAX_LIMIT) : DEFAULT_LIMIT;
  const all = [...ctx.store.posts.values()]
    .filter((p) => p.userId === caller.user.id && (p.replyToId !== undefined) === replies)
    .filter((p) => (since === undefined || p.createdAt >= since) && (until === undefined || p.createdAt <= until))
    .reverse();
  const after = param(req, 'after');
  const start = after ? all.findIndex((p) => Buffer.from(after, 'base64url').toString() === p.id) + 1 : 0;
  const page = all.slice(start, start + limit);
  const fields = fieldsOf(req);
  const body: Record<string, unknown> = { data: page.map((p) => pick(postView(ctx, p), fields)) };
  if (page.length > 0) {
    const cursor = (p: Post) => Buffer.from(p.id).toString('base64url');
    const paging: Record<string, unknown> = { cursors: { before: cursor(page[0]!), after: cursor(page.at(-1)!) } };
    if (start + limit < all.length) {
      const next = new URL(`${emulatorBaseUrl(req, prefix)}${req.url.slice(prefix.length).split('?')[0]}`);
      for (const [k, v] of Object.entries(req.query as Record<string, string>)) if (k !== 'access_token') next.searchParams.set(k, v);
      next.searchParams.set('after', cursor(page.at(-1)!));
      paging.next = next.toString();
    }
    body.paging = paging;
  }
  return { body };
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

  app.get('/v1.0/:userId/replies', async (req, reply) => {
    const caller = authenticate(ctx, req);
    if (isError(caller)) return send(reply, caller);
    const notMine = ownUser(caller, (req.params as { userId: string }).userId, 'GET');
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
    if (post && post.userId === caller.user.id) return pick(postView(ctx, post), fields);
    return send(reply, unsupported('GET', id));
  });

  // The profile picture URL /me hands out.
  app.get('/avatars/:file', async (_req, reply) => {
    const sample = SAMPLE_MEDIA['sample.jpg']!;
    return reply.type(sample.contentType).send(sample.bytes);
  });
}
