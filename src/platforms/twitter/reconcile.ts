// "Did the earlier attempt publish?" The checkpoint says which posts of the chain X accepted; the
// rest are looked for in the user's own timeline since the attempt began (minus a minute), matched
// by text and, for replies, by the post they answer. Posts found are added to the checkpoint so a
// new attempt resumes after them.
import twitterText from 'twitter-text';
import type { AdapterDeps } from '../deps.ts';
import type { PublishRequest, ReconcileOutcome } from '../types.ts';
import { callX } from './api.ts';
import { isSuccess, xFailure } from './errors.ts';
import { postUrl } from './info.ts';
import { checkpointOf, postedIdsOf } from './publish.ts';
import { chainOf } from './thread.ts';

export interface TimelinePost {
  id: string;
  text: string;
  createdAt?: number;
  repliedTo?: string;
}

const PAGE_SIZE = 100;
const MAX_PAGES = 5;
const CLOCK_SKEW_MS = 60_000;

/**
 * Text as compared: X returns t.co links in place of URLs (and appends one for attached media),
 * HTML-escapes &, < and >, and normalises to NFC; none of that should defeat a match.
 */
export function matchableText(text: string): string {
  const unescaped = text.normalize('NFC').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  let out = unescaped;
  for (const url of twitterText.extractUrls(unescaped)) out = out.split(url).join(' ');
  return out.replace(/\s+/g, ' ').trim();
}

export function parseTimelinePost(raw: unknown): TimelinePost | undefined {
  const t = raw as Record<string, unknown> | null;
  if (!t || typeof t.id !== 'string') return undefined;
  const note = (t.note_tweet as { text?: unknown } | undefined)?.text;
  const text = typeof note === 'string' ? note : typeof t.text === 'string' ? t.text : '';
  const refs = Array.isArray(t.referenced_tweets) ? (t.referenced_tweets as { type?: unknown; id?: unknown }[]) : [];
  const repliedTo = refs.find((r) => r?.type === 'replied_to' && typeof r.id === 'string')?.id as string | undefined;
  const createdAt = typeof t.created_at === 'string' ? Date.parse(t.created_at) : NaN;
  return { id: t.id, text, repliedTo, createdAt: Number.isFinite(createdAt) ? createdAt : undefined };
}

function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

type Timeline = { ok: true; posts: TimelinePost[]; complete: boolean } | Extract<ReconcileOutcome, { ok: false }>;

/** The account's own posts since `since`, newest first (at most five pages). */
export async function recentPosts(deps: AdapterDeps, request: Pick<PublishRequest, 'account' | 'signal'>, since: number): Promise<Timeline> {
  const posts: TimelinePost[] = [];
  let next: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const res = await callX(deps, {
      method: 'GET',
      path: `/2/users/${encodeURIComponent(request.account.accountId)}/tweets`,
      token: request.account.accessToken,
      query: {
        max_results: PAGE_SIZE,
        start_time: isoSeconds(since),
        'tweet.fields': 'created_at,referenced_tweets,note_tweet',
        pagination_token: next,
      },
      signal: request.signal,
    });
    if (!isSuccess(res)) return xFailure(res, deps.clock.now(), 'X timeline check failed');
    const body = (res.body ?? {}) as { data?: unknown; meta?: { next_token?: unknown } };
    for (const raw of Array.isArray(body.data) ? body.data : []) {
      const post = parseTimelinePost(raw);
      if (post) posts.push(post);
    }
    next = typeof body.meta?.next_token === 'string' ? body.meta.next_token : undefined;
    if (!next) return { ok: true, posts, complete: true };
  }
  return { ok: true, posts, complete: false };
}

export async function reconcileChain(deps: AdapterDeps, request: PublishRequest): Promise<ReconcileOutcome> {
  const chain = chainOf(request);
  const posted = postedIdsOf(request.checkpoint);
  const done = (): ReconcileOutcome => ({ ok: true, found: true, platformPostId: posted[0]!, platformPostUrl: postUrl(request.account.username, posted[0]!) });
  if (posted.length >= chain.length) return done();

  const wanted = chain.slice(posted.length).map((item) => matchableText(item.text));
  if (wanted.some((text) => text.length === 0)) {
    return { ok: true, found: 'unknown', message: 'a post without text cannot be told apart in the timeline' };
  }
  const since = request.attemptStartedAt - CLOCK_SKEW_MS;
  const timeline = await recentPosts(deps, request, since);
  if (!timeline.ok) return timeline;

  const before = posted.length;
  // Oldest first: the first matching post after the attempt began is the one it made.
  const candidates = [...timeline.posts].reverse().filter((p) => p.createdAt === undefined || p.createdAt >= since);
  for (const text of wanted) {
    const replyTo = posted[posted.length - 1];
    const match = candidates.find((p) => !posted.includes(p.id) && matchableText(p.text) === text && p.repliedTo === replyTo);
    if (!match) break;
    posted.push(match.id);
  }
  if (posted.length > before) await request.saveCheckpoint(checkpointOf(posted));
  if (posted.length >= chain.length) return done();
  if (!timeline.complete) return { ok: true, found: 'unknown', message: 'too many recent posts to be sure the post is not among them' };
  // What is missing is positively absent; the checkpoint holds what is there, so publishing resumes after it.
  return { ok: true, found: false };
}
