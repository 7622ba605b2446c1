// Static facts about Instagram publishing (Instagram API with Facebook Login), kept as data.
import type { PlatformInfo } from '../types.ts';
import { metaGrantKey } from '../meta/grant.ts';

export const INSTAGRAM_SCOPES = [
  'instagram_basic',
  'instagram_content_publish',
  // POST and GET /{media-id}/comments: posting the firstComment and finding it when its answer was lost.
  'instagram_manage_comments',
  'pages_show_list',
  'pages_read_engagement',
  'business_management',
] as const;

export const INSTAGRAM_REQUIRED_SCOPES = ['instagram_basic', 'instagram_content_publish', 'pages_show_list', 'pages_read_engagement'] as const;

export const INSTAGRAM_LIMITS = {
  maxCaptionChars: 2_200,
  maxHashtags: 30,
  minCarouselItems: 2,
  maxCarouselItems: 10,
} as const;

const DAY_MS = 24 * 60 * 60_000;

export const instagramInfo: PlatformInfo = {
  platform: 'instagram',
  displayName: 'Instagram',
  usesPkce: false, // same Facebook Login flow as the facebook platform
  scopes: [...INSTAGRAM_SCOPES],
  requiredScopes: [...INSTAGRAM_REQUIRED_SCOPES],
  // Long-lived user tokens live about 60 days and can only be exchanged while still valid.
  refreshAheadMs: 7 * DAY_MS,
  // A Facebook user token (Instagram API with Facebook Login): Meta extends it only through a new login,
  // so the refresh above is best effort and the account is announced as expiring all the same.
  renewal: 'none',
  // The publishing cap (50 or 100 per 24 h) differs per account; publish reads it live instead.
  publishLimits: [],
  supportsRevoke: true,
  grantKey: metaGrantKey,
};
