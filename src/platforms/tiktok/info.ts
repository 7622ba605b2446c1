// Static facts about TikTok (Login Kit v2 + Content Posting API), kept as data beside the adapter.
// Sources: developers.tiktok.com (token management, content posting reference, media transfer guide),
// checked 2026-11; see /work/shared/platforms.md section 5 for the rest.
import type { PlatformInfo } from '../types.ts';
import { TIKTOK_PRIVACY_LEVELS } from './settings.ts';

export const TIKTOK_SCOPES = ['user.info.basic', 'user.info.profile', 'video.publish', 'video.upload'];

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

export const TIKTOK_INFO: PlatformInfo = {
  platform: 'tiktok',
  displayName: 'TikTok',
  // TikTok documents code_verifier as "required for mobile and desktop apps" only. Herald is a
  // confidential web client (it holds the client secret), and TikTok's own desktop samples encode the
  // challenge differently from RFC 7636, so sending one risks rejections for no gain.
  usesPkce: false,
  scopes: TIKTOK_SCOPES,
  // video.upload only serves the inbox (draft) flow; Direct Post needs video.publish, and username
  // needs user.info.profile.
  requiredScopes: ['user.info.basic', 'user.info.profile', 'video.publish'],
  // Access tokens live 2 hours (2026 docs; 24 h before). A few minutes ahead is plenty.
  refreshAheadMs: 5 * MINUTE_MS,
  publishLimits: [
    // video/init and content/init: 6 requests per minute per user token (documented).
    { max: 6, windowMs: MINUTE_MS },
    // TikTok's per-creator daily cap is undocumented (spam_risk_too_many_posts); 15–20 a day is what
    // integrators report. Waiting at the low end costs little, while hitting the cap reads as spam.
    { max: 15, windowMs: DAY_MS },
  ],
  supportsRevoke: true,
};

export const PRIVACY_LEVELS = TIKTOK_PRIVACY_LEVELS;
export type PrivacyLevel = (typeof TIKTOK_PRIVACY_LEVELS)[number];

export function isPrivacyLevel(value: unknown): value is PrivacyLevel {
  return typeof value === 'string' && (PRIVACY_LEVELS as readonly string[]).includes(value);
}

export const LIMITS = {
  /** Video post title (the caption), in UTF-16 code units. */
  videoTitle: 2200,
  photoTitle: 90,
  photoDescription: 4000,
  photos: 35,
};

/** Wait after rate_limit_exceeded: TikTok sends no reset time; its limits are per minute. */
export const RATE_LIMIT_WAIT_MS = MINUTE_MS;
/** Wait after a daily cap (spam_risk_too_many_posts, reached_active_user_cap): rolling 24 hours. */
export const DAILY_CAP_WAIT_MS = DAY_MS;
/**
 * How long to wait for publicaly_available_post_id after PUBLISH_COMPLETE. TikTok: moderation
 * "usually finishes within one minute", sometimes hours; private posts may never get a public id.
 */
export const POST_ID_WAIT_MS = MINUTE_MS;

/** Media transfer chunk rules (media transfer guide). Tests pass smaller ones. */
export interface ChunkRules {
  /** Every chunk but a whole-file upload must be at least this big; smaller files go in one piece. */
  minChunkBytes: number;
  /** Largest chunk_size; a file above it must be chunked. */
  maxChunkBytes: number;
  /** The final chunk absorbs the remainder and may reach this size. */
  maxFinalChunkBytes: number;
  maxChunks: number;
}

// "5 MB" and "64 MB" are not said to be decimal or binary: take the stricter reading of each.
export const TIKTOK_CHUNK_RULES: ChunkRules = {
  minChunkBytes: 5 * 1024 * 1024,
  maxChunkBytes: 64_000_000,
  maxFinalChunkBytes: 128_000_000,
  maxChunks: 1000,
};

/** The chunk size TikTok's own example uses; fewer requests than 5 MB, bounded memory per PUT. */
export const PREFERRED_CHUNK_BYTES = 10_000_000;

/** Herald holds a video in memory while uploading it; TikTok itself allows up to 4 GB. */
export const MAX_VIDEO_BYTES = 512 * 1024 * 1024;

export const VIDEO_MIME_TYPES = ['video/mp4', 'video/quicktime', 'video/webm'] as const;

export function postUrl(username: string, postId: string, kind: 'video' | 'photo'): string {
  return `https://www.tiktok.com/@${encodeURIComponent(username)}/${kind}/${postId}`;
}

export function profileUrl(username: string): string {
  return username ? `https://www.tiktok.com/@${encodeURIComponent(username)}` : 'https://www.tiktok.com/';
}
