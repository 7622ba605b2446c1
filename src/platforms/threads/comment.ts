// The first comment on Threads: a reply by the same account to the published post, made like any post
// (a TEXT container with reply_to_id, then threads_publish; needs threads_manage_replies). The container
// id is checkpointed before threads_publish, as publishing does; a later attempt asks the container first
// (PUBLISHED: the reply is looked up and recorded, never posted again; FINISHED: published now; ERROR or
// EXPIRED: a new one). A reply whose container says PUBLISHED is found among the post's replies
// (GET /{post-id}/replies, needs threads_read_replies): the account's own, with the same text.
import type { AdapterDeps } from '../deps.ts';
import { graphOk } from '../meta/graph-errors.ts';
import { failure, type Checkpoint, type CommentCapability, type CommentOutcome, type CommentRequest, type FindCommentOutcome, type Outcome } from '../types.ts';
import { bodyOf, stringField, type ThreadsApi } from './api.ts';
import { createContainer, readContainerStatus, waitForContainer, type PublishContext } from './containers.ts';
import { containerErrorFailure, threadsFailure } from './errors.ts';
import { readQuota } from './health.ts';
import type { ThreadsSettings } from './settings.ts';

const CLOCK_SLACK_MS = 60_000;
const PAGE_SIZE = 100;
const MAX_PAGES = 5;
// Threads does not say when a rolling-window slot frees up; an hour is a cheap interval to look again.
const QUOTA_RECHECK_MS = 60 * 60_000;

interface ReplyCheckpoint {
  containerId?: string;
  /** When the container was made: the reply cannot be older. */
  createdAt?: number;
  replyId?: string;
}

function readCheckpoint(cp: Checkpoint | null): ReplyCheckpoint {
  const out: ReplyCheckpoint = {};
  if (typeof cp?.containerId === 'string' && cp.containerId) out.containerId = cp.containerId;
  if (typeof cp?.createdAt === 'number') out.createdAt = cp.createdAt;
  if (typeof cp?.replyId === 'string' && cp.replyId) out.replyId = cp.replyId;
  return out;
}

function contextOf(deps: AdapterDeps, api: ThreadsApi, request: CommentRequest): PublishContext {
  const { account } = request;
  return { deps, api, userId: account.accountId, token: account.accessToken, username: account.username, signal: request.signal };
}

/** The account's own reply to the post with this text, made since the container was created. */
async function findReply(ctx: PublishContext, request: CommentRequest, notBefore: number): Promise<Outcome<{ replyId?: string }>> {
  const wanted = request.content.normalize('NFC').trim();
  let after: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const res = await ctx.api.get(
      `${request.platformPostId}/replies`,
      ctx.token,
      { fields: 'id,text,timestamp,username,is_reply_owned_by_me', reverse: true, limit: PAGE_SIZE, after },
      ctx.signal,
    );
    if (!graphOk(res)) return threadsFailure(res, ctx.deps.clock.now(), 'Threads replies');
    const body = bodyOf(res);
    for (const raw of Array.isArray(body.data) ? body.data : []) {
      const r = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
      const id = stringField(r.id);
      const at = typeof r.timestamp === 'string' ? Date.parse(r.timestamp) : Number.NaN;
      const mine = r.is_reply_owned_by_me === true || r.username === ctx.username;
      // Timestamps are whole seconds; allow for that.
      if (!id || !mine || (Number.isFinite(at) && at < notBefore - 1000)) continue;
      if ((typeof r.text === 'string' ? r.text : '').normalize('NFC').trim() === wanted) return { ok: true, replyId: id };
    }
    const paging = body.paging as { next?: unknown; cursors?: { after?: unknown } } | undefined;
    after = paging?.next ? stringField(paging.cursors?.after) : undefined;
    if (!after) return { ok: true };
  }
  return failure('outcome_unknown', 'too many replies to the Threads post to be sure the first comment is not among them');
}

async function findComment(deps: AdapterDeps, api: ThreadsApi, request: CommentRequest): Promise<FindCommentOutcome> {
  const cp = readCheckpoint(request.checkpoint);
  if (cp.replyId) return { ok: true, found: true, platformCommentId: cp.replyId };
  // The container is checkpointed before threads_publish: without one, nothing was published.
  if (!cp.containerId) return { ok: true, found: false };
  const ctx = contextOf(deps, api, request);
  const status = await readContainerStatus(ctx, cp.containerId);
  if (!status.ok) return status;
  if (status.status === 'IN_PROGRESS') return { ok: true, found: 'unknown', message: 'Threads is still processing the reply container' };
  if (status.status !== 'PUBLISHED') return { ok: true, found: false };
  const found = await findReply(ctx, request, (cp.createdAt ?? request.attemptStartedAt) - CLOCK_SLACK_MS);
  if (!found.ok) return found.category === 'outcome_unknown' ? { ok: true, found: 'unknown', message: found.message } : found;
  if (!found.replyId) return { ok: true, found: 'unknown', message: 'Threads shows the reply as published but does not list it yet' };
  return { ok: true, found: true, platformCommentId: found.replyId };
}

