// Static facts about X: scopes, limits and the rules that depend on the account's subscription.
import type { AccountMeta, PlatformInfo } from '../types.ts';

export const TWITTER_SCOPES = ['tweet.read', 'tweet.write', 'users.read', 'media.write', 'offline.access'];

export const twitterInfo: PlatformInfo = {
  platform: 'twitter',
  displayName: 'X',
  usesPkce: true,
  scopes: TWITTER_SCOPES,
  // offline.access is required too: without it no refresh token is issued and the account dies in 2 hours.
  requiredScopes: TWITTER_SCOPES,
  refreshAheadMs: 5 * 60_000,
  publishLimits: [{ max: 100, windowMs: 15 * 60_000 }],
  supportsRevoke: true,
};

/** twitter-text's maxWeightedTweetLength. */
export const MAX_TEXT_WEIGHTED = 280;
/** Long posts for paid subscriptions (X changelog, 20 Aug 2024: "length of 25k"). */
export const PAID_MAX_TEXT_WEIGHTED = 25_000;
export const MAX_IMAGES = 4;
export const MAX_VIDEOS = 1;

export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const GIF_MAX_BYTES = 15 * 1024 * 1024;
/** Herald holds media in memory while uploading; X itself accepts far larger videos. */
export const VIDEO_MAX_BYTES = 512 * 1024 * 1024;
/** v1.1 documented 5 MB per APPEND; v2 does not say, so stay below it. */
export const CHUNK_BYTES = 4 * 1024 * 1024;

export const EDIT_WINDOW_MS = 60 * 60_000;
export const MAX_EDITS = 5;

/** subscription_type values from /2/users/me that unlock long posts and editing. */
const PAID_SUBSCRIPTIONS = new Set(['Basic', 'Premium', 'PremiumPlus']);

export function isPaidSubscription(subscriptionType: unknown): boolean {
  return typeof subscriptionType === 'string' && PAID_SUBSCRIPTIONS.has(subscriptionType);
}

export function hasPaidSubscription(meta: AccountMeta): boolean {
  return isPaidSubscription(meta.subscriptionType);
}

export function postUrl(username: string, id: string): string {
  return `https://x.com/${encodeURIComponent(username)}/status/${id}`;
}
