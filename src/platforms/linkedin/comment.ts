// The first comment (7.7): POST /rest/socialActions/{post}/comments as the post's author, plain text
// (not little text: escapes would show). The moment of sending is checkpointed first; "was it posted?"
// is answered from the post's comments where this app may read them (a Page's posts), else unknown.
import type { AdapterDeps } from '../deps.ts';
import { failure, type CommentCapability, type CommentOutcome, type CommentRequest, type FindCommentOutcome } from '../types.ts';
import { asNumber, asObject, asString, callRest, encodeUrn } from './api.ts';
import { CLOCK_SKEW_MS } from './checkpoint.ts';
import { isSuccess, linkedInFailure } from './errors.ts';
import { LIMITS } from './info.ts';
import { canReadPosts, matchableText } from './reconcile.ts';

interface CommentCheckpoint {
  sentAt?: number;
  commentUrn?: string;
}

function readCommentCheckpoint(cp: Record<string, unknown> | null): CommentCheckpoint {
  const out: CommentCheckpoint = {};
  if (typeof cp?.sentAt === 'number') out.sentAt = cp.sentAt;
  if (typeof cp?.commentUrn === 'string') out.commentUrn = cp.commentUrn;
  return out;
}

function commentUrnOf(headers: Headers, body: unknown): string | undefined {
  const b = asObject(body);
  return headers.get('x-restli-id') ?? asString(b.commentUrn) ?? asString(b.$URN) ?? asString(b.id);
}

export async function sendComment(deps: AdapterDeps, request: CommentRequest): Promise<CommentOutcome> {
  const cp = readCommentCheckpoint(request.checkpoint);
  if (cp.commentUrn) return { ok: true, platformCommentId: cp.commentUrn };
  if (request.content.length > LIMITS.comment) {
    return failure('content_rejected', `LinkedIn comments are at most ${LIMITS.comment} characters; this one has ${request.content.length}`);
  }
  await request.saveCheckpoint({ sentAt: cp.sentAt ?? deps.clock.now() });
  const res = await callRest(deps, {
    method: 'POST',
    path: `/rest/socialActions/${encodeUrn(request.platformPostId)}/comments`,
    token: request.account.accessToken,
    json: { actor: request.account.accountId, object: request.platformPostId, message: { text: request.content } },
    signal: request.signal,
  });
  if (!isSuccess(res)) return linkedInFailure(res, deps.clock.now(), 'LinkedIn refused the comment', { creates: true });
  const urn = commentUrnOf(res.headers, res.body);
  if (!urn) return failure('outcome_unknown', `LinkedIn accepted the comment (HTTP ${res.status}) without naming it`);
  return { ok: true, platformCommentId: urn };
}

const PAGE_SIZE = 50;
const MAX_PAGES = 4;

export async function findComment(deps: AdapterDeps, request: CommentRequest): Promise<FindCommentOutcome> {
  const cp = readCommentCheckpoint(request.checkpoint);
  if (cp.commentUrn) return { ok: true, found: true, platformCommentId: cp.commentUrn };
  if (cp.sentAt === undefined) return { ok: true, found: false };
  const unreadable = { ok: true as const, found: 'unknown' as const, message: 'LinkedIn does not let this app read the comments of this account\'s posts' };
  if (!canReadPosts(request.account.accountId, request.account.scopes)) return unreadable;
  const since = cp.sentAt - CLOCK_SKEW_MS;
  const want = matchableText(request.content);
  for (let page = 0; page < MAX_PAGES; page++) {
    const res = await callRest(deps, {
      method: 'GET',
      path: `/rest/socialActions/${encodeUrn(request.platformPostId)}/comments`,
      token: request.account.accessToken,
      query: { start: page * PAGE_SIZE, count: PAGE_SIZE },
      signal: request.signal,
    });
    if (res.sent === true && res.status === 403) return unreadable;
    if (!isSuccess(res)) return linkedInFailure(res, deps.clock.now(), 'LinkedIn comment lookup failed');
    const elements = asObject(res.body).elements;
    const comments = Array.isArray(elements) ? elements.map(asObject) : [];
    for (const c of comments) {
      const created = asNumber(asObject(c.created).time);
      const text = asString(asObject(c.message).text) ?? '';
      const urn = asString(c.commentUrn) ?? asString(c.$URN);
      if (urn && c.actor === request.account.accountId && (created === undefined || created >= since) && matchableText(text) === want) {
        return { ok: true, found: true, platformCommentId: urn };
      }
    }
    if (comments.length < PAGE_SIZE) return { ok: true, found: false };
  }
  return { ok: true, found: 'unknown', message: 'too many comments on the post to be sure the comment is not among them' };
}

export function linkedInComment(deps: AdapterDeps): CommentCapability {
  return { send: (request) => sendComment(deps, request), find: (request) => findComment(deps, request) };
}
