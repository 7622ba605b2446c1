// What Pinterest accepts of a media file, as data (library media is checked against it, and fitted to it).
// Sources: shared/platforms.md §9.6 (third-party figures, unconfirmed), info.ts.
import type { MediaRules } from '../../media/rules.ts';
import { IMAGE_RULES, VIDEO_RULES } from './info.ts';

export const PINTEREST_MEDIA_RULES: MediaRules = {
  platform: 'Pinterest',
  image: {
    formats: ['jpeg', 'png', 'gif', 'webp'], // §9.6 (BMP and TIFF too, which the library does not take)
    maxBytes: IMAGE_RULES.maxBytes, // §9.6: 20 MB
    renditionLongestSide: 4096,
  },
  video: {
    containers: ['mp4', 'quicktime'], // §9.6
    maxBytes: VIDEO_RULES.maxBytes, // Herald's upload cap (Pinterest: 2 GB)
    minDurationMs: VIDEO_RULES.minDurationSec * 1000,
    maxDurationMs: VIDEO_RULES.maxDurationSec * 1000, // §9.6: 4 s – 15 min
    aspectRatio: { min: { width: 1, height: 2 }, max: { width: 1.91, height: 1 } }, // §9.6
  },
};
