// Finding posts after the fact. A PUBLISHED container does not say which post it became, so the post
// is found in the account's own lists: /threads holds top-level posts, /replies holds replies.
import { graphOk } from '../meta/graph-errors.ts';
import type { Outcome } from '../types.ts';
import { bodyOf, stringField } from './api.ts';
import type { PublishContext } from './containers.ts';
import { threadsFailure } from './errors.ts';
import { threadsProfileUrl } from './info.ts';

// The Threads API refuses `since` values before the API existed (2023-07-05).
const EARLIEST_SINCE = 1_688_540_400;
const PAGE_SIZE = 100;
const MAX_PAGES = 5;

export interface PostSought {
  text: string;
  /** The post it replies to; undefined for a top-level post. */
  replyToId?: string;
  /** Epoch ms; the post cannot be older than this. */
  notBefore: number;
  /** media_type the post must have (TEXT_POST, IMAGE, VIDEO, CAROUSEL_ALBUM): media-only posts share the empty text. */
  mediaType?: string;
}

function normalise(text: string): string {
  return text.normalize('NFC').trim();
}

interface Row {
  id: string;
  text: string;
  at: number;
  permalink?: string;
  repliedTo?: string;
  mediaType?: string;
}

function readRow(raw: unknown): Row | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const r = raw as Record<string, unknown>;
  const id = stringField(r.id);
  if (!id) return undefined;
  const repliedTo = r.replied_to && typeof r.replied_to === 'object' ? stringField((r.replied_to as Record<string, unknown>).id) : undefined;
  const at = typeof r.timestamp === 'string' ? Date.parse(r.timestamp) : Number.NaN;
  return { id, text: typeof r.text === 'string' ? r.text : '', at, permalink: stringField(r.permalink), repliedTo, mediaType: stringField(r.media_type) };
}

/**
 * Looks for the post among the account's recent posts or replies. Answers the oldest match (the first
 * attempt's post) or nothing when the platform positively shows none.
 */
export async function findPost(ctx: PublishContext, sought: PostSought): Promise<Outcome<{ post?: { id: string; permalink?: string } }>> {
  const path = sought.replyToId ? `${ctx.userId}/replies` : `${ctx.userId}/threads`;
  const fields = `id,text,timestamp,permalink,media_type${sought.replyToId ? ',replied_to' : ''}`;
  const since = Math.max(EARLIEST_SINCE, Math.floor(sought.notBefore / 1000));
  const want = normalise(sought.text);
  let best: Row | undefined;
  let after: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const res = await ctx.api.get(path, ctx.token, { fields, since, limit: PAGE_SIZE, after }, ctx.signal);
    if (!graphOk(res)) return threadsFailure(res, ctx.deps.clock.now(), 'Threads recent posts');
    const body = bodyOf(res);
    const rows = Array.isArray(body.data) ? body.data.map(readRow).filter((r): r is Row => r !== undefined) : [];
    for (const row of rows) {
      if (normalise(row.text) !== want) continue;
      if (sought.replyToId && row.repliedTo !== sought.replyToId) continue;
      if (sought.mediaType && row.mediaType && row.mediaType !== sought.mediaType) continue;
      // Timestamps are whole seconds; allow for that.
      if (Number.isFinite(row.at) && row.at < sought.notBefore - 1000) continue;
      if (!best || (Number.isFinite(row.at) && row.at < best.at)) best = row;
    }
    const paging = body.paging as { next?: unknown; cursors?: { after?: unknown } } | undefined;
    after = paging?.next ? stringField(paging.cursors?.after) : undefined;
    if (!after) break;
  }
  return { ok: true, post: best ? { id: best.id, permalink: best.permalink } : undefined };
}

/** The post's permalink; the profile address when Threads will not give one (it omits it for some posts). */
export async function permalinkOf(ctx: PublishContext, postId: string): Promise<string> {
  const res = await ctx.api.get(postId, ctx.token, { fields: 'id,permalink' }, ctx.signal);
  if (graphOk(res)) {
    const permalink = stringField(bodyOf(res).permalink);
    if (permalink) return permalink;
  }
  return threadsProfileUrl(ctx.username);
}
