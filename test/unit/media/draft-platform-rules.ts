// The draft media rules of the ten platforms, as a test fixture. They are NOT production data: each
// platform folder will own its rules (src/platforms/<name>/), and src/media/RULES-DRAFT.md lists the
// same values with their sources and what is unconfirmed, for the integrator to move there.
// `§n.m` is the section of shared/platforms.md a value comes from.
import type { MediaRules } from '../../../src/media/rules.ts';

const MB = 1_000_000;
const MiB = 1024 * 1024;
const S = 1000;
const MIN = 60 * S;

export type DraftPlatform = 'twitter' | 'facebook' | 'instagram' | 'threads' | 'tiktok' | 'linkedin' | 'youtube' | 'pinterest' | 'bluesky' | 'mastodon';

export const DRAFT_RULES: Record<DraftPlatform, MediaRules> = {
  twitter: {
    platform: 'X',
    image: {
      formats: ['jpeg', 'png', 'gif', 'webp'], // §1.7
      maxBytes: 5 * MiB, // §1.7 "≤ 5 MB"; src/platforms/twitter/info.ts IMAGE_MAX_BYTES
      animated: { maxBytes: 15 * MiB, maxFrames: 350, maxWidth: 1280, maxHeight: 1080 }, // §1.7 GIF
      renditionLongestSide: 4096, // unconfirmed (X displays up to 4096 px)
    },
    video: {
      containers: ['mp4', 'quicktime'], // §1.5 media_type
      maxBytes: 512 * MiB, // §1.7; info.ts VIDEO_MAX_BYTES
      minDurationMs: 0.5 * S, maxDurationMs: 140 * S, // §1.7
      maxFrameRate: 60, // §1.7
      minWidth: 32, minHeight: 32, maxWidth: 1280, maxHeight: 1024, // §1.7 (v1.1-era numbers; see RULES-DRAFT.md)
      aspectRatio: { min: { width: 1, height: 3 }, max: { width: 3, height: 1 } }, // §1.7
      videoCodecs: ['h264'], audioCodecs: ['aac'], // §1.7 "H.264 + AAC-LC"
    },
  },
  facebook: {
    platform: 'Facebook',
    image: { formats: ['jpeg', 'png'], maxBytes: 4 * MB }, // §2.4 "keep ≤ 4 MB, JPEG/PNG"
    video: { containers: ['mp4', 'quicktime'] }, // §2.3 feed videos: no limits stated (Reels: RULES-DRAFT.md)
  },
  instagram: {
    platform: 'Instagram',
    image: {
      formats: ['jpeg'], // §3.4 "JPEG officially"
      maxBytes: 8 * MB, // §3.4
      aspectRatio: { min: { width: 4, height: 5 }, max: { width: 1.91, height: 1 } }, // §3.4
      renditionLongestSide: 1440, // §3.4 "width 320–1440 px (scaled)"; API.md §10
    },
    video: {
      containers: ['mp4', 'quicktime'], // §3.4 Reels "MOV/MP4"
      maxBytes: 300 * MB, // §3.4 older docs (1 GB unconfirmed)
      minDurationMs: 3 * S, maxDurationMs: 15 * MIN, // §3.4
      minFrameRate: 23, maxFrameRate: 60, // §3.4
      maxWidth: 1920, // §3.4
      videoCodecs: ['h264', 'hevc'], audioCodecs: ['aac'], // §3.4
    },
  },
  threads: {
    platform: 'Threads',
    image: {
      formats: ['jpeg', 'png'], // §4.4
      maxBytes: 8 * MB, // §4.4
      aspectRatio: { min: { width: 1, height: 10 }, max: { width: 10, height: 1 } }, // §4.4 "aspect ≤ 10:1" (read both ways)
      renditionLongestSide: 1440, // §4.4 "width 320–1440 (scaled)"
    },
    video: {
      containers: ['mp4', 'quicktime'], // §4.4
      maxBytes: 1000 * MB, // §4.4 "≤ 1 GB" (unconfirmed)
      maxDurationMs: 5 * MIN, // §4.4
      minFrameRate: 23, maxFrameRate: 60, maxWidth: 1920, // §4.4
      videoCodecs: ['h264', 'hevc'], audioCodecs: ['aac'], // §4.4
    },
  },
  tiktok: {
    platform: 'TikTok',
    image: {
      formats: ['jpeg', 'webp'], // §5.6 "JPEG/WEBP (PNG rejected)"
      maxBytes: 20 * MB, // §5.6
      maxLongestSide: 1920, maxPixels: 1920 * 1080, // §5.6 "≤ 1080p" (read as 1920×1080 either way; unconfirmed)
    },
    video: {
      containers: ['mp4', 'quicktime'], // §5.9 (WebM too, which Herald does not accept)
      maxBytes: 4000 * MB, // §5.9 "≤ 4 GB" (the stricter, decimal reading)
      minDurationMs: 3 * S, maxDurationMs: 10 * MIN, // §5.9 (the creator's max_video_post_duration_sec may be lower)
      minFrameRate: 23, maxFrameRate: 60, // §5.9
      minWidth: 360, minHeight: 360, maxWidth: 4096, maxHeight: 4096, // §5.9 "360–4096 px each side"
      videoCodecs: ['h264', 'hevc', 'vp8', 'vp9'], // §5.9 (unconfirmed list)
    },
  },
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
