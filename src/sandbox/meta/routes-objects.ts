// GET /{v}/{id}?fields=…: any object the emulator holds, read back the way Graph shows it.
import type { FastifyInstance } from 'fastify';
import { authenticate, fieldsOf, missingObject, select, type MetaContext } from './graph-http.ts';
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
    return select(view.all, fields, view.defaults);
  });

  function viewOf(id: string): { all: Record<string, unknown>; defaults: string[] } | undefined {
    const post = state.posts.get(id);
    if (post) return { all: postView(post), defaults: ['message', 'created_time'] };
    const photo = state.photos.get(id);
    if (photo) {
      const link = `https://www.facebook.com/photo.php?fbid=${photo.id}`;
      return { all: { id, created_time: graphTime(photo.createdAt), link, permalink_url: link, page_story_id: photo.postId }, defaults: ['created_time'] };
    }
    const video = state.videos.get(id);
    if (video) return { all: videoView(ctx, video), defaults: ['description', 'updated_time'] };
    const story = state.stories.get(id);
    if (story) {
      const url = `https://www.facebook.com/stories/${story.pageId}/${story.postId}/`;
      return { all: { id, created_time: graphTime(story.createdAt), permalink_url: url }, defaults: ['created_time'] };
    }
    const container = state.containers.get(id);
    if (container) return { all: containerView(ctx, container), defaults: [] };
    const media = state.media.get(id);
    if (media) return { all: mediaView(ctx, media), defaults: [] };
    const comment = state.comments.get(id);
    if (comment) return { all: { id, text: comment.text, timestamp: graphTime(comment.createdAt) }, defaults: ['text', 'timestamp'] };
    const page = state.pages.get(id);
    if (page) {
      return {
        all: { id, name: page.name, username: page.username, link: `https://www.facebook.com/${page.username ?? page.id}`, instagram_business_account: { id: page.ig.id } },
        defaults: ['name'],
      };
    }
    const ig = state.igAccounts.get(id);
    if (ig) return { all: { id, username: ig.username, name: ig.name, followers_count: 0, media_count: [...state.media.values()].filter((m) => m.igId === id).length }, defaults: [] };
    const user = state.users.get(id);
    if (user) return { all: { id, name: user.name }, defaults: ['name'] };
    return undefined;
  }
}
