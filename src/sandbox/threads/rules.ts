// The content rules graph.threads.net applies when a container is created. Written independently of
// the adapter's validate.ts on purpose: the emulator stands in for Threads, not for Herald.
import { unreachableMediaUrl } from '../kit/media-urls.ts';

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

export const MAX_TEXT = 500;
export const MAX_LINKS = 5;
export const MIN_CHILDREN = 2;
export const MAX_CHILDREN = 20;
export const REPLY_CONTROLS = ['everyone', 'accounts_you_follow', 'mentioned_only', 'parent_post_author_only', 'followers_only'];

/** "Text posts are limited to 500 characters. Emojis are counted as the number of UTF-8 bytes." */
export function textLength(text: string): number {
  let total = 0;
  for (const { segment } of segmenter.segment(text)) {
    const pictographic = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20E3/u.test(segment);
    total += pictographic ? Buffer.byteLength(segment, 'utf8') : Array.from(segment).length;
  }
  return total;
}

export function linkCount(text: string): number {
  const seen = new Set<string>();
  for (const m of text.matchAll(/\b(?:https?:\/\/|www\.)[^\s<>"]+/giu)) {
    seen.add(m[0].replace(/[.,;:!?)\]}'"]+$/u, '').replace(/^https?:\/\//iu, '').toLowerCase());
  }
  return seen.size;
}

export function isHttpUrl(value: string | undefined): value is string {
  if (!value) return false;
  try {
    const u = new URL(value);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/** error_message a media URL asks its container to end with: `?sandbox_error=INVALID_DURATION`. */
export function requestedFailure(url: string): string | undefined {
  try {
    return new URL(url).searchParams.get('sandbox_error') ?? undefined;
  } catch {
    return undefined;
  }
}

const VIDEO_PATH = /\.(mp4|mov|m4v|webm)$/iu;
const IMAGE_PATH = /\.(jpe?g|png|gif|webp|bmp|tiff?|heic)$/iu;
/** Threads takes JPEG and PNG images. */
const UNSUPPORTED_IMAGE_PATH = /\.(gif|webp|bmp|tiff?|heic)$/iu;

/**
 * error_message the container ends with when Threads fetches the media, judged from the URL (the
 * emulator never fetches it): a host Threads cannot reach, a video URL naming an image, an image URL
 * naming a video or a format other than JPEG and PNG. undefined when the fetch would succeed.
 */
export function fetchFailure(type: 'IMAGE' | 'VIDEO', url: string, ownBase: string, heraldOrigins: readonly string[] = []): string | undefined {
  if (unreachableMediaUrl(url, ownBase, heraldOrigins)) return type === 'VIDEO' ? 'FAILED_DOWNLOADING_VIDEO' : 'UNKNOWN';
  const path = new URL(url).pathname;
  if (type === 'VIDEO' && IMAGE_PATH.test(path)) return 'FAILED_PROCESSING_VIDEO';
  if (type === 'IMAGE' && (VIDEO_PATH.test(path) || UNSUPPORTED_IMAGE_PATH.test(path))) return 'UNKNOWN';
  return undefined;
}
