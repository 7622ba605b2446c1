// Static facts about YouTube (Google OAuth 2.0 + YouTube Data API v3), kept as data beside the adapter.
// The section numbers are those of /work/shared/platforms.md section 8, where the sources are listed;
// facts marked "unconfirmed" there are marked so here too.
import type { PlatformInfo } from '../types.ts';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/** §8.3: the scopes each method needs (from the discovery document). */
export const SCOPE = {
  /** videos.insert, thumbnails.set. */
  upload: 'https://www.googleapis.com/auth/youtube.upload',
  /** channels.list, videos.list, playlistItems.list, search.list. */
  readonly: 'https://www.googleapis.com/auth/youtube.readonly',
  /** All of the above plus videos.update, videos.delete, and the only scope of commentThreads.insert. */
  forceSsl: 'https://www.googleapis.com/auth/youtube.force-ssl',
  /** Everything but comments. Not requested; accepted where the API accepts it. */
  manage: 'https://www.googleapis.com/auth/youtube',
  partner: 'https://www.googleapis.com/auth/youtubepartner',
} as const;

/** Requested on consent. With granular consent the user may untick some: the granted list is read back. */
export const YOUTUBE_SCOPES = [SCOPE.upload, SCOPE.readonly, SCOPE.forceSsl];

export const YOUTUBE_INFO: PlatformInfo = {
  platform: 'youtube',
  displayName: 'YouTube',
  // §8.3: optional for web apps, supported (S256); Herald sends it.
  usesPkce: true,
  scopes: YOUTUBE_SCOPES,
  // Publishing needs upload (the video) and readonly (identity, reconcile, processing status). force-ssl
  // only serves first comments, edits and unpublishing, which fail alone (with permission_missing) without it.
  requiredScopes: [SCOPE.upload, SCOPE.readonly],
  // §8.1: access tokens live 3,599 s; refresh tokens do not rotate and do not expire (unless revoked,
  // unused for 6 months, or issued to an app in "Testing", which get 7 days).
  refreshAheadMs: 5 * MINUTE_MS,
  // §8.7: the project may call videos.insert 100 times a day (current quota model). That is per Google
  // Cloud project, so it also bounds any one channel; a rolling day is at least as strict as Google's
  // calendar day (reset at midnight Pacific).
  publishLimits: [{ max: 100, windowMs: DAY_MS }],
  supportsRevoke: true,
};

// ---------------------------------------------------------------------------------------------
// Text limits (§8.5 "Writable metadata", §8.1)

export const TEXT_LIMITS = {
  /** snippet.title: required, ≤ 100 characters (counted as Unicode code points), no < or >. */
  titleChars: 100,
  /** snippet.description: ≤ 5,000 bytes of UTF-8, no < or >. */
  descriptionBytes: 5000,
  /** snippet.tags: ≤ 500 characters in all; commas between tags count, a tag with a space counts 2 more. */
  tagsChars: 500,
  /** commentThreads.insert textOriginal: 10,000 characters (unconfirmed, §8.12 point 5). */
  commentChars: 10_000,
} as const;

/** Characters YouTube refuses in titles and descriptions (§8.5). */
export const FORBIDDEN_TEXT_CHARS = /[<>]/;

/** §8.5: categories assignable in the US; other regions differ, so Herald checks only the form. */
export const US_ASSIGNABLE_CATEGORIES = ['1', '2', '10', '15', '17', '19', '20', '22', '23', '24', '25', '26', '27', '28', '29'] as const;
/** 22 = People & Blogs. Herald always sends a category, so YouTube's own default (unconfirmed) never applies. */
export const DEFAULT_CATEGORY_ID = '22';

export const PRIVACY_STATUSES = ['public', 'unlisted', 'private'] as const;
export type PrivacyStatus = (typeof PRIVACY_STATUSES)[number];
/** Herald's default when the target sets none (YouTube's own default is unconfirmed, §8.12 point 6). */
export const DEFAULT_PRIVACY: PrivacyStatus = 'public';

// ---------------------------------------------------------------------------------------------
// Media rules (§8.6, thumbnails §8.5). A later media-library change reads these.

export const VIDEO_RULES = {
  /** Exactly one video per post, no images, no text-only posts (§8.6). */
  perPost: 1,
  /** §8.6: discovery maxSize 274877906944 (256 GB). */
  maxBytes: 274_877_906_944,
  /** §8.6: MIME types the upload endpoint takes. */
  uploadMimeTypes: ['video/*', 'application/octet-stream'],
  /** Containers Herald recognises from the bytes and names in X-Upload-Content-Type (others go as octet-stream). */
  recognisedMimeTypes: ['video/mp4', 'video/quicktime', 'video/webm', 'video/x-msvideo', 'video/x-flv', 'video/mpeg', 'video/3gpp'],
  /** §8.6: unverified channels (status.longUploadsStatus != allowed) may upload at most 15 minutes. */
  maxDurationSecUnverified: 15 * 60,
  /** §8.6: verified channels up to 12 hours (third-party source there). */
  maxDurationSecVerified: 12 * 60 * 60,
  /** §8.6: no API flag; a square or vertical video of at most 3 minutes is a Short. */
  shortsMaxDurationSec: 3 * 60,
  /** §8.6: Shorts are square or vertical (width ≤ height); any other aspect ratio is an ordinary video. */
  shortsMaxAspectRatio: 1,
  /** Neither the API nor §8 documents a required codec, dimension or aspect ratio for ordinary videos. */
  codecs: null,
} as const;

export const THUMBNAIL_RULES = {
  /** §8.5: thumbnails.set takes JPEG or PNG. */
  mimeTypes: ['image/jpeg', 'image/png'],
  /** §8.5: discovery maxSize 2097152 (2 MB). */
  maxBytes: 2_097_152,
} as const;

/**
 * Herald holds a video in memory while it uploads it (as for X and TikTok); YouTube itself takes up to
 * VIDEO_RULES.maxBytes.
 */
export const HERALD_MAX_VIDEO_BYTES = 512 * 1024 * 1024;

/** §8.5: every chunk but the last must be a multiple of 256 KiB. */
export const CHUNK_GRANULARITY = 256 * 1024;
/** Herald's chunk: 32 × 256 KiB. Google's clients use larger ones; this bounds memory per request. */
export const PREFERRED_CHUNK_BYTES = 32 * CHUNK_GRANULARITY;

// ---------------------------------------------------------------------------------------------
// Quota (§8.7)

export const QUOTA = {
  /** Units per day for everything but videos.insert and search.list (current model). */
  dailyUnits: 10_000,
  /** videos.insert calls per day in their own bucket (current model). */
  dailyUploads: 100,
  /** The older model charged videos.insert 1,600 of the 10,000 units. */
  legacyInsertCost: 1600,
  cost: { list: 1, update: 50, delete: 50, thumbnailsSet: 50, commentInsert: 50, searchLegacy: 100 },
  /** Quotas reset at midnight Pacific time. */
  resetTimeZone: 'America/Los_Angeles',
} as const;

/** Wait after rateLimitExceeded when YouTube sends no Retry-After (§8.7: none is documented). */
export const RATE_LIMIT_WAIT_MS = MINUTE_MS;
/** uploadLimitExceeded: "try again in 24 hours" (YouTube developer news, §8.5). */
export const UPLOAD_CAP_WAIT_MS = DAY_MS;

export function watchUrl(videoId: string): string {
  return `https://www.youtube.com/watch?v=${encodeURIComponent(videoId)}`;
}
