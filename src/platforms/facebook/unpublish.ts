// Taking a post down: DELETE /{id} with the Page token (pages_manage_posts), on what publishing answered:
// the Page Post of a text, link or photo post, or the Video node of a video or reel (which takes its feed
// story with it). A post that is already gone counts as deleted; a lost answer is safe to send again.
import { failure, type Outcome, type UnpublishRequest } from '../types.ts';
import type { FacebookContext } from './common.ts';
import { isGone } from './edit.ts';

export async function unpublishFacebook(ctx: FacebookContext, request: UnpublishRequest): Promise<Outcome<{ deleted: true }>> {
  const res = await ctx.graph.delete(`/${request.platformPostId}`, request.account.accessToken, {}, { label: 'Facebook delete' });
  if (isGone(res)) return { ok: true, deleted: true };
  if (!res.ok) return res.failure;
  if (res.body.success === false) return failure('platform_unavailable', 'Facebook delete: Graph did not confirm the delete; sending it again is safe');
  return { ok: true, deleted: true };
}
