// The Posts API as the emulator serves it (platforms.md 7.5, 7.11, 7.12): create (author, role and scope
// checks, little text, duplicates, the daily quota, 201 + x-restli-id), get and the author finder (a
// member's own posts only for partner apps), PARTIAL_UPDATE of the commentary, and idempotent DELETE.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LIMITS } from '../../platforms/linkedin/info.ts';
import { authenticate, canReadAs, canWriteAs, hasBareUrnKey, versionTag, type Caller, type LinkedInContext } from './context.ts';
import { accessDenied, AUTHOR_DENIED, illegal, notFound, schemaErrors, sendRestError, sendValidation, THROTTLED } from './envelope.ts';
import { renderLittleText } from './little-text.ts';
import { checkPostBody } from './post-rules.ts';
import { utcDay, type PostRecord } from './store.ts';

type Json = Record<string, unknown>;

function obj(v: unknown): Json {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {};
}

export function postView(p: PostRecord): Json {
  return {
    id: p.urn,
    author: p.author,
    commentary: p.commentary,
    visibility: p.visibility,
    distribution: p.distribution,
    ...(p.content ? { content: p.content } : {}),
    lifecycleState: p.lifecycleState,
    lifecycleStateInfo: { isEditedByAuthor: p.lastModifiedAt > p.createdAt },
    isReshareDisabledByAuthor: false,
    createdAt: p.createdAt,
    publishedAt: p.createdAt,
    lastModifiedAt: p.lastModifiedAt,
  };
}

/** Write access to `author` for `resource`: the scope's 403, or the author's 403. */
function writeDenied(req: FastifyRequest, reply: FastifyReply, caller: Caller, author: string, resource: string): boolean {
  const may = canWriteAs(caller, author);
  if (may === 'ok') return false;
  sendRestError(reply, may === 'scope' ? accessDenied(`partnerApiPostsExternal.${resource}.${versionTag(req)}`) : AUTHOR_DENIED);
  return true;
}

function livePost(ctx: LinkedInContext, req: FastifyRequest, reply: FastifyReply): PostRecord | null {
  if (hasBareUrnKey(req)) {
    sendRestError(reply, illegal('Invalid key: a URN in the path must be URL-encoded'));
    return null;
  }
  const post = ctx.posts.get((req.params as { urn: string }).urn);
  if (!post || post.deleted) {
    sendRestError(reply, notFound());
    return null;
  }
  return post;
}

function create(ctx: LinkedInContext, req: FastifyRequest, reply: FastifyReply, caller: Caller): FastifyReply {
  const b = obj(req.body);
  if (typeof b.author === 'string' && writeDenied(req, reply, caller, b.author, 'CREATE')) return reply;
  const now = ctx.now();
  const check = checkPostBody(req.body, (urn) => ctx.media.get(urn), now);
  if (!check.ok) {
    return check.kind === 'schema' ? schemaErrors(reply, check.lines) : sendValidation(reply, check.status, check.message, [{ code: check.code, description: check.message, field: check.field }]);
  }
  const author = b.author as string;
  const text = check.rendered.text;
  if (text.trim() !== '') {
    // Deleted posts count too: LinkedIn keeps refusing their text for a while (ComposioHQ/composio#2710).
    const earlier = [...ctx.posts.values()].find((p) => p.author === author && p.text === text);
    if (earlier) {
      const message = `Content is a duplicate of ${earlier.urn}`;
      return sendValidation(reply, 422, message, [{ code: 'DUPLICATE_POST', description: 'Duplicate post is detected' }]);
    }
  }
  const day = `${caller.member.id}:${utcDay(now)}`;
  const used = ctx.dailyPosts.get(day) ?? 0;
  // LinkedIn's daily quotas reset at midnight UTC and come with no header saying so.
  if (used >= ctx.settings.dailyPostsPerMember) return sendRestError(reply, THROTTLED);
  ctx.dailyPosts.set(day, used + 1);

  const urn = `urn:li:${check.urnKind}:${ctx.ids.next(now)}`;
  const post: PostRecord = {
    urn,
    activityUrn: `urn:li:activity:${ctx.ids.next(now)}`,
    author,
    memberId: caller.member.id,
    commentary: b.commentary as string,
    text,
    truncated: check.rendered.truncated,
    visibility: b.visibility as string,
    distribution: b.distribution,
    content: b.content as Json | undefined,
    lifecycleState: 'PUBLISHED',
    createdAt: now,
    lastModifiedAt: now,
    deleted: false,
  };
  ctx.posts.set(urn, post);
  const content = obj(b.content);
  const titled = obj(content.media);
  const alts = check.media.length > 1 ? (obj(content.multiImage).images as Json[]).map((i) => i.altText) : [titled.altText];
  ctx.ledger.record({
    id: urn,
    accountId: author,
    kind: 'post',
    text,
    media: check.media.map((m) => ({ type: m.kind, url: m.urn })),
    createdAt: now,
    extra: {
      commentary: post.commentary,
      truncated: post.truncated,
      visibility: post.visibility,
      hashtags: check.rendered.hashtags,
      mediaBytes: check.media.map((m) => m.size ?? m.bytes?.length ?? 0),
      altTexts: check.media.map((m, i) => (m.kind === 'image' ? (alts[i] ?? null) : null)),
      ...(typeof titled.title === 'string' ? { title: titled.title } : {}),
    },
  });
  return reply.code(201).header('x-restli-id', urn).send();
}

