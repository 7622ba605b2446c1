// What a stock Mastodon instance accepts of a media file, as data (library media is checked against it, and
// fitted to it). An instance may differ (GET /api/v2/instance says its own values; the adapter reads them
// at publish time). Sources: shared/platforms.md §11.5 and §11.6, info.ts.
import type { MediaRules } from '../../media/rules.ts';
import { DEFAULT_MEDIA_LIMITS } from './info.ts';

export const MASTODON_MEDIA_RULES: MediaRules = {
  platform: 'Mastodon',
  image: {
    formats: ['jpeg', 'png', 'gif', 'webp', 'heic'], // §11.5 supported_mime_types (list unconfirmed)
    maxBytes: DEFAULT_MEDIA_LIMITS.imageSizeLimit,
    maxPixels: DEFAULT_MEDIA_LIMITS.imageMatrixLimit,
    renditionLongestSide: 4096,
  },
  video: {
    containers: ['mp4', 'quicktime'], // §11.5 (WebM too)
    maxBytes: DEFAULT_MEDIA_LIMITS.videoSizeLimit,
    maxPixels: DEFAULT_MEDIA_LIMITS.videoMatrixLimit,
    maxFrameRate: DEFAULT_MEDIA_LIMITS.videoFrameRateLimit,
  },
};
