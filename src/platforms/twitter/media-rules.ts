// What X accepts of a media file, as data (library media is checked against it, and fitted to it).
// Sources: shared/platforms.md §1.5 and §1.7 (X's media best practices), the limits in info.ts.
import type { MediaRules } from '../../media/rules.ts';
import { GIF_MAX_BYTES, IMAGE_MAX_BYTES, VIDEO_MAX_BYTES } from './info.ts';

const S = 1000;

export const TWITTER_MEDIA_RULES: MediaRules = {
  platform: 'X',
  image: {
    formats: ['jpeg', 'png', 'gif', 'webp'], // §1.7
    maxBytes: IMAGE_MAX_BYTES, // §1.7 "≤ 5 MB"
    animated: { maxBytes: GIF_MAX_BYTES, maxFrames: 350, maxWidth: 1280, maxHeight: 1080 }, // §1.7 GIF
    renditionLongestSide: 4096, // unconfirmed: X displays up to 4096 px
  },
  video: {
    containers: ['mp4', 'quicktime'], // §1.5 media_type
    maxBytes: VIDEO_MAX_BYTES, // §1.7 (Herald's upload cap, info.ts)
    minDurationMs: 0.5 * S, maxDurationMs: 140 * S, // §1.7
    maxFrameRate: 60, // §1.7
    // §1.7's 1280×1024 is the v1.1-era limit and would refuse every 1080×1920 phone video; X's current
    // media page says up to 1920×1200 landscape and 1200×1900 portrait. One box covering both: a file
    // inside it but outside X's own is refused by X at publish time, with X's message.
    minWidth: 32, minHeight: 32, maxWidth: 1920, maxHeight: 1920,
    aspectRatio: { min: { width: 1, height: 3 }, max: { width: 3, height: 1 } }, // §1.7
    videoCodecs: ['h264'], audioCodecs: ['aac'], // §1.7 "H.264 + AAC-LC"
  },
};
