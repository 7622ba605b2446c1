// Publishing as graph.threads.net does it: POST /{user}/threads makes a container, POST
// /{user}/threads_publish makes it a post, GET /{user}/threads_publishing_limit reports the quota.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { emulatorBaseUrl, type ErrorReply } from '../kit/emulator.ts';
import { authenticate, isError, ownUser, type Caller, type ThreadsContext } from './context.ts';
import { graphError, invalidParam, missingPermission, param, send, unsupported } from './graph.ts';
import { fetchFailure, isHttpUrl, linkCount, MAX_CHILDREN, MAX_LINKS, MAX_TEXT, MIN_CHILDREN, REPLY_CONTROLS, requestedFailure, textLength } from './rules.ts';
import { shortcodeFor, type Container, type ContainerType, type Post } from './store.ts';

const PUBLISH_SCOPES = ['threads_basic', 'threads_content_publish'];
const TYPES: readonly string[] = ['TEXT', 'IMAGE', 'VIDEO', 'CAROUSEL'];

type Built = { container: Container } | ErrorReply;

function buildContainer(ctx: ThreadsContext, req: FastifyRequest, caller: Caller, ownBase: string): Built {
  const type = (param(req, 'media_type') ?? '').toUpperCase();
  if (!TYPES.includes(type)) return invalidParam('(#100) Param media_type must be one of {TEXT, IMAGE, VIDEO, CAROUSEL}');
  const isItem = param(req, 'is_carousel_item') === 'true';
  if (isItem && (type === 'TEXT' || type === 'CAROUSEL')) return invalidParam('(#100) Only IMAGE and VIDEO containers can be carousel items');
  const text = param(req, 'text');
  if (type === 'TEXT' && (!text || text.trim() === '')) return invalidParam('(#100) Param text is required for TEXT posts');
  if (text !== undefined) {
    if (textLength(text) > MAX_TEXT) return invalidParam(`(#100) Param text must be at most ${MAX_TEXT} characters long`);
    if (linkCount(text) > MAX_LINKS) {
      return invalidParam('(#100) Invalid parameter', { userTitle: 'THREADS_API__LINK_LIMIT_EXCEEDED', userMsg: `A post can contain at most ${MAX_LINKS} links.` });
    }
  }
  const container: Container = { id: ctx.store.nextId(), userId: caller.user.id, type: type as ContainerType, text, isCarouselItem: isItem, children: [], createdAt: ctx.now() };

  if (type === 'IMAGE' || type === 'VIDEO') {
    const key = type === 'IMAGE' ? 'image_url' : 'video_url';
    const url = param(req, key);
    if (!isHttpUrl(url)) return invalidParam(`(#100) Param ${key} is required for ${type} posts and must be a public http(s) URL`);
    container.mediaUrl = url;
    container.failWith = requestedFailure(url) ?? fetchFailure(type, url, ownBase, ctx.settings.mediaOrigins());
    const alt = param(req, 'alt_text');
    if (alt) container.altText = alt;
  }
  if (type === 'CAROUSEL') {
    const ids = (param(req, 'children') ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    if (ids.length < MIN_CHILDREN || ids.length > MAX_CHILDREN) {
      return invalidParam(`(#100) A carousel needs between ${MIN_CHILDREN} and ${MAX_CHILDREN} children; got ${ids.length}`);
    }
    for (const id of ids) {
      const child = ctx.store.containers.get(id);
      if (!child || child.userId !== caller.user.id || !child.isCarouselItem) return invalidParam(`(#100) Param children contains an invalid carousel item: ${id}`);
    }
    container.children = ids;
  }
  if (isItem) return { container }; // reply and audience settings belong to the parent

  const replyControl = param(req, 'reply_control');
  if (replyControl !== undefined && !REPLY_CONTROLS.includes(replyControl)) {
    return invalidParam(`(#100) Param reply_control must be one of {${REPLY_CONTROLS.join(', ')}}`);
  }
  container.replyControl = replyControl;
  const topicTag = param(req, 'topic_tag');
  if (topicTag !== undefined && (topicTag.length < 1 || topicTag.length > 50 || /[.&]/u.test(topicTag))) {
    return invalidParam('(#100) Param topic_tag must be 1 to 50 characters without periods (.) or ampersands (&)');
  }
  container.topicTag = topicTag;
  const replyTo = param(req, 'reply_to_id');
  if (replyTo !== undefined) {
    if (!caller.scopes.includes('threads_manage_replies')) return missingPermission('threads_manage_replies');
    const parent = ctx.store.posts.get(replyTo);
    if (!parent) return unsupported('POST', replyTo);
    // Replying through the API is allowed under one's own root posts.
    if (ctx.store.posts.get(parent.rootId)?.userId !== caller.user.id) return missingPermission('threads_manage_mentions');
    container.replyToId = replyTo;
  }
  return { container };
}

function quotaError(ctx: ThreadsContext, userId: string, reply: boolean): ErrorReply | undefined {
  const used = ctx.store.publishedInWindow(userId, ctx.now(), reply);
  const total = reply ? ctx.settings.replyQuota : ctx.settings.postQuota;
  if (used < total) return undefined;
  // Threads documents the limit, not the error it answers with; a Graph throttle is the closest.
  return graphError({
    status: 400,
    code: 4,
    type: 'OAuthException',
    message: `(#4) This profile has reached its limit of ${total} API-published ${reply ? 'replies' : 'posts'} in 24 hours`,
  });
}

/** Turns a FINISHED container into a post, records it in the ledger and returns its id. */
function publishContainer(ctx: ThreadsContext, c: Container): Post {
  const id = ctx.store.nextId();
  const children = c.children.map((cid) => ctx.store.containers.get(cid)!);
  const alt = (x: Container) => (x.altText ? { altText: x.altText } : {});
  const media = c.type === 'CAROUSEL' ? children.map((ch) => ({ type: ch.type === 'VIDEO' ? 'video' : 'image', url: ch.mediaUrl!, ...alt(ch) })) : c.mediaUrl ? [{ type: c.type === 'VIDEO' ? 'video' : 'image', url: c.mediaUrl, ...alt(c) }] : [];
  const parent = c.replyToId ? ctx.store.posts.get(c.replyToId) : undefined;
  const post: Post = {
    id,
    userId: c.userId,
    containerId: c.id,
    mediaType: c.type === 'TEXT' ? 'TEXT_POST' : c.type === 'CAROUSEL' ? 'CAROUSEL_ALBUM' : c.type,
    text: c.text ?? '',
    media,
    replyToId: c.replyToId,
    rootId: parent ? parent.rootId : id,
    replyControl: c.replyControl ?? 'everyone',
    topicTag: c.topicTag,
    createdAt: ctx.now(),
    shortcode: shortcodeFor(id),
  };
  ctx.store.posts.set(id, post);
  c.publishedId = id;
  ctx.emu.ledger.record({
    id,
    accountId: c.userId,
    kind: c.replyToId ? 'reply' : 'post',
    text: post.text,
    media,
    createdAt: post.createdAt,
    extra: { mediaType: post.mediaType, containerId: c.id, replyToId: c.replyToId, rootId: post.rootId, replyControl: post.replyControl, topicTag: c.topicTag },
  });
  return post;
}

export function registerPublishRoutes(app: FastifyInstance, ctx: ThreadsContext): void {
  app.post('/v1.0/:userId/threads', async (req, reply) => {
    const caller = authenticate(ctx, req, PUBLISH_SCOPES);
    if (isError(caller)) return send(reply, caller);
    const notMine = ownUser(caller, (req.params as { userId: string }).userId, 'POST');
    if (notMine) return send(reply, notMine);
    const built = buildContainer(ctx, req, caller, emulatorBaseUrl(req, app.prefix));
    if ('status' in built) return send(reply, built);
    const { container } = built;
    if (param(req, 'auto_publish_text') === 'true') {
      if (container.type !== 'TEXT') return send(reply, invalidParam('(#100) auto_publish_text is only supported for TEXT posts'));
      const over = quotaError(ctx, caller.user.id, container.replyToId !== undefined);
      if (over) return send(reply, over);
      ctx.store.containers.set(container.id, container);
      return { id: publishContainer(ctx, container).id };
    }
    ctx.store.containers.set(container.id, container);
    return { id: container.id };
  });

  app.post('/v1.0/:userId/threads_publish', async (req, reply) => {
    const caller = authenticate(ctx, req, PUBLISH_SCOPES);
    if (isError(caller)) return send(reply, caller);
    const notMine = ownUser(caller, (req.params as { userId: string }).userId, 'POST');
    if (notMine) return send(reply, notMine);
    const creationId = param(req, 'creation_id');
    if (!creationId) return send(reply, invalidParam('(#100) The parameter creation_id is required'));
    const c = ctx.store.containers.get(creationId);
    if (!c || c.userId !== caller.user.id) return send(reply, invalidParam('(#100) Param creation_id is not a valid media container'));
    if (c.isCarouselItem) return send(reply, invalidParam('(#100) A carousel item cannot be published on its own; publish the CAROUSEL container'));
    const { status, errorMessage } = ctx.store.status(c, ctx.now(), ctx.settings.processingMs);
    if (status === 'PUBLISHED') return send(reply, invalidParam('(#100) This media container has already been published'));
    if (status === 'IN_PROGRESS') return send(reply, invalidParam('(#100) The media is not ready to be published; wait until the container status is FINISHED'));
    if (status === 'ERROR') return send(reply, invalidParam(`(#100) The media container failed processing: ${errorMessage ?? 'UNKNOWN'}`));
    if (status === 'EXPIRED') return send(reply, invalidParam('(#100) The media container has expired; create a new one'));
    const over = quotaError(ctx, caller.user.id, c.replyToId !== undefined);
    if (over) return send(reply, over);
    return { id: publishContainer(ctx, c).id };
  });

  app.get('/v1.0/:userId/threads_publishing_limit', async (req, reply) => {
    const caller = authenticate(ctx, req, PUBLISH_SCOPES);
    if (isError(caller)) return send(reply, caller);
    const notMine = ownUser(caller, (req.params as { userId: string }).userId, 'GET');
    if (notMine) return send(reply, notMine);
    const fields = new Set((param(req, 'fields') ?? 'quota_usage,config').split(',').map((f) => f.trim()));
    if ((fields.has('reply_quota_usage') || fields.has('reply_config')) && !caller.scopes.includes('threads_manage_replies')) {
      return send(reply, missingPermission('threads_manage_replies'));
    }
    const now = ctx.now();
    const row: Record<string, unknown> = {};
    if (fields.has('quota_usage')) row.quota_usage = ctx.store.publishedInWindow(caller.user.id, now, false);
    if (fields.has('config')) row.config = { quota_total: ctx.settings.postQuota, quota_duration: 86_400 };
    if (fields.has('reply_quota_usage')) row.reply_quota_usage = ctx.store.publishedInWindow(caller.user.id, now, true);
    if (fields.has('reply_config')) row.reply_config = { quota_total: ctx.settings.replyQuota, quota_duration: 86_400 };
    return { data: [row] };
  });
}
