// Changing and deleting what was published: POST /{id} and DELETE /{id}, as Graph's node references
// allow them. A Page Post takes a new `message`; a Video (feed video or reel) a new `description` or
// `name`; both need the Page's token with pages_manage_posts. Stories are neither edited nor commented.
// Instagram media can only turn comments on or off (`comment_enabled`: the caption cannot be changed)
// and cannot be deleted at all. Deleting answers {success: true}; a second delete finds nothing (100/33).
import type { FastifyInstance } from 'fastify';
import { badParam, igAccess, missingObject, pageAccess, param, type MetaContext } from './graph-http.ts';

/** Same limit as publishing (routes-pages.ts). */
const MAX_MESSAGE = 63_206;

export function changeRoutes(app: FastifyInstance, ctx: MetaContext): void {
  const { state } = ctx;

  app.post('/:v/:id', async (req, reply) => {
    const { id } = req.params as { id: string };
    const post = state.posts.get(id);
    if (post) {
      if (!pageAccess(ctx, req, reply, post.pageId, { write: true, scope: 'pages_manage_posts' })) return reply;
      const message = param(req, 'message');
      if (message === undefined) return badParam(reply, 'Nothing to update: send message');
      if ([...message].length > MAX_MESSAGE) return badParam(reply, `The message is too long: at most ${MAX_MESSAGE} characters`);
      if (message.trim() === '' && !post.link && post.photoIds.length === 0 && !post.videoId) return badParam(reply, 'Missing message or attachment');
      const previous = post.message;
      post.message = message;
      if (post.videoId) {
        const video = state.videos.get(post.videoId);
        if (video) video.description = message;
      }
      recordEdit(ctx, id, post.pageId, message, previous);
      return { success: true };
    }
    const video = state.videos.get(id);
    if (video && video.published && video.kind !== 'story') {
      if (!pageAccess(ctx, req, reply, video.pageId, { write: true, scope: 'pages_manage_posts' })) return reply;
      const description = param(req, 'description');
      const name = param(req, 'name');
      if (description === undefined && name === undefined) return badParam(reply, 'Nothing to update: send description or name');
      if (description !== undefined) {
        if ([...description].length > MAX_MESSAGE) return badParam(reply, `The description is too long: at most ${MAX_MESSAGE} characters`);
        const previous = video.description ?? '';
        video.description = description;
        const feedPost = state.posts.get(`${video.pageId}_${video.id}`);
        if (feedPost) feedPost.message = description;
        recordEdit(ctx, id, video.pageId, description, previous);
      }
      return { success: true };
    }
    if (video || state.stories.has(id) || state.photos.has(id)) return badParam(reply, 'This object cannot be updated through the API');
    const media = state.media.get(id);
    if (media) {
      if (!igAccess(ctx, req, reply, media.igId, 'instagram_manage_comments')) return reply;
      const enabled = param(req, 'comment_enabled');
      if (enabled !== 'true' && enabled !== 'false') return badParam(reply, 'The parameter comment_enabled is required (true or false); nothing else of a published media can be changed');
      media.commentEnabled = enabled === 'true';
      return { success: true };
    }
    return missingObject(reply, id, 'post');
  });

  app.delete('/:v/:id', async (req, reply) => {
    const { id } = req.params as { id: string };
    const owner = pageOf(ctx, id);
    if (!owner) {
      // Instagram media exist but cannot be deleted through the API; to Graph this is the same answer.
      return missingObject(reply, id, 'delete');
    }
    if (!pageAccess(ctx, req, reply, owner, { write: true, scope: 'pages_manage_posts' })) return reply;
    remove(ctx, id, owner);
    return { success: true };
  });
}

function recordEdit(ctx: MetaContext, id: string, pageId: string, text: string, previous: string): void {
  ctx.ledger.record({ id, accountId: pageId, kind: 'edit', text, media: [], createdAt: ctx.now(), extra: { previousText: previous } });
}

/** The Page that owns a deletable object: a post, a photo, a video (feed, reel or story) or a story. */
function pageOf(ctx: MetaContext, id: string): string | undefined {
  const { state } = ctx;
  return state.posts.get(id)?.pageId ?? state.photos.get(id)?.pageId ?? state.videos.get(id)?.pageId ?? state.stories.get(id)?.pageId;
}

/** Deletes an object with what hangs on it (its feed story, its comments) and records it. */
function remove(ctx: MetaContext, id: string, pageId: string): void {
  const { state } = ctx;
  const text = state.posts.get(id)?.message ?? state.videos.get(id)?.description ?? '';
  const gone = new Set([id]);
  const post = state.posts.get(id);
  if (post?.videoId) gone.add(post.videoId);
  const photo = state.photos.get(id);
  if (photo?.postId) gone.add(photo.postId);
  const video = state.videos.get(id);
  if (video) gone.add(`${video.pageId}_${video.id}`);
  for (const key of gone) {
    state.posts.delete(key);
    state.photos.delete(key);
    state.videos.delete(key);
    state.stories.delete(key);
  }
  for (const story of [...state.stories.values()]) if (gone.has(story.mediaId)) state.stories.delete(story.postId);
  for (const c of [...state.fbComments.values()]) if (gone.has(c.objectId)) state.fbComments.delete(c.id);
  ctx.ledger.record({ id, accountId: pageId, kind: 'delete', text, media: [], createdAt: ctx.now(), extra: { deleted: [...gone] } });
}
