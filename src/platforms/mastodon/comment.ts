// The first comment: a reply by the same account under the published post, with the post's options
// (visibility, content warning, language). Like a publish it is checkpointed — the Idempotency-Key before
// the call, the reply's id after — and a lost answer is looked for among the post's replies before
// anything is sent again.
import { randomUUID } from 'node:crypto';
import { failure, type Checkpoint, type CommentCapability, type CommentOutcome, type CommentRequest, type FindCommentOutcome } from '../types.ts';
import { instanceOf, isFailure, localIdOf } from './client.ts';
import { CLOCK_SKEW_MS, REPLAY_WINDOW_MS } from './info.ts';
import type { PublishDeps } from './publish.ts';
import { comparableText } from './reconcile.ts';
import { createStatus, descendantsOf, getSource, type Session } from './statuses.ts';
import { statusOptionsOf } from './thread.ts';

export interface CommentCheckpoint {
  key: string;
  sentAt: number;
  statusId?: string;
}

export function readCommentCheckpoint(cp: Checkpoint | null): CommentCheckpoint | null {
  if (!cp || typeof cp.key !== 'string' || !cp.key || typeof cp.sentAt !== 'number') return null;
  const out: CommentCheckpoint = { key: cp.key, sentAt: cp.sentAt };
  if (typeof cp.statusId === 'string' && /^\d+$/.test(cp.statusId)) out.statusId = cp.statusId;
  return out;
}

function sessionOf(p: PublishDeps, request: CommentRequest): Session | ReturnType<typeof failure> {
  const instance = instanceOf(request.account);
  if (isFailure(instance)) return instance;
  return { deps: p.deps, instance, token: request.account.accessToken, signal: request.signal };
}

export async function sendComment(p: PublishDeps, request: CommentRequest): Promise<CommentOutcome> {
  const s = sessionOf(p, request);
  if (isFailure(s)) return s;
  const earlier = readCommentCheckpoint(request.checkpoint);
  if (earlier?.statusId) return { ok: true, platformCommentId: earlier.statusId };
  const now = p.deps.clock.now();
  let cp: CommentCheckpoint;
  if (earlier && now - earlier.sentAt < REPLAY_WINDOW_MS) {
    // Sent before and unanswered: the same key gets that reply back, or makes it now.
    cp = earlier;
  } else {
    cp = { key: `herald-comment-${randomUUID()}`, sentAt: now };
    await request.saveCheckpoint({ ...cp });
  }
  const created = await createStatus(
    s,
    { text: request.content, mediaIds: [], inReplyToId: request.platformPostId, options: statusOptionsOf(request.settings), idempotencyKey: cp.key },
    'Mastodon rejected the first comment',
  );
  if (!created.ok) return created;
  await request.saveCheckpoint({ ...cp, statusId: created.status.id });
  return { ok: true, platformCommentId: created.status.id };
}

/** Whether a first comment whose answer was lost was posted: among the post's replies by this account. */
export async function findComment(p: PublishDeps, request: CommentRequest): Promise<FindCommentOutcome> {
  const cp = readCommentCheckpoint(request.checkpoint);
  // The key is saved before the reply is sent: without it, nothing was sent.
  if (!cp) return { ok: true, found: false };
  if (cp.statusId) return { ok: true, found: true, platformCommentId: cp.statusId };
  const s = sessionOf(p, request);
  if (isFailure(s)) return s;
  const replies = await descendantsOf(s, request.platformPostId, 'Mastodon did not list the post\'s replies');
  if (!replies.ok) return replies;
  if (!replies.statuses) return { ok: true, found: false };
  const me = localIdOf(request.account);
  const since = cp.sentAt - CLOCK_SKEW_MS;
  const wanted = comparableText(request.content);
  const candidates = replies.statuses.filter(
    (st) => st.inReplyToId === request.platformPostId && st.accountId === me && st.mediaIds.length === 0 && (st.createdAt === undefined || st.createdAt >= since),
  );
  for (const st of candidates) {
    const src = await getSource(s, st.id, 'Mastodon did not show a reply\'s text');
    if (!src.ok) return src;
    if (src.source && comparableText(src.source.text) === wanted) {
      await request.saveCheckpoint({ ...cp, statusId: st.id });
      return { ok: true, found: true, platformCommentId: st.id };
    }
  }
  return { ok: true, found: false };
}

export function mastodonComment(p: PublishDeps): CommentCapability {
  return { send: (request) => sendComment(p, request), find: (request) => findComment(p, request) };
}
