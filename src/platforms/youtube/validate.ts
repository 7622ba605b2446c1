// Create-time rules for a YouTube target (API.md section 11). Pure: every message states the limit and
// the value found.
import type { AccountMeta, MediaItem, RuleViolation, TargetContent } from '../types.ts';
import { FORBIDDEN_TEXT_CHARS, TEXT_LIMITS } from './info.ts';

const utf8 = new TextEncoder();

/** YouTube counts title characters; Herald counts Unicode code points (an emoji is one). */
export function charCount(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

export function utf8Bytes(text: string): number {
  return utf8.encode(text).byteLength;
}

/**
 * The length YouTube gives a tag list: the tags joined by commas, a tag containing a space counted with
 * the quotes it is wrapped in (§8.5).
 */
export function tagsLength(tags: readonly string[]): number {
  if (tags.length === 0) return 0;
  const each = tags.reduce((sum, tag) => sum + charCount(tag) + (/\s/.test(tag) ? 2 : 0), 0);
  return each + tags.length - 1;
}

export type VideoShape = { video: MediaItem } | { error: RuleViolation };

/** A YouTube post is exactly one video: no images, no text alone, no second video. */
export function videoShape(media: MediaItem[]): VideoShape {
  if (media.length !== 1) {
    return { error: { field: 'media', message: `YouTube posts carry exactly one video; this target has ${media.length} media items` } };
  }
  const item = media[0]!;
  if (item.type !== 'video') return { error: { field: 'media[0].type', message: `YouTube posts carry exactly one video; media[0] is ${article(item.type)} ${item.type}` } };
  return { video: item };
}

function article(word: string): string {
  return /^[aeiou]/i.test(word) ? 'an' : 'a';
}

/** The description rules, shared with edits (the content is the description). */
export function checkDescription(content: string, field = 'content'): RuleViolation[] {
  const out: RuleViolation[] = [];
  const bytes = utf8Bytes(content);
  if (bytes > TEXT_LIMITS.descriptionBytes) {
    out.push({ field, message: `the description (the content) is ${bytes} bytes of UTF-8; YouTube allows at most ${TEXT_LIMITS.descriptionBytes} bytes` });
  }
  if (FORBIDDEN_TEXT_CHARS.test(content)) out.push({ field, message: 'YouTube descriptions cannot contain < or >' });
  return out;
}

export function checkTitle(title: unknown): RuleViolation[] {
  const field = 'settings.title';
  if (typeof title !== 'string' || title.trim().length === 0) {
    return [{ field, message: `YouTube needs a video title: set platformSpecificData.title (at most ${TEXT_LIMITS.titleChars} characters)` }];
  }
  const out: RuleViolation[] = [];
  const chars = charCount(title);
  if (chars > TEXT_LIMITS.titleChars) out.push({ field, message: `the title is ${chars} characters; YouTube allows at most ${TEXT_LIMITS.titleChars}` });
  if (FORBIDDEN_TEXT_CHARS.test(title)) out.push({ field, message: 'YouTube titles cannot contain < or >' });
  return out;
}

export function validateYouTube(target: TargetContent, _account: { meta: AccountMeta }): RuleViolation[] {
  const out: RuleViolation[] = [];
  const { settings } = target;
  const shape = videoShape(target.media);
  if ('error' in shape) out.push(shape.error);
  out.push(...checkTitle(settings.title));
  if (typeof settings.madeForKids !== 'boolean') {
    out.push({ field: 'settings.madeForKids', message: 'YouTube needs madeForKids (true or false): whether the video is made for kids (COPPA)' });
  }
  out.push(...checkDescription(target.content));

  const tags = Array.isArray(settings.tags) ? settings.tags.filter((t): t is string => typeof t === 'string') : [];
  const tagChars = tagsLength(tags);
  if (tagChars > TEXT_LIMITS.tagsChars) {
    out.push({ field: 'settings.tags', message: `the tags come to ${tagChars} characters as YouTube counts them (commas included, quotes around tags with spaces); YouTube allows at most ${TEXT_LIMITS.tagsChars}` });
  }

  const thumbnail = settings.thumbnail as MediaItem | undefined;
  if (thumbnail && thumbnail.type !== 'image') {
    out.push({ field: 'settings.thumbnail.type', message: `a YouTube thumbnail is an image (JPEG or PNG, at most 2 MB); this one is ${article(thumbnail.type)} ${thumbnail.type}` });
  }

  const comment = settings.firstComment;
  if (typeof comment === 'string') {
    const chars = charCount(comment);
    if (chars > TEXT_LIMITS.commentChars) {
      out.push({ field: 'settings.firstComment', message: `the first comment is ${chars} characters; YouTube allows at most ${TEXT_LIMITS.commentChars}` });
    }
    if (settings.madeForKids === true) {
      out.push({ field: 'settings.firstComment', message: 'videos made for kids have comments disabled on YouTube, so a first comment cannot be posted' });
    }
  }
  return out;
}
