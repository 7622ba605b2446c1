// The media rules of the ten platforms, as a test fixture: the first five are the platforms' own
// (src/platforms/<name>/media-rules.ts); the drafts of the other five follow. The drafts are NOT production data: each
// platform folder will own its rules (src/platforms/<name>/), and src/media/RULES-DRAFT.md lists the
// same values with their sources and what is unconfirmed, for the integrator to move there.
// `§n.m` is the section of shared/platforms.md a value comes from.
import type { MediaRules } from '../../../src/media/rules.ts';
import { FACEBOOK_MEDIA_RULES } from '../../../src/platforms/facebook/media-rules.ts';
import { INSTAGRAM_MEDIA_RULES } from '../../../src/platforms/instagram/media-rules.ts';
import { THREADS_MEDIA_RULES } from '../../../src/platforms/threads/media-rules.ts';
import { TIKTOK_MEDIA_RULES } from '../../../src/platforms/tiktok/media-rules.ts';
import { TWITTER_MEDIA_RULES } from '../../../src/platforms/twitter/media-rules.ts';

const MB = 1_000_000;
const MiB = 1024 * 1024;
const S = 1000;
const MIN = 60 * S;

export type DraftPlatform = 'twitter' | 'facebook' | 'instagram' | 'threads' | 'tiktok' | 'linkedin' | 'youtube' | 'pinterest' | 'bluesky' | 'mastodon';

export const DRAFT_RULES: Record<DraftPlatform, MediaRules> = {
  twitter: TWITTER_MEDIA_RULES,
  facebook: FACEBOOK_MEDIA_RULES,
  instagram: INSTAGRAM_MEDIA_RULES,
  threads: THREADS_MEDIA_RULES,
  tiktok: TIKTOK_MEDIA_RULES,
  linkedin: {
    platform: 'LinkedIn',
    image: {
      formats: ['jpeg', 'png', 'gif'], // §7.6
      maxBytes: 5 * MB, // §7.8 "5 MB per Ayrshare" (unconfirmed)
      maxPixels: 36_152_319, // §7.6 "fewer than 36,152,320 pixels"
      animated: { maxFrames: 250 }, // §7.6 "GIF (≤250 frames)"
    },
    video: {
      containers: ['mp4'], // §7.8
      minBytes: 75 * 1000, maxBytes: 500 * MB, // §7.8 (75 KB unconfirmed)
      minDurationMs: 3 * S, maxDurationMs: 30 * MIN, // §7.8
      aspectRatio: { min: { width: 1, height: 2.4 }, max: { width: 2.4, height: 1 } }, // §7.6 (Ayrshare)
    },
    document: { formats: ['pdf'], maxBytes: 100 * MB, maxPages: 300 }, // §7.8
  },
  youtube: {
    platform: 'YouTube',
    video: {
      containers: ['mp4', 'quicktime'], // §8.6 "video/*"
      maxBytes: 256 * 1024 * 1024 * MiB, // §8.6 maxSize 274877906944
      maxDurationMs: 12 * 60 * MIN, // §8.6 verified accounts; unverified 15 min (account-dependent)
    },
  },
  pinterest: {
    platform: 'Pinterest',
    image: {
      formats: ['jpeg', 'png', 'gif', 'webp'], // §9.6 URL images (BMP/TIFF too, not accepted by Herald)
      maxBytes: 20 * MB, // §9.6 (Ayrshare 20 MB vs getlate 32 MB; unconfirmed)
      animated: {}, // §9.6 GIF listed; animation kept (unconfirmed)
    },
    video: {
      containers: ['mp4', 'quicktime'], // §9.6 "MP4/MOV/M4V"
      maxBytes: 2000 * MB, // §9.6 "≤ 2 GB" (unconfirmed)
      minDurationMs: 4 * S, maxDurationMs: 15 * MIN, // §9.6 (unconfirmed)
      aspectRatio: { min: { width: 1, height: 2 }, max: { width: 1.91, height: 1 } }, // §9.6 (unconfirmed)
    },
  },
  bluesky: {
    platform: 'Bluesky',
    image: {
      formats: ['jpeg', 'png', 'webp', 'gif'], // §10.8 "image/*" (the formats the app posts; unconfirmed)
      maxBytes: 2_000_000, // §10.8 "≤ 2,000,000 bytes" (1,000,000 on PDSes before 2026)
      renditionLongestSide: 2000, // unconfirmed (the Bluesky app resizes to 2000 px)
    },
    video: {
      containers: ['mp4'], // §10.8 "video/mp4 only"
      maxBytes: 300_000_000, // §10.8 lexicon
    },
  },
  mastodon: {
    platform: 'Mastodon',
    image: {
      formats: ['jpeg', 'png', 'gif', 'webp', 'heic'], // §11.5 supported_mime_types (instance-specific; list unconfirmed)
      maxBytes: 16_777_216, // §11.5 image_size_limit
      maxPixels: 33_177_600, // §11.5 image_matrix_limit (7680×4320)
      animated: {}, // §11.6 animated GIF → gifv
    },
    video: {
      containers: ['mp4', 'quicktime'], // §11.5 (webm too)
      maxBytes: 103_809_024, // §11.5 video_size_limit
      maxPixels: 8_294_400, // §11.5 video_matrix_limit (3840×2160)
      maxFrameRate: 120, // §11.5 video_frame_rate_limit
    },
  },
};
