// Create-time rules for a facebook target (API.md section 5): pure, no I/O.
import type { RuleViolation, TargetContent } from '../types.ts';
import { FACEBOOK_LIMITS } from './info.ts';

const CONTENT_TYPES = new Set(['feed', 'reel', 'story']);

export function validateFacebook(target: TargetContent): RuleViolation[] {
  const out: RuleViolation[] = [];
  const { content, media, settings } = target;
  const images = media.filter((m) => m.type === 'image').length;
  const videos = media.filter((m) => m.type === 'video').length;
  const contentType = settings.contentType ?? 'feed';
  const link = settings.link;

  const length = [...content].length;
  if (length > FACEBOOK_LIMITS.maxTextChars) {
    out.push({ field: 'content', message: `Facebook posts are limited to ${FACEBOOK_LIMITS.maxTextChars} characters (this one has ${length})` });
  }
  if (typeof contentType !== 'string' || !CONTENT_TYPES.has(contentType)) {
    out.push({ field: 'settings.contentType', message: 'contentType must be feed, reel or story' });
    return out;
  }
  if (link !== undefined && (typeof link !== 'string' || !/^https?:\/\//i.test(link))) {
    out.push({ field: 'settings.link', message: 'link must be an absolute http(s) URL' });
  }

  if (contentType === 'reel') {
    if (videos !== 1 || images > 0) out.push({ field: 'media', message: 'a Facebook reel needs exactly one video and no images' });
    if (link !== undefined) out.push({ field: 'settings.link', message: 'link can only be used on feed posts' });
    return out;
  }
  if (contentType === 'story') {
    if (media.length !== 1) out.push({ field: 'media', message: 'a Facebook story needs exactly one image or one video' });
    if (link !== undefined) out.push({ field: 'settings.link', message: 'link can only be used on feed posts' });
    if (settings.firstComment !== undefined) out.push({ field: 'settings.firstComment', message: 'Facebook stories cannot take comments' });
    return out;
  }

  if (images > 0 && videos > 0) out.push({ field: 'media', message: 'Facebook posts cannot mix images and videos' });
  if (videos > FACEBOOK_LIMITS.maxVideos) out.push({ field: 'media', message: 'Facebook posts can carry one video' });
  if (images > FACEBOOK_LIMITS.maxImages) out.push({ field: 'media', message: `Facebook posts can carry at most ${FACEBOOK_LIMITS.maxImages} images` });
  // Graph builds a link preview only for text posts; with photos or a video the link would be dropped.
  if (link !== undefined && media.length > 0) out.push({ field: 'settings.link', message: 'link can only be used on posts without media' });
  if (content.trim() === '' && media.length === 0 && link === undefined) {
    out.push({ field: 'content', message: 'a Facebook post needs text, a link or media' });
  }
  return out;
}
