// Static facts about Pinterest (API v5), kept as data beside the adapter. Sources and what is still
// unconfirmed: /work/shared/platforms.md section 9 (§ numbers below), checked against the OpenAPI
// description in pinterest/api-description (release 5.23.0) and Pinterest's authentication guide.
import type { PlatformInfo } from '../types.ts';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/**
 * §9.2: the OpenAPI `security` of each endpoint Herald calls. Pin create and delete need all four of
 * boards:read, boards:write, pins:read and pins:write (as a set); user_accounts:read is the identity.
 * Secret boards would need the *_secret variants, which Herald does not ask for.
 */
export const PINTEREST_SCOPES = ['boards:read', 'boards:write', 'pins:read', 'pins:write', 'user_accounts:read'];

export const PINTEREST_INFO: PlatformInfo = {
  platform: 'pinterest',
  displayName: 'Pinterest',
  // §9.2: the token request has no code_verifier (OauthAccessTokenRequestCode); the client secret
  // authenticates the exchange (HTTP Basic).
  usesPkce: false,
  scopes: PINTEREST_SCOPES,
  requiredScopes: PINTEREST_SCOPES,
  // §9.2: access tokens live 30 days; the continuous refresh token lives 60 days and every refresh
  // hands out a new one, so refreshing a week ahead keeps an account connected indefinitely.
  refreshAheadMs: 7 * DAY_MS,
  // §9.10: Pinterest publishes no per-account Pin cap, and the per-minute numbers of its org_write
  // category are not readable in the stored docs. Herald waits on Pinterest's own 429 instead of guessing.
  publishLimits: [],
  // §9.2: POST /v5/oauth/token/revoke exists but only for tokens of system users (others: 403 code 29).
  // A connected person's grant cannot be revoked from the server; they remove the app in Pinterest.
  supportsRevoke: false,
};

/** §9.6: text limits (OpenAPI maxLength of PinCreate; counted in Unicode code points, unconfirmed). */
export const TEXT_LIMITS = {
  title: 100,
  description: 800,
  altText: 500,
  link: 2048,
} as const;

/** §9.5: a Pin is one image, a carousel of 2–5 images (minItems/maxItems), or one video. */
export const CAROUSEL = { minItems: 2, maxItems: 5 } as const;

/**
 * §9.5/§9.6: images. Base64 sources take only JPEG and PNG (ContentType enum, confirmed); URL sources
 * are downloaded by Pinterest, which reads more formats and sizes (third-party figures, unconfirmed:
 * JPEG/PNG/GIF/WEBP/BMP/TIFF, 20 MB by Ayrshare, 32 MB by getlate). Herald takes the stricter size.
 * Carousel items of the same dimensions and a minimum size (403 code 233) are unconfirmed too.
 */
export const IMAGE_RULES = {
  base64ContentTypes: ['image/jpeg', 'image/png'],
  urlContentTypes: ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/bmp', 'image/tiff'],
  maxBytes: 20 * 1024 * 1024,
  /** 2:3 (1000 × 1500) is what Pinterest recommends; not a limit. */
  recommendedAspectRatio: '2:3',
} as const;

/**
 * §9.6: videos (all third-party figures, unconfirmed: getlate's media guidelines). Herald checks the
 * container and the size before uploading; duration and aspect ratio are left to Pinterest.
 */
export const VIDEO_RULES = {
  containers: ['video/mp4', 'video/quicktime'],
  /** Pinterest: 2 GB. Herald holds a video in memory while uploading it, so it stops at 512 MiB. */
  maxBytes: 512 * 1024 * 1024,
  platformMaxBytes: 2 * 1024 * 1024 * 1024,
  minDurationSec: 4,
  maxDurationSec: 15 * 60,
  /** Between 1.91:1 and 1:2 (width:height). */
  aspectRatio: { min: 1 / 2, max: 1.91 },
} as const;

/**
 * Herald sends the image bytes it fetched and checked (image_base64) when they are JPEG or PNG and
 * the Pin's images weigh at most this much together (the JSON body is a third larger); otherwise it
 * hands Pinterest the URLs (image_url), which Pinterest downloads itself. Herald's choice.
 */
export const BASE64_MAX_TOTAL_BYTES = 20 * 1024 * 1024;

/**
 * §9.5: a video Pin needs a cover. Herald has no cover setting (API.md §11 lists boardId, title and link),
 * so it asks for the frame at this second (cover_image_key_frame_time; past the end = the last frame).
 */
export const VIDEO_COVER_KEY_FRAME_SEC = 0;

/** §9.10: wait after a 429 that names no reset time (Standard access limits are per minute). */
export const RATE_LIMIT_WAIT_MS = MINUTE_MS;
/** After a 429 that reads as a daily or spam block (§9.10: Trial access is 1,000 requests a day). */
export const DAILY_BLOCK_WAIT_MS = DAY_MS;

/** How far before the pin call Herald looks for a Pin it may have made (clock skew with Pinterest). */
export const RECONCILE_SKEW_MS = MINUTE_MS;

/** Boards remembered on the account (for rule messages that list them). */
export const MAX_BOARDS_IN_META = 50;

/** §9.9: the Pin object has no permalink field; this is the public address. */
export function pinUrl(id: string): string {
  return `https://www.pinterest.com/pin/${id}/`;
}
