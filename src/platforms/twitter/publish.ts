// Publishing a chain: the post, then each thread item as a reply to the one before. After every
// post the ids so far are saved as the checkpoint, so a later attempt resumes after the last post
// X accepted instead of posting anything twice.
import type { AdapterDeps } from '../deps.ts';
import { failure, type Checkpoint, type PlatformFailure, type PublishOutcome, type PublishRequest } from '../types.ts';
import { callX, idOf } from './api.ts';
import { isSuccess, xFailure } from './errors.ts';
import { postUrl } from './info.ts';
import { uploadMedia } from './media.ts';
import { chainOf, replySettingsOf, type ChainItem } from './thread.ts';

/** Ids of the chain's posts already on X, in order (index 0 is the post itself). */
export function postedIdsOf(checkpoint: Checkpoint | null): string[] {
  const ids = checkpoint?.postedIds;
  return Array.isArray(ids) && ids.every((id) => typeof id === 'string' && /^\d+$/.test(id)) ? [...(ids as string[])] : [];
}

export function checkpointOf(postedIds: string[]): Checkpoint {
  return { postedIds: [...postedIds] };
}

function where(index: number): string {
  return index === 0 ? 'the post' : `reply ${index} of the thread`;
}

function withContext(f: PlatformFailure, index: number): PlatformFailure {
  return index === 0 ? f : { ...f, message: `${where(index)}: ${f.message}` };
}

async function postItem(
  deps: AdapterDeps,
  request: PublishRequest,
  item: ChainItem,
  replyTo: string | undefined,
  index: number,
): Promise<{ ok: true; id: string } | PlatformFailure> {
  const token = request.account.accessToken;
  const mediaIds: string[] = [];
  for (const m of item.media) {
    const up = await uploadMedia(deps, token, m, request.signal);
    if (!up.ok) return withContext(up, index);
    mediaIds.push(up.mediaId);
  }
  const body: Record<string, unknown> = {};
  if (item.text.length > 0) body.text = item.text;
  if (mediaIds.length > 0) body.media = { media_ids: mediaIds };
  if (replyTo) body.reply = { in_reply_to_tweet_id: replyTo };
  const replySettings = replySettingsOf(request.settings);
  if (replySettings) body.reply_settings = replySettings;

  const res = await callX(deps, { method: 'POST', path: '/2/tweets', token, body: { json: body }, signal: request.signal });
  const label = `X rejected ${where(index)}`;
  if (!isSuccess(res)) return xFailure(res, deps.clock.now(), label, { creates: true });
  const id = idOf(res.body);
  // A success without an id may still have created the post.
  if (!id) return failure('outcome_unknown', `${label}: X answered ${res.status} without a post id`, { httpStatus: res.status });
  return { ok: true, id };
}

export async function publishChain(deps: AdapterDeps, request: PublishRequest): Promise<PublishOutcome> {
  const chain = chainOf(request);
  const posted = postedIdsOf(request.checkpoint);
  for (let i = posted.length; i < chain.length; i++) {
    const out = await postItem(deps, request, chain[i]!, posted[i - 1], i);
    if (!out.ok) return out;
    posted.push(out.id);
    await request.saveCheckpoint(checkpointOf(posted));
  }
  const first = posted[0];
  if (!first) return failure('content_rejected', 'nothing to publish');
  return { ok: true, platformPostId: first, platformPostUrl: postUrl(request.account.username, first) };
}
