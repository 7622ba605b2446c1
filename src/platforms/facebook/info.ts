// Static facts about Facebook Pages publishing, kept as data beside the adapter.
import type { PlatformInfo } from '../types.ts';
import { metaGrantKey } from '../meta/grant.ts';

export const FACEBOOK_SCOPES = [
  'pages_show_list',
  'pages_read_engagement',
  'pages_manage_posts',
  'publish_video',
  'business_management',
  // Commenting as the Page (the firstComment); publishing, edits and deletes do not need it.
  'pages_manage_engagement',
] as const;

/** What publishing cannot do without; publish_video and business_management only matter for some Pages and posts. */
export const FACEBOOK_REQUIRED_SCOPES = ['pages_show_list', 'pages_read_engagement', 'pages_manage_posts'] as const;

export const FACEBOOK_LIMITS = {
  /** Widely used by schedulers; Meta's reference does not state it. */
  maxTextChars: 63_206,
  maxImages: 10,
  maxVideos: 1,
} as const;

export const facebookInfo: PlatformInfo = {
  platform: 'facebook',
  displayName: 'Facebook',
  // Facebook Login's PKCE support is an OIDC flow still marked "in testing"; the documented server flow
  // for Page tokens is the client-secret code exchange.
  usesPkce: false,
  scopes: [...FACEBOOK_SCOPES],
  requiredScopes: [...FACEBOOK_REQUIRED_SCOPES],
  // Page tokens minted from a long-lived user token do not expire.
  refreshAheadMs: null,
  // The only published cap (30 Reels per Page per 24 h) applies to Reels alone, so no blanket window.
  publishLimits: [],
  supportsRevoke: true,
  grantKey: metaGrantKey,
};
