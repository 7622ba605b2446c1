// Create-time rules for an instagram target (API.md section 5): pure, no I/O.
import type { RuleViolation, TargetContent } from '../types.ts';
import { INSTAGRAM_LIMITS } from './info.ts';

const CONTENT_TYPES = new Set(['feed', 'reel', 'story']);
const HASHTAG = /#[\p{L}\p{N}_]+/gu;

export function validateInstagram(target: TargetContent): RuleViolation[] {
  const out: RuleViolation[] = [];
  const { content, media, settings } = target;
  const contentType = settings.contentType ?? 'feed';
  const videos = media.filter((m) => m.type === 'video').length;

  const length = [...content].length;
  if (length > INSTAGRAM_LIMITS.maxCaptionChars) {
    out.push({ field: 'content', message: `Instagram captions are limited to ${INSTAGRAM_LIMITS.maxCaptionChars} characters (this one has ${length})` });
  }
  const hashtags = content.match(HASHTAG)?.length ?? 0;
  if (hashtags > INSTAGRAM_LIMITS.maxHashtags) {
    out.push({ field: 'content', message: `Instagram captions can carry at most ${INSTAGRAM_LIMITS.maxHashtags} hashtags (this one has ${hashtags})` });
  }
  if (typeof contentType !== 'string' || !CONTENT_TYPES.has(contentType)) {
    out.push({ field: 'settings.contentType', message: 'contentType must be feed, reel or story' });
    return out;
  }
  if (media.length === 0) {
    out.push({ field: 'media', message: 'Instagram posts need at least one image or video' });
    return out;
  }

  if (contentType === 'reel') {
    if (media.length !== 1 || videos !== 1) out.push({ field: 'media', message: 'an Instagram reel needs exactly one video' });
  } else if (contentType === 'story') {
    if (media.length !== 1) out.push({ field: 'media', message: 'an Instagram story needs exactly one image or video' });
    if (settings.firstComment !== undefined) out.push({ field: 'settings.firstComment', message: 'stories cannot take comments' });
    if (settings.collaborators !== undefined) out.push({ field: 'settings.collaborators', message: 'stories cannot have collaborators' });
  } else if (media.length > INSTAGRAM_LIMITS.maxCarouselItems) {
    out.push({ field: 'media', message: `Instagram carousels hold at most ${INSTAGRAM_LIMITS.maxCarouselItems} items` });
  }
  return out;
}
