// What Instagram accepts of a media file, as data. Sources: shared/platforms.md §3.4 (content publishing
// and Reels specifications).
import type { MediaRules } from '../../media/rules.ts';

const MB = 1_000_000;
const S = 1000;
const MIN = 60 * S;

export const INSTAGRAM_MEDIA_RULES: MediaRules = {
  platform: 'Instagram',
  image: {
    formats: ['jpeg'], // §3.4 "JPEG officially"
    maxBytes: 8 * MB, // §3.4
    aspectRatio: { min: { width: 4, height: 5 }, max: { width: 1.91, height: 1 } }, // §3.4
    renditionLongestSide: 1440, // §3.4 "width 320–1440 px (scaled)"; Instagram scales, so no min/max is enforced
  },
  video: {
    containers: ['mp4', 'quicktime'], // §3.4 Reels "MOV/MP4"
    maxBytes: 300 * MB, // §3.4 older docs (1 GB in newer third-party copies, unconfirmed)
    minDurationMs: 3 * S, maxDurationMs: 15 * MIN, // §3.4
    minFrameRate: 23, maxFrameRate: 60, // §3.4
    maxWidth: 1920, // §3.4
    videoCodecs: ['h264', 'hevc'], audioCodecs: ['aac'], // §3.4 (AAC ≤ 48 kHz: the sample rate is not probed)
  },
};