async function sendComment(deps: AdapterDeps, api: ThreadsApi, request: CommentRequest): Promise<CommentOutcome> {
  const cp = readCheckpoint(request.checkpoint);
  if (cp.replyId) return { ok: true, platformCommentId: cp.replyId };
  const ctx = contextOf(deps, api, request);
  const recorded = async (saved: ReplyCheckpoint, replyId: string): Promise<CommentOutcome> => {
    await request.saveCheckpoint({ ...saved, replyId });
    return { ok: true, platformCommentId: replyId };
  };
  /** The container was published (by an earlier attempt, maybe): record the reply it became. */
  const adopt = async (saved: ReplyCheckpoint): Promise<CommentOutcome> => {
    const found = await findReply(ctx, request, (saved.createdAt ?? request.attemptStartedAt) - CLOCK_SLACK_MS);
    if (!found.ok) return found;
    if (!found.replyId) return failure('outcome_unknown', 'Threads shows the reply as published but does not list it yet; it will be looked up again');
    return recorded(saved, found.replyId);
  };

  let saved: ReplyCheckpoint = {};
  if (cp.containerId) {
    const read = await readContainerStatus(ctx, cp.containerId);
    if (!read.ok) return read;
    if (read.status === 'PUBLISHED') return adopt(cp);
    // ERROR and EXPIRED containers are dead but harmless: a new one is made.
    if (read.status === 'FINISHED' || read.status === 'IN_PROGRESS') saved = cp;
  }
  if (!saved.containerId) {
    const replyControl = (request.settings as ThreadsSettings).replyControl;
    const created = await createContainer(ctx, { index: 0, text: request.content, media: [], replyControl }, request.platformPostId);
    if (!created.ok) return created;
    saved = { containerId: created.containerId, createdAt: deps.clock.now() };
    await request.saveCheckpoint({ ...saved });
  }
  const containerId = saved.containerId!;
  const ready = await waitForContainer(ctx, containerId);
  if (!ready.ok) return ready;
  if (ready.status === 'PUBLISHED') return adopt(saved);

  const res = await api.post(`${ctx.userId}/threads_publish`, ctx.token, { creation_id: containerId }, ctx.signal);
  if (!graphOk(res)) {
    const f = threadsFailure(res, deps.clock.now(), 'Threads reply', 'publish');
    // The publishing-limit error is undocumented; a throttle may be the reply quota, so look.
    if (f.category === 'rate_limited') return (await replyQuotaFailure(ctx)) ?? f;
    return f;
  }
  const id = stringField(bodyOf(res).id);
  if (id) return recorded(saved, id);
  // No id back: the container says what happened (Threads' troubleshooting guide).
  const read = await readContainerStatus(ctx, containerId);
  if (!read.ok) return { ...read, category: 'outcome_unknown', message: `Threads reply answered without an id; ${read.message}` };
  if (read.status === 'PUBLISHED') return adopt(saved);
  if (read.status === 'ERROR') return containerErrorFailure(read.errorMessage);
  return failure('platform_unavailable', `Threads reply answered without an id and the container is ${read.status}; nothing was posted`);
}

async function replyQuotaFailure(ctx: PublishContext) {
  const read = await readQuota(ctx.deps, ctx.api, { accountId: ctx.userId, accessToken: ctx.token }, { posts: false, replies: true }, ctx.signal);
  const replies = read.ok ? read.quota.replies : undefined;
  if (!replies || replies.used < replies.total) return undefined;
  return failure('quota_exceeded', `Threads allows ${replies.total} API-published replies per 24 hours and all are used`, {
    retryAt: ctx.deps.clock.now() + QUOTA_RECHECK_MS,
    platformCode: 'reply_quota_usage',
  });
}

export function threadsComment(deps: AdapterDeps, api: ThreadsApi): CommentCapability {
  return { send: (request) => sendComment(deps, api, request), find: (request) => findComment(deps, api, request) };
}
