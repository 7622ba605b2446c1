// The first comment (API.md section 12): a top-level comment by the channel itself, through
// commentThreads.insert (youtube.force-ssl only). Like a publish it is checkpointed before it is sent and
// looked for before it is ever sent again.
import type { AdapterDeps } from '../deps.ts';
import { failure, type CommentCapability, type CommentOutcome, type CommentRequest, type FindCommentOutcome } from '../types.ts';
import { asArray, asNumber, asObject, asString, callApi } from './client.ts';
import { matchable } from './reconcile.ts';

const CLOCK_SKEW_MS = 60_000;
const PAGE_SIZE = 100;
const MAX_PAGES = 3;

/** Comments of the video newest first, looking for this channel's comment with this text. */
export async function findComment(deps: AdapterDeps, request: CommentRequest): Promise<FindCommentOutcome> {
  const sentAt = asNumber(request.checkpoint?.sentAt) ?? request.attemptStartedAt;
  const since = sentAt - CLOCK_SKEW_MS;
  const text = matchable(request.content);
  let pageToken: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const res = await callApi(deps, {
      method: 'GET',
      path: '/youtube/v3/commentThreads',
      token: request.account.accessToken,
      query: { part: 'snippet', videoId: request.platformPostId, order: 'time', textFormat: 'plainText', maxResults: PAGE_SIZE, pageToken },
      signal: request.signal,
    });
    if (!res.ok) return res;
    for (const thread of asArray(res.body.items)) {
      const top = asObject(asObject(asObject(thread.snippet).topLevelComment).snippet);
      const at = Date.parse(asString(top.publishedAt) ?? '');
      if (Number.isFinite(at) && at < since) return { ok: true, found: false };
      const author = asString(asObject(top.authorChannelId).value);
      const original = asString(top.textOriginal);
      const id = asString(thread.id);
      if (id && author === request.account.accountId && original !== undefined && matchable(original) === text) {
        return { ok: true, found: true, platformCommentId: id };
      }
    }
    pageToken = asString(res.body.nextPageToken);
    if (!pageToken) return { ok: true, found: false };
  }
  return { ok: true, found: 'unknown', message: 'too many recent comments to be sure the comment is not among them' };
}

export async function sendComment(deps: AdapterDeps, request: CommentRequest): Promise<CommentOutcome> {
  const done = asString(request.checkpoint?.platformCommentId);
  if (done) return { ok: true, platformCommentId: done };
  if (request.checkpoint?.sentAt !== undefined) {
    // An earlier send may have gone through: look before sending again.
    const earlier = await findComment(deps, request);
    if (!earlier.ok) return earlier;
    if (earlier.found === true) return { ok: true, platformCommentId: earlier.platformCommentId };
    if (earlier.found === 'unknown') return failure('outcome_unknown', `an earlier first comment may have been posted: ${earlier.message}`);
  }
  const sentAt = deps.clock.now();
  await request.saveCheckpoint({ sentAt });
  const res = await callApi(deps, {
    method: 'POST',
    path: '/youtube/v3/commentThreads',
    token: request.account.accessToken,
    query: { part: 'snippet' },
    json: {
      snippet: {
        channelId: request.account.accountId,
        videoId: request.platformPostId,
        topLevelComment: { snippet: { textOriginal: request.content } },
      },
    },
    creates: true,
    signal: request.signal,
  });
  if (!res.ok) return res;
  const id = asString(res.body.id);
  if (!id) return failure('outcome_unknown', 'YouTube accepted the comment without saying its id');
  await request.saveCheckpoint({ sentAt, platformCommentId: id });
  return { ok: true, platformCommentId: id };
}

export function youtubeComment(deps: AdapterDeps): CommentCapability {
  return { send: (request) => sendComment(deps, request), find: (request) => findComment(deps, request) };
}
