// What YouTube accepts of a media file, as data (library media is checked against it). One video per post;
// no images (the custom thumbnail is not post media). Sources: shared/platforms.md §8.6, info.ts.
import type { MediaRules } from '../../media/rules.ts';
import { HERALD_MAX_VIDEO_BYTES, VIDEO_RULES } from './info.ts';

export const YOUTUBE_MEDIA_RULES: MediaRules = {
  platform: 'YouTube',
  video: {
    containers: ['mp4', 'quicktime'], // §8.6 "video/*"; the library recognises these two
    // YouTube takes 256 GB; Herald holds a video in memory while uploading it.
    maxBytes: Math.min(VIDEO_RULES.maxBytes, HERALD_MAX_VIDEO_BYTES),
    // §8.6: 12 h for verified channels (15 min for others is checked per account by the platform).
    maxDurationMs: VIDEO_RULES.maxDurationSecVerified * 1000,
  },
};
