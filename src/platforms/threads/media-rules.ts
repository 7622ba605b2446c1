// What Threads accepts of a media file, as data. Sources: shared/platforms.md §4.4 (media specifications).
import type { MediaRules } from '../../media/rules.ts';

const MB = 1_000_000;
const MIN = 60_000;

export const THREADS_MEDIA_RULES: MediaRules = {
  platform: 'Threads',
  image: {
    formats: ['jpeg', 'png'], // §4.4
    maxBytes: 8 * MB, // §4.4
    aspectRatio: { min: { width: 1, height: 10 }, max: { width: 10, height: 1 } }, // §4.4 "aspect ≤ 10:1", read both ways
    renditionLongestSide: 1440, // §4.4 "width 320–1440 (scaled)"
  },
  video: {
    containers: ['mp4', 'quicktime'], // §4.4
    maxBytes: 1000 * MB, // §4.4 "≤ 1 GB" (a third-party copy, unconfirmed)
    maxDurationMs: 5 * MIN, // §4.4
    minFrameRate: 23, maxFrameRate: 60, maxWidth: 1920, // §4.4
    videoCodecs: ['h264', 'hevc'], audioCodecs: ['aac'], // §4.4
  },
};
