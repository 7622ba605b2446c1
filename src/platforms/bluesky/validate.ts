// Create-time rules for a Bluesky target (API.md section 11): text ≤ 300 graphemes (and the lexicon's
// 3,000 UTF-8 bytes); ≤ 4 images or 1 video, no mixing — for the post, each thread item, and the first
// comment's text. Pure.
import type { AccountMeta, MediaItem, RuleViolation, TargetContent } from '../types.ts';
import { IMAGE_RULES, TEXT_LIMITS, VIDEO_RULES } from './info.ts';
import { graphemeLength, utf8Length } from './text.ts';
import { chainOf } from './thread.ts';

const fmt = (n: number) => n.toLocaleString('en-US');

export function checkText(text: string, field: string, what = 'A Bluesky post'): RuleViolation[] {
  const graphemes = graphemeLength(text);
  if (graphemes > TEXT_LIMITS.maxGraphemes) {
    return [{ field, message: `${what} is at most ${TEXT_LIMITS.maxGraphemes} characters (graphemes); this one has ${fmt(graphemes)}.` }];
  }
  const bytes = utf8Length(text);
  if (bytes > TEXT_LIMITS.maxBytes) {
    return [{ field, message: `${what} is at most ${fmt(TEXT_LIMITS.maxBytes)} bytes of UTF-8; this one has ${fmt(bytes)}.` }];
  }
  return [];
}

export type MediaShape =
  | { kind: 'none' }
  | { kind: 'images'; images: MediaItem[] }
  | { kind: 'video'; video: MediaItem }
  | { error: string };

/** What one post embeds: nothing, 1–4 images, or one video; never both, never documents. */
export function mediaShape(media: MediaItem[]): MediaShape {
  if (media.length === 0) return { kind: 'none' };
  const documents = media.filter((m) => m.type === 'document').length;
  if (documents > 0) return { error: 'Bluesky posts cannot carry documents (PDF); use images or a video.' };
  const images = media.filter((m) => m.type === 'image').length;
  const videos = media.filter((m) => m.type === 'video').length;
  if (images > 0 && videos > 0) return { error: 'Bluesky cannot mix images and a video in one post.' };
  if (videos > VIDEO_RULES.maxVideos) return { error: `Bluesky allows ${VIDEO_RULES.maxVideos} video per post; this one has ${videos}.` };
  if (videos === 1) return { kind: 'video', video: media[0]! };
  if (images > IMAGE_RULES.maxImages) return { error: `Bluesky allows up to ${IMAGE_RULES.maxImages} images per post; this one has ${images}.` };
  return { kind: 'images', images: media };
}

export function validateBluesky(target: TargetContent, _account: { meta: AccountMeta }): RuleViolation[] {
  const out: RuleViolation[] = [];
  for (const item of chainOf(target)) {
    const { textField, mediaField } = item;
    if (item.text.trim().length === 0 && item.media.length === 0) {
      out.push({ field: textField, message: 'A Bluesky post needs text or media.' });
      continue;
    }
    out.push(...checkText(item.text, textField));
    const shape = mediaShape(item.media);
    if ('error' in shape) out.push({ field: mediaField, message: shape.error });
  }
  const comment = target.settings.firstComment;
  // A blank first comment is no comment (the comment runner skips it).
  if (typeof comment === 'string' && comment.trim().length > 0) out.push(...checkText(comment, 'settings.firstComment', 'A Bluesky reply'));
  return out;
}
