// What LinkedIn accepts of a media file, as data (library media is checked against it, and fitted to it).
// Sources: shared/platforms.md §7.6 and §7.8, the limits in info.ts.
import type { MediaRules } from '../../media/rules.ts';
import { DOCUMENT_RULES, IMAGE_RULES, VIDEO_RULES } from './info.ts';

export const LINKEDIN_MEDIA_RULES: MediaRules = {
  platform: 'LinkedIn',
  image: {
    formats: ['jpeg', 'png', 'gif'], // §7.6
    maxBytes: IMAGE_RULES.maxBytes, // §7.8 (unconfirmed: Ayrshare's figure)
    maxPixels: IMAGE_RULES.maxPixels - 1, // §7.6: below 36,152,320
    animated: { maxFrames: IMAGE_RULES.maxGifFrames }, // §7.6
    renditionLongestSide: 4096,
  },
  video: {
    containers: ['mp4'], // §7.8
    minBytes: VIDEO_RULES.minBytes, // §7.8 (75 KB unconfirmed)
    maxBytes: VIDEO_RULES.maxBytes, // §7.8
    minDurationMs: VIDEO_RULES.minDurationSec * 1000,
    maxDurationMs: VIDEO_RULES.maxDurationSec * 1000, // §7.8: 3 s – 30 min
    aspectRatio: { min: { width: 1, height: 2.4 }, max: { width: 2.4, height: 1 } }, // §7.6
  },
  document: { formats: ['pdf'], maxBytes: DOCUMENT_RULES.maxBytes, maxPages: DOCUMENT_RULES.maxPages }, // §7.8
};
