// What a Bluesky post takes of a media file, as data (library media is checked against it, and images are
// fitted under the post lexicon's per-image limit). Sources: shared/platforms.md §10.8, info.ts.
import type { MediaRules } from '../../media/rules.ts';
import { IMAGE_RULES, VIDEO_RULES } from './info.ts';

export const BLUESKY_MEDIA_RULES: MediaRules = {
  platform: 'Bluesky',
  image: {
    formats: ['jpeg', 'png', 'webp', 'gif'], // §10.8 image/* (what the app renders, unconfirmed)
    maxBytes: IMAGE_RULES.maxBytes, // the post lexicon: 2,000,000 per image
    renditionLongestSide: 2000, // unconfirmed: the Bluesky app's own resize
  },
  video: {
    containers: ['mp4'], // §10.8 video/mp4 only
    maxBytes: Math.min(VIDEO_RULES.lexiconMaxBytes, VIDEO_RULES.heraldMaxBytes),
  },
};
