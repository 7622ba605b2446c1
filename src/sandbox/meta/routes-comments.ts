// Comments on both platforms of the Graph: POST /{object-id}/comments (`message`) and GET
// /{object-id}/comments, on a Page's posts, photos and videos (as the Page: its Page token, with
// pages_manage_engagement to write) and on Instagram media (the managing user's token, with
// instagram_manage_comments). Stories take no comments on either.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { badParam, fieldsOf, igAccess, missingObject, pageAccess, paginate, param, select, type MetaContext } from './graph-http.ts';
import { graphTime, type MetaState } from './state.ts';

/** Widely reported as Facebook's comment limit (Meta's reference does not state one). */
const MAX_FB_COMMENT = 8_000;
const ORDERS = new Set(['chronological', 'reverse_chronological']);
const FILTERS = new Set(['toplevel', 'stream']);

/** The Page object a comment would go on: a post, a published photo, or a published video or reel. */
export function commentable(state: MetaState, id: string): { pageId: string } | { refused: string } | undefined {
  const post = state.posts.get(id);
  if (post) return { pageId: post.pageId };
  const photo = state.photos.get(id);
  if (photo) return photo.published ? { pageId: photo.pageId } : undefined;
  const video = state.videos.get(id);
  if (video) {
    if (video.kind === 'story') return { refused: 'Stories cannot be commented on' };
    return video.published && !video.broken ? { pageId: video.pageId } : undefined;
  }
  if (state.stories.has(id)) return { refused: 'Stories cannot be commented on' };
  return undefined;
}

export function commentRoutes(app: FastifyInstance, ctx: MetaContext): void {
  const { state, ledger } = ctx;

  app.post('/:v/:id/comments', async (req, reply) => {
    const { id } = req.params as { id: string };
    if (state.media.has(id)) return commentOnMedia(ctx, req, reply, id);
    const target = commentable(state, id);
    if (!target) return missingObject(reply, id, 'post');
    if ('refused' in target) return badParam(reply, target.refused);
    if (!pageAccess(ctx, req, reply, target.pageId, { write: true, scope: 'pages_manage_engagement' })) return reply;
    const message = param(req, 'message') ?? '';
    if (message.trim() === '') return badParam(reply, 'The parameter message is required');
    if ([...message].length > MAX_FB_COMMENT) return badParam(reply, `The comment is too long: at most ${MAX_FB_COMMENT} characters`);
    const now = ctx.now();
    const commentId = `${id.split('_').at(-1)}_${state.nextId()}`;
    state.fbComments.set(commentId, { id: commentId, objectId: id, pageId: target.pageId, message, createdAt: now });
    ledger.record({ id: commentId, accountId: target.pageId, kind: 'comment', text: message, media: [], createdAt: now, extra: { objectId: id } });
    return { id: commentId };
  });

  app.get('/:v/:id/comments', async (req, reply) => {
    const { id } = req.params as { id: string };
    const base = `${req.protocol}://${req.host}`;
    const fields = fieldsOf(req);
    const media = state.media.get(id);
    if (media) {
      if (!igAccess(ctx, req, reply, media.igId, 'instagram_manage_comments')) return reply;
      const ig = state.igAccounts.get(media.igId)!;
      const comments = [...state.comments.values()]
        .filter((c) => c.mediaId === id)
        .sort((a, b) => a.createdAt - b.createdAt)
        .map((c) =>
          select(
            { id: c.id, text: c.text, timestamp: graphTime(c.createdAt), username: ig.username, from: { id: ig.id, username: ig.username }, hidden: false, like_count: 0, media: { id } },
            fields,
            ['text', 'timestamp'],
          ),
        );
      return paginate(req, base, comments);
    }
    const target = commentable(state, id);
    if (!target) return missingObject(reply, id);
    if ('refused' in target) return { data: [] };
    const access = pageAccess(ctx, req, reply, target.pageId, { write: false, scope: 'pages_read_engagement' });
    if (!access) return reply;
    const order = param(req, 'order') ?? 'chronological';
    const filter = param(req, 'filter') ?? 'toplevel';
    if (!ORDERS.has(order)) return badParam(reply, `order must be one of ${[...ORDERS].join(', ')}`);
    if (!FILTERS.has(filter)) return badParam(reply, `filter must be one of ${[...FILTERS].join(', ')}`);
    // New Pages Experience: a Page's comments are read with its Page token; a user token gets nothing.
    if (access.caller.kind !== 'page') return { data: [] };
    const page = state.pages.get(target.pageId)!;
    const comments = [...state.fbComments.values()]
      .filter((c) => c.objectId === id)
      .sort((a, b) => (order === 'reverse_chronological' ? b.createdAt - a.createdAt : a.createdAt - b.createdAt))
      .map((c) => select({ id: c.id, message: c.message, created_time: graphTime(c.createdAt), from: { id: page.id, name: page.name } }, fields, ['created_time', 'from', 'message']));
    return paginate(req, base, comments);
  });
}

function commentOnMedia(ctx: MetaContext, req: FastifyRequest, reply: FastifyReply, mediaId: string) {
  const { state, ledger } = ctx;
  const media = state.media.get(mediaId)!;
  if (!igAccess(ctx, req, reply, media.igId, 'instagram_manage_comments')) return reply;
  if (media.productType === 'STORY') return badParam(reply, 'Stories cannot be commented on');
  if (media.commentEnabled === false) return badParam(reply, 'Comments are turned off for this media');
  const message = param(req, 'message');
  if (!message) return badParam(reply, 'The parameter message is required');
  const now = ctx.now();
  const id = state.nextId('178');
  state.comments.set(id, { id, mediaId, text: message, createdAt: now });
  ledger.record({ id, accountId: media.igId, kind: 'comment', text: message, media: [], createdAt: now, extra: { mediaId } });
  return { id };
}
