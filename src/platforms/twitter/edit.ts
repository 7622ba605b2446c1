// Editing a post: X creates a new version with a new id (POST /2/tweets with edit_options).
// Eligibility (paid subscription, own post, time window, 5 edits) is X's to enforce; Herald checks
// its own records first and X's refusal comes back as a failure.
import type { AdapterDeps } from '../deps.ts';
import { failure, type EditCapability, type EditRequest, type PublishOutcome, type ReconcileOutcome } from '../types.ts';
import { callX, idOf } from './api.ts';
import { isSuccess, xFailure } from './errors.ts';
import { EDIT_WINDOW_MS, hasPaidSubscription, MAX_EDITS, postUrl } from './info.ts';
import { matchableText, parseTimelinePost } from './reconcile.ts';
import { checkText } from './validate.ts';

export async function editPost(deps: AdapterDeps, request: EditRequest): Promise<PublishOutcome> {
  const res = await callX(deps, {
    method: 'POST',
    path: '/2/tweets',
    token: request.account.accessToken,
    body: { json: { text: request.content, edit_options: { previous_post_id: request.platformPostId } } },
  });
  const label = 'X refused the edit';
  if (!isSuccess(res)) return xFailure(res, deps.clock.now(), label, { creates: true });
  const id = idOf(res.body);
  if (!id) return failure('outcome_unknown', `${label}: X answered ${res.status} without a post id`, { httpStatus: res.status });
  return { ok: true, platformPostId: id, platformPostUrl: postUrl(request.account.username, id) };
}

async function lookup(deps: AdapterDeps, request: EditRequest, id: string) {
  return callX(deps, {
    method: 'GET',
    path: `/2/tweets/${encodeURIComponent(id)}`,
    token: request.account.accessToken,
    query: { 'tweet.fields': 'note_tweet' },
  });
}

/**
 * "Did an edit whose answer was lost happen?" Asked before anything is re-sent. A version of a post
 * lists the whole edit chain (edit_history_tweet_ids, oldest first), so the version after the one
 * that was edited is the edit, if it carries the text that was sent. Only the latest version can be
 * edited, so a next version with other text means this edit did not happen.
 */
export async function findEdit(deps: AdapterDeps, request: EditRequest): Promise<ReconcileOutcome> {
  const res = await lookup(deps, request, request.platformPostId);
  if (!isSuccess(res)) return xFailure(res, deps.clock.now(), 'X post lookup failed');
  const data = (res.body as { data?: { edit_history_tweet_ids?: unknown } } | null)?.data;
  // X answers 200 with only `errors` for a post that is gone; with it went every version.
  if (!data) return { ok: true, found: false };
  const chain = Array.isArray(data.edit_history_tweet_ids) ? data.edit_history_tweet_ids.filter((id): id is string => typeof id === 'string') : [];
  const at = chain.indexOf(request.platformPostId);
  if (at === -1) return { ok: true, found: 'unknown', message: 'X listed an edit history without the post that was edited' };
  const next = chain[at + 1];
  if (!next) return { ok: true, found: false };

  const version = await lookup(deps, request, next);
  if (!isSuccess(version)) return xFailure(version, deps.clock.now(), 'X post lookup failed');
  const post = parseTimelinePost((version.body as { data?: unknown } | null)?.data);
  if (!post) return { ok: true, found: 'unknown', message: `X did not show version ${next} of the post` };
  if (matchableText(post.text) !== matchableText(request.content)) return { ok: true, found: false };
  return { ok: true, found: true, platformPostId: next, platformPostUrl: postUrl(request.account.username, next) };
}

/**
 * X's edit capability. Its limits are X's own (paid subscription, 1 hour, 5 edits); Herald checks them
 * first so the caller gets a precise 422 before X is asked.
 */
export function twitterEdit(deps: AdapterDeps): EditCapability {
  return {
    limits: {
      windowMs: EDIT_WINDOW_MS,
      maxEdits: MAX_EDITS,
      accountRule: (meta) =>
        hasPaidSubscription(meta) ? null : { code: 'PREMIUM_REQUIRED', message: 'editing posts needs a paid X subscription on the account' },
    },
    validate: (content, account) => checkText(content, 'content', hasPaidSubscription(account.meta)),
    send: (request) => editPost(deps, request),
    find: (request) => findEdit(deps, request),
  };
}
