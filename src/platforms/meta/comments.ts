// A first comment on Graph (Facebook Page posts and videos, Instagram media): POST /{object-id}/comments
// with `message`, by the account that published the object. The moment of sending is checkpointed before
// the call and the comment's id after it; whether a comment whose answer was lost was made is read back
// from the object's comments (this account's comment with this text, made since the send) before anything
// is sent again.
import type { AdapterDeps } from '../deps.ts';
import { failure, type AccountCredentials, type Checkpoint, type CommentCapability, type CommentOutcome, type CommentRequest, type FindCommentOutcome } from '../types.ts';
import { graphTime, list, obj, str, type Graph, type GraphBody, type GraphParams } from './graph.ts';

const CLOCK_SKEW_MS = 60_000;
const PAGE_SIZE = 100;
const MAX_PAGES = 5;

export interface GraphCommentSpec {
  /** Names the platform in messages: "Facebook", "Instagram". */
  label: string;
  /** The comment's fields to read back, with the names of its text and creation time among them. */
  fields: string;
  textField: string;
  timeField: string;
  /** Extra query when reading an object's comments (Facebook: every comment, newest first). */
  listQuery: GraphParams;
  /** Whether a comment read back was made by the account itself. */
  isOwn(comment: GraphBody, account: AccountCredentials): boolean;
}

interface CommentCheckpoint {
  sentAt?: number;
  commentId?: string;
}

function readCheckpoint(cp: Checkpoint | null): CommentCheckpoint {
  const out: CommentCheckpoint = {};
  if (typeof cp?.sentAt === 'number') out.sentAt = cp.sentAt;
  if (typeof cp?.commentId === 'string' && cp.commentId) out.commentId = cp.commentId;
  return out;
}

function matchable(text: string): string {
  return text.normalize('NFC').trim();
}

async function findComment(graph: Graph, spec: GraphCommentSpec, request: CommentRequest): Promise<FindCommentOutcome> {
  const cp = readCheckpoint(request.checkpoint);
  if (cp.commentId) return { ok: true, found: true, platformCommentId: cp.commentId };
  // The moment of sending is saved before the comment is sent: without it, nothing was.
  if (cp.sentAt === undefined) return { ok: true, found: false };
  const since = cp.sentAt - CLOCK_SKEW_MS;
  const wanted = matchable(request.content);
  let after: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const res = await graph.get(
      `/${request.platformPostId}/comments`,
      request.account.accessToken,
      { fields: spec.fields, limit: PAGE_SIZE, ...spec.listQuery, ...(after ? { after } : {}) },
      { label: `${spec.label} comments`, signal: request.signal },
    );
    if (!res.ok) return res.failure;
    for (const comment of list(res.body)) {
      const id = str(comment, 'id');
      const at = graphTime(comment[spec.timeField]);
      if (!id || !spec.isOwn(comment, request.account) || (at !== undefined && at < since)) continue;
      if (matchable(str(comment, spec.textField) ?? '') === wanted) return { ok: true, found: true, platformCommentId: id };
    }
    const paging = obj(res.body, 'paging');
    after = str(obj(paging, 'cursors'), 'after');
    if (!paging?.next || !after) return { ok: true, found: false };
  }
  return { ok: true, found: 'unknown', message: `too many comments on the ${spec.label} post to be sure the first comment is not among them` };
}

async function sendComment(deps: AdapterDeps, graph: Graph, spec: GraphCommentSpec, request: CommentRequest): Promise<CommentOutcome> {
  const cp = readCheckpoint(request.checkpoint);
  if (cp.commentId) return { ok: true, platformCommentId: cp.commentId };
  if (cp.sentAt !== undefined) {
    // An earlier send may have gone through: look before sending again.
    const earlier = await findComment(graph, spec, request);
    if (!earlier.ok) return earlier;
    if (earlier.found === true) return { ok: true, platformCommentId: earlier.platformCommentId };
    if (earlier.found === 'unknown') return failure('outcome_unknown', `an earlier first comment may have been posted: ${earlier.message}`);
  }
  // The earliest send bounds the search for any of them.
  const sentAt = cp.sentAt ?? deps.clock.now();
  await request.saveCheckpoint({ sentAt });
  const label = `${spec.label} first comment`;
  const res = await graph.post(`/${request.platformPostId}/comments`, request.account.accessToken, { message: request.content }, { label, creates: true, signal: request.signal });
  if (!res.ok) return res.failure;
  const id = str(res.body, 'id');
  if (!id) return failure('outcome_unknown', `${label}: the answer carried no comment id`);
  await request.saveCheckpoint({ sentAt, commentId: id });
  return { ok: true, platformCommentId: id };
}

export function graphComment(deps: AdapterDeps, graph: Graph, spec: GraphCommentSpec): CommentCapability {
  return {
    send: (request) => sendComment(deps, graph, spec, request),
    find: (request) => findComment(graph, spec, request),
  };
}
