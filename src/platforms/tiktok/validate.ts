// Create-time rules for a TikTok target (API.md section 5). Pure: no network, only the account meta
// saved at connect/health time (the creator's privacy options).
import type { AccountMeta, MediaItem, RuleViolation, TargetContent } from '../types.ts';
import { metaPrivacyOptions } from './creator.ts';
import { isPrivacyLevel, LIMITS, PRIVACY_LEVELS } from './info.ts';

export type MediaShape = { kind: 'video'; video: MediaItem } | { kind: 'photo'; photos: MediaItem[] } | { error: RuleViolation };

/** TikTok posts are one video, or 1–35 photos; never text alone, never both. */
export function mediaShape(media: MediaItem[]): MediaShape {
  if (media.length === 0) return { error: { field: 'media', message: 'TikTok needs media: one video or 1–35 images' } };
  const videos = media.filter((m) => m.type === 'video').length;
  if (videos > 0 && videos < media.length) return { error: { field: 'media', message: 'TikTok cannot mix videos and images in one post' } };
  if (videos > 1) return { error: { field: 'media', message: 'TikTok posts carry one video at most' } };
  if (videos === 1) return { kind: 'video', video: media[0]! };
  if (media.length > LIMITS.photos) return { error: { field: 'media', message: `TikTok photo posts carry at most ${LIMITS.photos} images` } };
  return { kind: 'photo', photos: media };
}

function looksLikePng(url: string): boolean {
  try {
    return /\.png$/i.test(new URL(url).pathname);
  } catch {
    return false;
  }
}

export function validateTikTok(target: TargetContent, account: { meta: AccountMeta }): RuleViolation[] {
  const out: RuleViolation[] = [];
  const shape = mediaShape(target.media);
  if ('error' in shape) out.push(shape.error);

  const privacy = target.settings.privacyLevel;
  if (privacy === undefined || privacy === null || privacy === '') {
    out.push({ field: 'settings.privacyLevel', message: `TikTok needs a privacy level: one of ${PRIVACY_LEVELS.join(', ')}` });
  } else if (!isPrivacyLevel(privacy)) {
    out.push({ field: 'settings.privacyLevel', message: `privacy level must be one of ${PRIVACY_LEVELS.join(', ')}` });
  } else {
    const allowed = metaPrivacyOptions(account.meta);
    if (allowed && !allowed.includes(privacy)) {
      out.push({ field: 'settings.privacyLevel', message: `this TikTok account allows only ${allowed.join(', ')}` });
    }
    if (privacy === 'SELF_ONLY' && target.settings.brandContentToggle === true) {
      out.push({ field: 'settings.brandContentToggle', message: 'TikTok does not allow branded content to be private (SELF_ONLY)' });
    }
  }

  const title = target.settings.title;
  if (typeof title === 'string' && title.length > LIMITS.photoTitle) {
    out.push({ field: 'settings.title', message: `TikTok photo titles are at most ${LIMITS.photoTitle} characters` });
  }

  if ('kind' in shape && shape.kind === 'video' && target.content.length > LIMITS.videoTitle) {
    out.push({ field: 'content', message: `TikTok video captions are at most ${LIMITS.videoTitle} characters` });
  }
  if ('kind' in shape && shape.kind === 'photo') {
    if (target.content.length > LIMITS.photoDescription) {
      out.push({ field: 'content', message: `TikTok photo descriptions are at most ${LIMITS.photoDescription} characters` });
    }
    shape.photos.forEach((photo, i) => {
      // Library images are checked on their bytes against the media rules (and a PNG fitted to a JPEG).
      if (!photo.mediaId && looksLikePng(photo.url)) out.push({ field: `media[${i}]`, message: 'TikTok photo posts take JPEG or WebP images, not PNG' });
    });
  }
  return out;
}
