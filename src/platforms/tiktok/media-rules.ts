// What TikTok accepts of a media file, as data. Sources: shared/platforms.md §5.6 (photo posts) and §5.9
// (video specifications).
import type { MediaRules } from '../../media/rules.ts';

const MB = 1_000_000;
const S = 1000;
const MIN = 60 * S;

export const TIKTOK_MEDIA_RULES: MediaRules = {
  platform: 'TikTok',
  image: {
    formats: ['jpeg', 'webp'], // §5.6 "JPEG/WEBP (PNG rejected)"
    maxBytes: 20 * MB, // §5.6
    maxLongestSide: 1920, maxPixels: 1920 * 1080, // §5.6 "≤ 1080p", read as 1920×1080 either way (unconfirmed)
  },
  video: {
    containers: ['mp4', 'quicktime'], // §5.9 (WebM too, which Herald does not accept)
    maxBytes: 4000 * MB, // §5.9 "≤ 4 GB" (the stricter, decimal reading)
    minDurationMs: 3 * S, maxDurationMs: 10 * MIN, // §5.9 (a creator's max_video_post_duration_sec may be lower)
    minFrameRate: 23, maxFrameRate: 60, // §5.9
    minWidth: 360, minHeight: 360, maxWidth: 4096, maxHeight: 4096, // §5.9 "360–4096 px each side"
    videoCodecs: ['h264', 'hevc', 'vp8', 'vp9'], // §5.9 (list unconfirmed)
  },
};
