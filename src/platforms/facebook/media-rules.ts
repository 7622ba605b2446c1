// What a Facebook Page post accepts of a media file, as data. Sources: shared/platforms.md §2.3 and §2.4.
import type { MediaRules } from '../../media/rules.ts';

const MB = 1_000_000;

export const FACEBOOK_MEDIA_RULES: MediaRules = {
  platform: 'Facebook',
  // §2.4 "keep ≤ 4 MB, JPEG/PNG" (GIF, TIFF and WebP are said to be accepted too: unconfirmed, so not relied on).
  image: { formats: ['jpeg', 'png'], maxBytes: 4 * MB },
  // §2.3: no limits stated for feed videos (Reels' own specs are per placement, not modelled here).
  video: { containers: ['mp4', 'quicktime'] },
};
