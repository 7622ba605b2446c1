// Editing a published Page post (API.md section 12). What publishing answered decides the
// call: a feed or photo post ("{page-id}_{post-id}", the Page Post node) takes a new `message`; a video or
// reel (its video id, the Video node) takes a new `description`. The id stays; Meta documents no window
// and no count for edits. Stories have neither: Graph refuses the edit, and Herald reports that refusal.
// Setting the same text twice changes nothing, and "did a lost edit happen?" is read back from the object.
import { failure, type EditCapability, type EditRequest, type PublishOutcome, type ReconcileOutcome } from '../types.ts';
import { str, type GraphAnswer } from '../meta/graph.ts';
import { absoluteLink, permalink, type FacebookContext } from './common.ts';
import { FACEBOOK_LIMITS } from './info.ts';

/** A Page Post id; anything else publishing answers (videos, reels) is a Video node. */
export function isPagePost(id: string): boolean {
  return /^\d+_\d+$/.test(id);
}

function textField(id: string): 'message' | 'description' {
  return isPagePost(id) ? 'message' : 'description';
}

function fallbackUrl(request: EditRequest): string {
  const id = request.platformPostId;
  return isPagePost(id) ? `https://www.facebook.com/${id}` : `https://www.facebook.com/${request.account.accountId}/videos/${id}`;
}

/** Graph's answer for an object that is not there (any more): (#100) subcode 33. */
export function isGone(res: GraphAnswer): boolean {
  return !res.ok && res.failure.platformCode === '100/33';
}

export async function editPost(ctx: FacebookContext, request: EditRequest): Promise<PublishOutcome> {
  const id = request.platformPostId;
  const token = request.account.accessToken;
  const label = 'Facebook edit';
  const res = await ctx.graph.post(`/${id}`, token, { [textField(id)]: request.content }, { label, creates: true });
  if (!res.ok) return res.failure;
  if (res.body.success === false) return failure('content_rejected', `${label}: Graph did not confirm the change`);
  return { ok: true, platformPostId: id, platformPostUrl: await permalink(ctx, id, token, fallbackUrl(request)) };
}

export async function findEdit(ctx: FacebookContext, request: EditRequest): Promise<ReconcileOutcome> {
  const id = request.platformPostId;
  const field = textField(id);
  const res = await ctx.graph.get(`/${id}`, request.account.accessToken, { fields: `${field},permalink_url` }, { label: 'Facebook post lookup' });
  // The post is gone, and the edit with it.
  if (isGone(res)) return { ok: true, found: false };
  if (!res.ok) return res.failure;
  if ((str(res.body, field) ?? '').trim() !== request.content.trim()) return { ok: true, found: false };
  return { ok: true, found: true, platformPostId: id, platformPostUrl: absoluteLink(str(res.body, 'permalink_url')) ?? fallbackUrl(request) };
}

/** Facebook sets no window and no count on edits; the text obeys the post length limit. */
export function facebookEdit(ctx: FacebookContext): EditCapability {
  return {
    limits: { windowMs: null, maxEdits: null },
    validate: (content) => {
      const length = [...content].length;
      return length > FACEBOOK_LIMITS.maxTextChars
        ? [{ field: 'content', message: `Facebook posts are limited to ${FACEBOOK_LIMITS.maxTextChars} characters (this one has ${length})` }]
        : [];
    },
    send: (request) => editPost(ctx, request),
    find: (request) => findEdit(ctx, request),
  };
}
