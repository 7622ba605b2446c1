// Comments (platforms.md 7.7): POST /rest/socialActions/{post}/comments as the member or a Page they
// post for, plain text kept verbatim (escapes show), at most 1,250 characters; GET lists them to those
// who may read the post's author.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LIMITS } from '../../platforms/linkedin/info.ts';
import { authenticate, canReadAs, canWriteAs, hasBareUrnKey, versionTag, type LinkedInContext } from './context.ts';
import { accessDenied, illegal, notFound, schemaErrors, sendRestError, sendValidation } from './envelope.ts';
import type { CommentRecord, PostRecord } from './store.ts';

type Json = Record<string, unknown>;

function obj(v: unknown): Json {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {};
}

function view(c: CommentRecord): Json {
  return {
    actor: c.actor,
    object: c.activityUrn,
    message: { text: c.text },
    id: c.id,
    commentUrn: c.urn,
    $URN: c.urn,
    created: { actor: c.actor, time: c.createdAt },
    lastModified: { actor: c.actor, time: c.createdAt },
  };
}

function targetPost(ctx: LinkedInContext, req: FastifyRequest, reply: FastifyReply): PostRecord | null {
  if (hasBareUrnKey(req)) {
    sendRestError(reply, illegal('Invalid key: a URN in the path must be URL-encoded'));
    return null;
  }
  const urn = (req.params as { urn: string }).urn;
  const post = [...ctx.posts.values()].find((p) => (p.urn === urn || p.activityUrn === urn) && !p.deleted);
  if (!post) sendRestError(reply, notFound(`Entity ${urn} not found`));
  return post ?? null;
}

export function registerCommentRoutes(app: FastifyInstance, ctx: LinkedInContext): void {
  app.post('/rest/socialActions/:urn/comments', async (req, reply) => {
    const caller = authenticate(ctx, req, reply);
    if (!caller) return reply;
    const b = obj(req.body);
    if (typeof b.actor !== 'string') return schemaErrors(reply, ['/actor :: field is required but not found and has no default value']);
    const may = canWriteAs(caller, b.actor);
    if (may === 'scope') return sendRestError(reply, accessDenied(`partnerApiSocialActions.CREATE.${versionTag(req)}`));
    if (may === 'author') return sendRestError(reply, { status: 403, serviceErrorCode: 100, code: 'ACCESS_DENIED', message: `Member is not authorized to act as ${b.actor}` });
    const post = targetPost(ctx, req, reply);
    if (!post) return reply;
    if (b.object !== post.urn && b.object !== post.activityUrn) return sendRestError(reply, illegal('object must be the entity in the path'));
    const text = obj(b.message).text;
    if (typeof text !== 'string' || text.trim() === '') return schemaErrors(reply, ['/message/text :: field is required but not found and has no default value']);
    if (text.length > LIMITS.comment) {
      const message = `Comment text length (${text.length} characters) exceeded the maximum allowed (${LIMITS.comment} characters)`;
      return sendValidation(reply, 400, message, [{ code: 'FIELD_ARRAY_SIZE_TOO_HIGH', description: message, field: '/message/text' }]);
    }
    const now = ctx.now();
    const id = ctx.ids.next(now);
    const comment: CommentRecord = { urn: `urn:li:comment:(${post.activityUrn},${id})`, id, postUrn: post.urn, activityUrn: post.activityUrn, actor: b.actor, text, createdAt: now };
    ctx.comments.push(comment);
    ctx.ledger.record({ id: comment.urn, accountId: comment.actor, kind: 'comment', text, media: [], createdAt: now, extra: { postUrn: post.urn } });
    return reply.code(201).header('x-restli-id', comment.urn).send(view(comment));
  });

  app.get('/rest/socialActions/:urn/comments', async (req, reply) => {
    const caller = authenticate(ctx, req, reply);
    if (!caller) return reply;
    const post = targetPost(ctx, req, reply);
    if (!post) return reply;
    if (!canReadAs(caller, post.author)) return sendRestError(reply, accessDenied(`partnerApiSocialActions.GET_ALL.${versionTag(req)}`));
    const q = req.query as Record<string, string | undefined>;
    const start = Number(q.start ?? 0);
    const count = Number(q.count ?? 10);
    if (!Number.isInteger(start) || start < 0 || !Number.isInteger(count) || count < 1 || count > 100) return sendRestError(reply, illegal('count must be between 1 and 100'));
    const all = ctx.comments.filter((c) => c.postUrn === post.urn);
    return { paging: { start, count, total: all.length, links: [] }, elements: all.slice(start, start + count).map(view) };
  });
}
