// The first comment on X: a reply to the published post by the same account (POST /2/tweets with
// reply.in_reply_to_tweet_id). Whether a reply whose answer was lost was made is read from the account's
// own timeline since the attempt began: a reply to that post with that text.
import type { AdapterDeps } from '../deps.ts';
import { failure, type CommentCapability, type CommentRequest, type FindCommentOutcome } from '../types.ts';
import { callX, idOf } from './api.ts';
import { isSuccess, xFailure } from './errors.ts';
import { matchableText, recentPosts } from './reconcile.ts';

const CLOCK_SKEW_MS = 60_000;

async function send(deps: AdapterDeps, request: CommentRequest) {
  const res = await callX(deps, {
    method: 'POST',
    path: '/2/tweets',
    token: request.account.accessToken,
    body: { json: { text: request.content, reply: { in_reply_to_tweet_id: request.platformPostId } } },
    signal: request.signal,
  });
  const label = 'X refused the first comment';
  if (!isSuccess(res)) return xFailure(res, deps.clock.now(), label, { creates: true });
  const id = idOf(res.body);
  if (!id) return failure('outcome_unknown', `${label}: X answered ${res.status} without a post id`, { httpStatus: res.status });
  return { ok: true as const, platformCommentId: id };
}

async function find(deps: AdapterDeps, request: CommentRequest): Promise<FindCommentOutcome> {
  const timeline = await recentPosts(deps, request, request.attemptStartedAt - CLOCK_SKEW_MS);
  if (!timeline.ok) return timeline;
  const text = matchableText(request.content);
  const reply = timeline.posts.find((p) => p.repliedTo === request.platformPostId && matchableText(p.text) === text);
  if (reply) return { ok: true, found: true, platformCommentId: reply.id };
  return timeline.complete ? { ok: true, found: false } : { ok: true, found: 'unknown', message: 'more posts since the attempt than X lets Herald read back' };
}

export function twitterComment(deps: AdapterDeps): CommentCapability {
  return { send: (request) => send(deps, request), find: (request) => find(deps, request) };
}
