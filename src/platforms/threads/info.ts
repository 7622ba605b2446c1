// Static facts about Threads (developers.facebook.com/docs/threads, checked 2026-11).
import type { PlatformInfo } from '../types.ts';

/** Threads has its own Graph version line, independent of Facebook's vNN.0. */
export const THREADS_GRAPH_VERSION = 'v1.0';

const HOUR_MS = 60 * 60_000;
const DAY_MS = 24 * HOUR_MS;

export const THREADS_LIMITS = {
  /** Characters per post; emoji count as their UTF-8 byte length (docs: "Threads Posts", Limitations). */
  maxTextLength: 500,
  /** Unique links per post; more fail at container creation with THREADS_API__LINK_LIMIT_EXCEEDED (since 2025-12-22). */
  maxLinks: 5,
  minCarouselItems: 2,
  maxCarouselItems: 20,
  /** API-published posts per profile per rolling 24 h, enforced on threads_publish. Carousels count once. */
  postsPerDay: 250,
  /** API-published replies per profile per rolling 24 h. */
  repliesPerDay: 1000,
  /** Deletes per profile per day (docs: "Delete Posts", Limitations). */
  deletesPerDay: 100,
  /** Long-lived tokens live 60 days and may be refreshed once they are 24 h old. */
  longLivedTokenMs: 60 * DAY_MS,
  minTokenAgeForRefreshMs: DAY_MS,
  /** Unpublished containers expire after 24 h. */
  containerTtlMs: DAY_MS,
} as const;

export const THREADS_INFO: PlatformInfo = {
  platform: 'threads',
  displayName: 'Threads',
  // The authorization window takes no code_challenge; the app secret authenticates the exchange.
  usesPkce: false,
  // threads_manage_replies: threadItems and the firstComment are published as replies (reply_to_id), and
  // the reply quota (reply_quota_usage) can only be read with it. threads_read_replies: reading a post's
  // replies, to find a first comment whose answer was lost. threads_delete: unpublishing.
  scopes: ['threads_basic', 'threads_content_publish', 'threads_manage_replies', 'threads_read_replies', 'threads_delete'],
  requiredScopes: ['threads_basic', 'threads_content_publish'],
  // No refresh token: the long-lived token itself is refreshed, and only while it is still valid.
  refreshAheadMs: 7 * DAY_MS,
  renewal: 'access_token',
  publishLimits: [{ max: THREADS_LIMITS.postsPerDay, windowMs: DAY_MS }],
  // No revoke call is documented; users remove the app in their Threads settings.
  supportsRevoke: false,
};

/** Public profile address, used when a post's permalink cannot be read. */
export function threadsProfileUrl(username: string): string {
  return `https://www.threads.com/@${encodeURIComponent(username)}`;
}
