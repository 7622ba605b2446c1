// Static facts about Mastodon (the REST API of one instance, 4.3–4.4), kept as data beside the adapter.
// Sources: /work/shared/platforms.md section 11 (docs.joinmastodon.org and the server source), section
// numbers beside each constant. Every instance is its own host and may change the limits below; the
// adapter reads them from the instance (GET /api/v2/instance) and these are only the defaults.
import type { PlatformInfo } from '../types.ts';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/**
 * Scopes Herald registers its app with and asks for (§11.3, docs "OAuth scopes"). Granular scopes work on
 * every Mastodon since 2.4. `profile` (4.3+) would do for verify_credentials alone, but an instance before
 * 4.3 refuses to register an app that names it, so `read:accounts` stands in for it.
 */
export const MASTODON_SCOPES = ['read:accounts', 'read:statuses', 'write:statuses', 'write:media'];

export const MASTODON_INFO: PlatformInfo = {
  platform: 'mastodon',
  displayName: 'Mastodon',
  connect: 'server_oauth',
  // PKCE S256 since 4.3.0 (mastodon/mastodon#31129). Older servers ignore both the challenge and the
  // verifier (Doorkeeper checks neither without PKCE support), so it is always sent.
  usesPkce: true,
  scopes: MASTODON_SCOPES,
  // read:accounts: identity and health; read:statuses: reconcile and edit checks; write:*: publishing.
  requiredScopes: MASTODON_SCOPES,
  // Tokens never expire (§11.3: access_token_expires_in nil, no refresh grant).
  refreshAheadMs: null,
  // The `statuses` family of the server's RateLimiter: 300 statuses per 3 hours per account (§11.9).
  // A thread or first comment uses more than one; the instance's 429 covers the rest.
  publishLimits: [{ max: 300, windowMs: 3 * HOUR_MS }],
  supportsRevoke: true,
};

/** The registered application's name, shown under every status ("via Herald") and in the user's settings. */
export const APP_NAME = 'Herald';
export const APP_WEBSITE = 'https://github.com/herald';

/** §11.5 `configuration.statuses`: what an instance allows when it does not say otherwise. */
export const DEFAULT_STATUS_LIMITS = {
  maxCharacters: 500,
  maxMediaAttachments: 4,
  charactersReservedPerUrl: 23,
};

/**
 * §11.5 `configuration.media_attachments` defaults (REST::InstanceSerializer): bytes, pixels (width ×
 * height), frames per second, and the alt text (`description`) length. A later media-library change
 * reads these.
 */
export const DEFAULT_MEDIA_LIMITS = {
  imageSizeLimit: 16 * 1024 * 1024,
  /** 33,177,600 px = 7680 × 4320. */
  imageMatrixLimit: 33_177_600,
  videoSizeLimit: 103_809_024,
  /** 8,294,400 px = 3840 × 2160. */
  videoMatrixLimit: 8_294_400,
  videoFrameRateLimit: 120,
  descriptionLimit: 1500,
};

/**
 * §11.6: formats Mastodon takes (it detects the type from the bytes). Images are processed inline; GIFs
 * become `gifv` (a looping video) and, like videos and audio, are processed after the upload answers.
 * An instance lists its own in `configuration.media_attachments.supported_mime_types`.
 */
export const MEDIA_FORMATS = {
  image: ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/heic', 'image/heif', 'image/avif'],
  video: ['video/mp4', 'video/quicktime', 'video/webm', 'video/ogg'],
  audio: ['audio/mpeg', 'audio/mp4', 'audio/wav', 'audio/ogg', 'audio/flac', 'audio/aac'],
};

/** §11.7 status visibility values. */
export const VISIBILITIES = ['public', 'unlisted', 'private', 'direct'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

/**
 * §11.7 Idempotency: the server keeps a key (per account) for 3,600 s after a successful create and
 * answers a replay with the first status. Herald replays a key only well inside that hour.
 */
export const IDEMPOTENCY_TTL_MS = HOUR_MS;
export const REPLAY_WINDOW_MS = 50 * MINUTE_MS;

/** Uploaded but unattached media are removed by the server after about a day; reuse them for less. */
export const MEDIA_REUSE_MS = 6 * HOUR_MS;

/** Instance facts (limits, domain) are read at most this often per instance. */
export const INSTANCE_CACHE_MS = HOUR_MS;

/** §11.8 account statuses: at most 40 a page. Reconcile reads a few pages at most. */
export const TIMELINE_PAGE_SIZE = 40;
export const TIMELINE_MAX_PAGES = 5;
/** Clock skew allowed between Herald and the instance when matching statuses by time. */
export const CLOCK_SKEW_MS = MINUTE_MS;

/** §11.9: a 429 says when its window ends; without one, wait this long. */
export const RATE_LIMIT_WAIT_MS = 5 * MINUTE_MS;
/**
 * The API's own throttles use windows of at most 5 minutes (per token, per user, per address) and 30
 * minutes (media, deletes). On a status create, a 429 whose window ends later than 5 minutes (and a little)
 * is the statuses cap of 300 per 3 hours; elsewhere, one ending over an hour away. Both read as a quota.
 */
export const API_WINDOW_MS = 5 * MINUTE_MS + 30_000;
export const QUOTA_WINDOW_MS = HOUR_MS;

/** Herald holds media in memory while uploading. */
export const MAX_MEDIA_BYTES = 256 * 1024 * 1024;