function finder(ctx: LinkedInContext, req: FastifyRequest, reply: FastifyReply, caller: Caller): FastifyReply | Json {
  const q = req.query as Record<string, string | undefined>;
  if (q.q !== 'author' || !q.author) return sendRestError(reply, illegal('Resource method could not be resolved from request parameters'));
  if (!canReadAs(caller, q.author)) return sendRestError(reply, accessDenied(`partnerApiPostsExternal.FINDER-author.${versionTag(req)}`));
  const start = Number(q.start ?? 0);
  const count = Number(q.count ?? 10);
  if (!Number.isInteger(start) || start < 0 || !Number.isInteger(count) || count < 1 || count > 100) return sendRestError(reply, illegal('count must be between 1 and 100'));
  const key = q.sortBy === 'CREATED' ? 'createdAt' : 'lastModifiedAt';
  const all = [...ctx.posts.values()].filter((p) => p.author === q.author && !p.deleted).sort((a, b) => b[key] - a[key]);
  return { paging: { start, count, links: [] }, elements: all.slice(start, start + count).map(postView) };
}

function partialUpdate(ctx: LinkedInContext, req: FastifyRequest, reply: FastifyReply, caller: Caller): FastifyReply {
  if (String(req.headers['x-restli-method'] ?? '').toUpperCase() !== 'PARTIAL_UPDATE') {
    return sendRestError(reply, illegal('Resource method could not be resolved from request parameters'));
  }
  const post = livePost(ctx, req, reply);
  if (!post) return reply;
  if (writeDenied(req, reply, caller, post.author, 'PARTIAL_UPDATE')) return reply;
  const set = obj(obj(obj(req.body).patch).$set);
  const extra = Object.keys(set).filter((k) => k !== 'commentary');
  if (extra.length > 0 || typeof set.commentary !== 'string') return schemaErrors(reply, [`/patch/$set :: only commentary can be set${extra.length ? `, not ${extra.join(', ')}` : ''}`]);
  const rendered = renderLittleText(set.commentary);
  if (rendered.text.length > LIMITS.commentary) {
    const message = `ShareCommentary text length (${rendered.text.length} characters) exceeded the maximum allowed (${LIMITS.commentary} characters)`;
    return sendValidation(reply, 400, message, [{ code: 'FIELD_ARRAY_SIZE_TOO_HIGH', description: message, field: '/commentary' }]);
  }
  const previous = post.text;
  post.commentary = set.commentary;
  post.text = rendered.text;
  post.truncated = rendered.truncated;
  post.lastModifiedAt = Math.max(ctx.now(), post.lastModifiedAt + 1);
  ctx.ledger.record({ id: post.urn, accountId: post.author, kind: 'edit', text: post.text, media: [], createdAt: ctx.now(), extra: { previousText: previous, truncated: rendered.truncated } });
  return reply.code(204).send();
}

export function registerPostRoutes(app: FastifyInstance, ctx: LinkedInContext): void {
  app.post('/rest/posts', async (req, reply) => {
    const caller = authenticate(ctx, req, reply);
    return caller ? create(ctx, req, reply, caller) : reply;
  });

  app.get('/rest/posts', async (req, reply) => {
    const caller = authenticate(ctx, req, reply);
    return caller ? finder(ctx, req, reply, caller) : reply;
  });

  app.get('/rest/posts/:urn', async (req, reply) => {
    const caller = authenticate(ctx, req, reply);
    if (!caller) return reply;
    const post = livePost(ctx, req, reply);
    if (!post) return reply;
    if (!canReadAs(caller, post.author)) return sendRestError(reply, accessDenied(`partnerApiPostsExternal.GET.${versionTag(req)}`));
    return postView(post);
  });

  app.post('/rest/posts/:urn', async (req, reply) => {
    const caller = authenticate(ctx, req, reply);
    return caller ? partialUpdate(ctx, req, reply, caller) : reply;
  });

  app.delete('/rest/posts/:urn', async (req, reply) => {
    const caller = authenticate(ctx, req, reply);
    if (!caller) return reply;
    if (hasBareUrnKey(req)) return sendRestError(reply, illegal('Invalid key: a URN in the path must be URL-encoded'));
    const post = ctx.posts.get((req.params as { urn: string }).urn);
    if (!post) return sendRestError(reply, notFound());
    if (writeDenied(req, reply, caller, post.author, 'DELETE')) return reply;
    // Deleting again answers 204 as well (LinkedIn's Postman collection).
    if (!post.deleted) {
      post.deleted = true;
      ctx.ledger.record({ id: post.urn, accountId: post.author, kind: 'delete', text: post.text, media: [], createdAt: ctx.now() });
    }
    return reply.code(204).send();
  });
}
