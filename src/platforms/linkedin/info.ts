// Static facts about LinkedIn (3-legged OAuth, versioned REST.li APIs), kept as data beside the adapter.
// Sources: /work/shared/platforms.md section 7 (7.x below), learn.microsoft.com/linkedin (posts, images,
// videos and documents APIs, little text format, rate limits), LinkedIn's own JS client; what is still
// unconfirmed is said so beside the number.
import type { AccountMeta, PlatformInfo } from '../types.ts';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/**
 * The scopes Herald asks for: a Community Management API app (7.2). That product must be the only one on
 * its app, so it cannot be combined with "Sign In with LinkedIn using OpenID Connect": the member's
 * identity comes from /v2/me (r_basicprofile), not /v2/userinfo. One grant posts as the member and as
 * every Page they administer. An app with only the self-serve products (OpenID Connect + Share on
 * LinkedIn) names its own scopes in the authorize URL setting (docs/platforms/linkedin.md); Herald then
 * reads the identity from /v2/userinfo and connects the member alone.
 */
export const LINKEDIN_SCOPES = ['r_basicprofile', 'w_member_social', 'w_organization_social', 'r_organization_social', 'rw_organization_admin'];

/** The self-serve alternative (member only), for reference and the docs. */
export const LINKEDIN_SELF_SERVE_SCOPES = ['openid', 'profile', 'email', 'w_member_social'];

export const LINKEDIN_INFO: PlatformInfo = {
  platform: 'linkedin',
  displayName: 'LinkedIn',
  // PKCE is only for native apps LinkedIn has enabled it for (7.2); Herald is a web app with a secret.
  usesPkce: false,
  scopes: LINKEDIN_SCOPES,
  // Posting as a member needs w_member_social whatever the app; a Page account also needs
  // w_organization_social, which its health check reports (consent is all or nothing, 7.2).
  requiredScopes: ['w_member_social'],
  // Access tokens live 60 days. Refresh tokens exist only for apps LinkedIn enabled programmatic refresh
  // for; with one, renewing a day ahead is plenty. Without one the account must be connected again
  // before expiry (health warns a week ahead).
  refreshAheadMs: DAY_MS,
  publishLimits: [
    // LinkedIn's per-member daily quotas are unpublished; 150 posts a day per member is the figure
    // integrators report (7.8, unconfirmed). Herald waits below it rather than meeting the 429.
    { max: 150, windowMs: DAY_MS },
  ],
  supportsRevoke: true,
  // The member and every Page they administer ride on one token: revoking it cuts all of them off.
  grantKey: (meta: AccountMeta) => (typeof meta.memberUrn === 'string' ? meta.memberUrn : undefined),
};

/** A pinned `LinkedIn-Version` (YYYYMM). 202609 was the newest listed in Sept 2026 (n8n-io/n8n#39065). */
export const DEFAULT_API_VERSION = '202609';
export const API_VERSION_PATTERN = /^20\d{2}(0[1-9]|1[0-2])$/;

/** Posting roles on a Page (organizationAcls, 7.3). DIRECT_SPONSORED_CONTENT_POSTER posts ads only. */
export const POSTING_ROLES = ['ADMINISTRATOR', 'CONTENT_ADMINISTRATOR'] as const;

export const LIMITS = {
  /** Commentary, in characters as JavaScript counts them (UTF-16 units, the stricter reading; 7.5/7.8). */
  commentary: 3000,
  /** A comment (socialActions, plain text). 1,250 per Ayrshare; unconfirmed (7.7). */
  comment: 1250,
  /** multiImage carries 2–20 images; one image goes as `media` (7.5). */
  images: 20,
  videos: 1,
  documents: 1,
  /** Document title shown on the post (media.title); LinkedIn's bound is undocumented, kept modest. */
  documentTitle: 400,
};

/**
 * Images API (7.6, 7.8): JPG, PNG, GIF (≤ 250 frames), fewer than 36,152,320 pixels. No aspect ratio or
 * minimum size is documented for feed images (1200 × 627 is a recommendation, not a rule).
 */
export const IMAGE_RULES = {
  contentTypes: ['image/jpeg', 'image/png', 'image/gif'] as const,
  /** 5 MB per Ayrshare's media guidelines; LinkedIn's own page gives no byte cap (unconfirmed). */
  maxBytes: 5 * 1024 * 1024,
  /** Pixels (width × height) must stay below this. */
  maxPixels: 36_152_320,
  maxGifFrames: 250,
};

/** Videos API (7.6, 7.8): MP4, 3 s – 30 min, 75 KB – 500 MB, aspect 1:2.4 – 2.4:1, parts of 4 MiB. */
export const VIDEO_RULES = {
  contentTypes: ['video/mp4'] as const,
  /** 75 KB from memory of Microsoft's page (unconfirmed). */
  minBytes: 75 * 1024,
  maxBytes: 500 * 1024 * 1024,
  minDurationSec: 3,
  maxDurationSec: 30 * 60,
  /** Width / height bounds. */
  minAspect: 1 / 2.4,
  maxAspect: 2.4,
  /** LinkedIn names the byte ranges in uploadInstructions; this is the size it uses (7.6). */
  partBytes: 4_194_304,
  /** The Videos API documents the MP4 container only; no video or audio codec is stated (7.6). */
  codecs: null,
};

/** Documents API (7.6, 7.8): PDF (Herald's library recognises PDF only), 100 MB, 300 pages. */
export const DOCUMENT_RULES = {
  contentTypes: ['application/pdf'] as const,
  maxBytes: 100 * 1024 * 1024,
  maxPages: 300,
};

/** Herald holds a video in memory while uploading it (as for TikTok); LinkedIn itself takes 500 MB. */
export const MAX_VIDEO_FETCH_BYTES = 512 * 1024 * 1024;

/** Reserved characters of little text (7.5, MS little-text-format). */
export const LITTLE_TEXT_RESERVED = ['\\', '|', '{', '}', '@', '[', ']', '(', ')', '<', '>', '#', '*', '_', '~'] as const;

export function postUrl(urn: string): string {
  return `https://www.linkedin.com/feed/update/${urn}`;
}

export type AccountKind = 'member' | 'organization';

/** What connect stores on each account (AccountMeta). */
export interface LinkedInMeta {
  kind: AccountKind;
  /** The member whose grant this is (for a Page: its administrator). */
  memberUrn: string;
  /** For a Page: the member's role on it. */
  role?: string;
}

export function readMeta(meta: AccountMeta | undefined): Partial<LinkedInMeta> {
  const m = meta ?? {};
  const out: Partial<LinkedInMeta> = {};
  if (m.kind === 'member' || m.kind === 'organization') out.kind = m.kind;
  if (typeof m.memberUrn === 'string') out.memberUrn = m.memberUrn;
  if (typeof m.role === 'string') out.role = m.role;
  return out;
}

export function isOrganizationUrn(urn: string): boolean {
  return urn.startsWith('urn:li:organization:');
}
