// Static facts about Bluesky (AT Protocol): how accounts connect, session lifetimes, and the limits of a
// post, as data. Section numbers point at /work/shared/platforms.md section 10, where each fact's source
// is given; "PDS 0.5.35" facts were run against the real @atproto/pds (docs/internal/bluesky-pds.md).
import type { PlatformInfo } from '../types.ts';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/**
 * The scope an app-password session's access token carries (10.2). A main-password session carries
 * `com.atproto.access` and a privileged app password `com.atproto.appPassPrivileged`; both can do at least
 * what an app password can, so health reports them as holding it too.
 */
export const APP_PASSWORD_SCOPE = 'com.atproto.appPass';
export const WIDER_SCOPES = ['com.atproto.access', 'com.atproto.appPassPrivileged'];

export const BLUESKY_INFO: PlatformInfo = {
  platform: 'bluesky',
  displayName: 'Bluesky',
  // An app password sent to com.atproto.server.createSession on the user's PDS; no browser step (10.2).
  connect: 'password',
  usesPkce: false,
  scopes: [APP_PASSWORD_SCOPE],
  requiredScopes: [APP_PASSWORD_SCOPE],
  // Access JWTs live 2 hours (10.2); refresh well before, since the refresh JWT lives 90 days.
  refreshAheadMs: 10 * MINUTE_MS,
  publishLimits: [
    // Repo writes: 5,000 points an hour and 35,000 a day per account, a create costing 3 (10.11).
    // A post with thread items or a first comment is several creates; the engine counts posts, so these
    // are the ceilings for single posts, and the PDS's own 429 (with its reset) covers the rest.
    { max: Math.floor(5000 / 3), windowMs: HOUR_MS },
    { max: Math.floor(35_000 / 3), windowMs: DAY_MS },
  ],
  // com.atproto.server.deleteSession revokes the refresh token (10.3).
  supportsRevoke: true,
};

/** The collection of posts, and the lexicon types Herald writes. */
export const POST_COLLECTION = 'app.bsky.feed.post';
export const PROFILE_COLLECTION = 'app.bsky.actor.profile';

/** Text of a post (10.10: lexicon maxGraphemes / maxLength). */
export const TEXT_LIMITS = {
  /** Extended grapheme clusters (Intl.Segmenter). */
  maxGraphemes: 300,
  /** UTF-8 bytes. */
  maxBytes: 3000,
  /** `langs`: at most 3 BCP-47 tags (10.10). */
  maxLangs: 3,
  /** A hashtag facet's tag, without '#': 64 graphemes, 640 bytes (10.7). */
  maxTagGraphemes: 64,
  maxTagBytes: 640,
} as const;

/** app.bsky.embed.images (10.8). */
export const IMAGE_RULES = {
  maxImages: 4,
  /** Per image, in the post lexicon (`maxSize`); checked by the PDS when the post is written. */
  maxBytes: 2_000_000,
  /** The lexicon accepts image/*; these are the formats Herald reads the pixel size of for aspectRatio. */
  formats: ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const,
  /** Alt text is required in the record (it may be empty). */
  altRequired: true,
} as const;

/** app.bsky.embed.video (10.8). No mixing with images: a post has one embed. */
export const VIDEO_RULES = {
  maxVideos: 1,
  formats: ['video/mp4'] as const,
  /** The lexicon's `maxSize` (raised from 100 MB, 10.8). */
  lexiconMaxBytes: 300_000_000,
  /**
   * What Herald holds in memory to upload one video. The PDS's own upload limit is the operator's
   * (PDS_BLOB_UPLOAD_LIMIT; the package default 5 MiB, the installer 50 MiB, 10.11): over it, 413.
   */
  heraldMaxBytes: 100_000_000,
  maxCaptions: 20,
  captionMaxBytes: 20_000,
} as const;

/** app.bsky.embed.external: the link card (10.8). The client builds it itself. */
export const LINK_CARD_RULES = {
  /** The card's thumbnail blob. */
  thumbMaxBytes: 1_000_000,
  /** How much of the linked page Herald downloads for its title and description (best effort)... */
  pageMaxBytes: 2 * 1024 * 1024,
  /** ...and how far into it the <head> is looked for. */
  headScanChars: 512 * 1024,
  titleMaxChars: 300,
  descriptionMaxChars: 1000,
} as const;

/** What the PDS does with blobs and records (10.5, 10.13). */
export const REPO_LIMITS = {
  /** listRecords `limit`: 1..100 (default 50). */
  listMax: 100,
} as const;

/** Sessions (10.2, 10.3). */
export const SESSION = {
  accessTtlMs: 2 * HOUR_MS,
  refreshTtlMs: 90 * DAY_MS,
  /** An old refresh token keeps answering with the same next pair this long after rotation. */
  refreshGraceMs: 2 * HOUR_MS,
} as const;

/** Rate limits on a PDS (10.11), keyed as named. */
export const RATE_LIMITS = {
  writePointsPerHour: 5000,
  writePointsPerDay: 35_000,
  createPoints: 3,
  updatePoints: 2,
  deletePoints: 1,
  createSessionPer5Min: 30,
  createSessionPerDay: 300,
} as const;

/** When a 429 carries no reset: the shortest window of the limits above. */
export const RATE_LIMIT_FALLBACK_MS = 5 * MINUTE_MS;

/** The record key of a post is the last segment of its at:// URI. */
export function rkeyOf(uri: string): string {
  return uri.slice(uri.lastIndexOf('/') + 1);
}

/** `https://bsky.app/profile/{handle}/post/{rkey}` (10.15); the DID works in place of the handle. */
export function postUrl(handleOrDid: string, uri: string): string {
  return `https://bsky.app/profile/${encodeURIComponent(handleOrDid)}/post/${encodeURIComponent(rkeyOf(uri))}`;
}

export function postUri(did: string, rkey: string): string {
  return `at://${did}/${POST_COLLECTION}/${rkey}`;
}

/** The DID of an at:// URI (its authority). */
export function didOf(uri: string): string | undefined {
  return /^at:\/\/([^/]+)\//.exec(uri)?.[1];
}
