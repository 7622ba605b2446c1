// GET /{v}/{id}?fields=…: any object the emulator holds, read back the way Graph shows it, to the
// tokens Graph would show it to: a Page's content to that Page's token or its manager's (with
// pages_read_engagement), an Instagram account's objects to its user's token (with instagram_basic), a
// user to that user. Pages themselves are public. Anyone else is told the object does not exist.
import type { FastifyInstance } from 'fastify';
import { authenticate, fieldsOf, graphError, hasScope, missingObject, select, type Caller, type MetaContext } from './graph-http.ts';
import { postView } from './routes-pages.ts';
import { graphTime } from './state.ts';
import { containerView, mediaView, videoView } from './views.ts';

export function objectRoutes(app: FastifyInstance, ctx: MetaContext): void {
  const { state } = ctx;

  app.get('/:v/:id', async (req, reply) => {
    const caller = authenticate(ctx, req, reply);
    if (!caller) return reply;
    const { id } = req.params as { id: string };
    const fields = fieldsOf(req);
    const view = viewOf(id);
    if (!view) return missingObject(reply, id);
    const denied = refusal(caller, view.owner);
    if (denied === 'hidden') return missingObject(reply, id);
    if (denied) return graphError(reply, 403, 10, `(#10) This endpoint requires the '${denied}' permission`);
    return select(view.all, fields, view.defaults);
  });

  /** Why the caller may not read an object of this owner: 'hidden' (not theirs), a missing permission, or undefined. */
  function refusal(caller: Caller, owner: Owner): 'hidden' | string | undefined {
    if (owner.kind === 'public') return undefined;
    if (owner.kind === 'user') return caller.kind === 'app' || (caller.kind === 'user' && caller.userId === owner.userId) ? undefined : 'hidden';
    if (owner.kind === 'page') {
      const page = state.pages.get(owner.pageId);
      const own = (caller.kind === 'page' && caller.pageId === owner.pageId) || (caller.kind === 'user' && caller.userId === page?.userId);
      if (!own) return 'hidden';
      return hasScope(caller, 'pages_read_engagement') ? undefined : 'pages_read_engagement';
    }
    const ig = state.igAccounts.get(owner.igId);
    if (caller.kind !== 'user' || caller.userId !== ig?.userId) return 'hidden';
    return hasScope(caller, 'instagram_basic') ? undefined : 'instagram_basic';
  }

  function viewOf(id: string): { all: Record<string, unknown>; defaults: string[]; owner: Owner } | undefined {
    const post = state.posts.get(id);
    if (post) return { all: postView(post), defaults: ['message', 'created_time'], owner: { kind: 'page', pageId: post.pageId } };
    const photo = state.photos.get(id);
    if (photo) {
      const link = `https://www.facebook.com/photo.php?fbid=${photo.id}`;
      return {
        all: { id, created_time: graphTime(photo.createdAt), link, permalink_url: link, page_story_id: photo.postId },
        defaults: ['created_time'],
        owner: { kind: 'page', pageId: photo.pageId },
      };
    }
    const video = state.videos.get(id);
    if (video) return { all: videoView(ctx, video), defaults: ['description', 'updated_time'], owner: { kind: 'page', pageId: video.pageId } };
    const story = state.stories.get(id);
    if (story) {
      const url = `https://www.facebook.com/stories/${story.pageId}/${story.postId}/`;
      return { all: { id, created_time: graphTime(story.createdAt), permalink_url: url }, defaults: ['created_time'], owner: { kind: 'page', pageId: story.pageId } };
    }
    const container = state.containers.get(id);
    if (container) return { all: containerView(ctx, container), defaults: [], owner: { kind: 'ig', igId: container.igId } };
    const media = state.media.get(id);
    if (media) return { all: mediaView(ctx, media), defaults: [], owner: { kind: 'ig', igId: media.igId } };
    const comment = state.comments.get(id);
    if (comment) {
      const igId = state.media.get(comment.mediaId)?.igId ?? '';
      return { all: { id, text: comment.text, timestamp: graphTime(comment.createdAt) }, defaults: ['text', 'timestamp'], owner: { kind: 'ig', igId } };
    }
    const page = state.pages.get(id);
    if (page) {
      return {
        all: { id, name: page.name, username: page.username, link: `https://www.facebook.com/${page.username ?? page.id}`, instagram_business_account: { id: page.ig.id } },
        defaults: ['name'],
        owner: { kind: 'public' },
      };
    }
    const ig = state.igAccounts.get(id);
    if (ig) {
      return {
        all: { id, username: ig.username, name: ig.name, followers_count: 0, media_count: [...state.media.values()].filter((m) => m.igId === id).length },
        defaults: [],
        owner: { kind: 'ig', igId: id },
      };
    }
    const user = state.users.get(id);
    if (user) return { all: { id, name: user.name }, defaults: ['name'], owner: { kind: 'user', userId: id } };
    return undefined;
  }
}

type Owner = { kind: 'public' } | { kind: 'user'; userId: string } | { kind: 'page'; pageId: string } | { kind: 'ig'; igId: string };
