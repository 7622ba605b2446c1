// Create-time rules for a threads target (API.md section 5): pure, no I/O.
import type { AccountMeta, MediaItem, RuleViolation, TargetContent } from '../types.ts';
import { THREADS_LIMITS } from './info.ts';
import type { ThreadsSettings } from './settings.ts';

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });
const utf8 = new TextEncoder();
// Pictographs, flags (regional indicator pairs) and keycaps are what people call emoji.
const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20E3/u;

/**
 * Length of a text as Threads counts it: the docs say emoji count as their UTF-8 byte length. Other
 * text is counted in code points, which never undercounts what a user sees.
 */
export function threadsTextLength(text: string): number {
  let n = 0;
  // Text without emoji is counted in code points: no need to split it into graphemes.
  if (!EMOJI.test(text)) {
    for (const _ of text) n++;
    return n;
  }
  for (const { segment } of graphemes.segment(text)) {
    n += EMOJI.test(segment) ? utf8.encode(segment).length : [...segment].length;
  }
  return n;
}

const LINK = /\b(?:https?:\/\/|www\.)[^\s<>"]+/giu;

/** Distinct links in a text, as Threads counts them against its five-link limit. */
export function countLinks(text: string): number {
  const links = new Set<string>();
  for (const match of text.matchAll(LINK)) {
    const link = match[0].replace(/[.,;:!?)\]}'"]+$/u, '').replace(/^https?:\/\//iu, '').toLowerCase();
    links.add(link);
  }
  return links.size;
}

/** Threads refuses topic tags with periods or ampersands. */
export function topicTagProblem(tag: string): string | undefined {
  if (tag.length < 1 || tag.length > 50) return 'the topic tag must be 1 to 50 characters';
  if (/[.&]/u.test(tag)) return 'the topic tag may not contain periods (.) or ampersands (&)';
  return undefined;
}

function checkPost(text: string, media: readonly MediaItem[], fields: { text: string; media: string }): RuleViolation[] {
  const out: RuleViolation[] = [];
  if (text.trim() === '' && media.length === 0) out.push({ field: fields.text, message: 'a Threads post needs text or media' });
  const length = threadsTextLength(text);
  if (length > THREADS_LIMITS.maxTextLength) {
    out.push({
      field: fields.text,
      message: `Threads allows ${THREADS_LIMITS.maxTextLength} characters; this text counts ${length} (each emoji counts as its UTF-8 bytes)`,
    });
  }
  const links = countLinks(text);
  if (links > THREADS_LIMITS.maxLinks) {
    out.push({ field: fields.text, message: `Threads allows ${THREADS_LIMITS.maxLinks} links per post; this text has ${links}` });
  }
  if (media.length > THREADS_LIMITS.maxCarouselItems) {
    out.push({ field: fields.media, message: `a Threads carousel holds at most ${THREADS_LIMITS.maxCarouselItems} images and videos; got ${media.length}` });
  }
  media.forEach((item, i) => {
    if (item.type !== 'image' && item.type !== 'video') {
      out.push({ field: `${fields.media}[${i}].type`, message: 'Threads accepts images and videos only' });
    }
  });
  return out;
}

/**
 * The first post is the target's content and media; each threadItem becomes a reply to the one before,
 * and a firstComment a text reply to the first post, held to the same text rules.
 * A single media item is an IMAGE or VIDEO post, two to twenty make a carousel (images and videos may mix).
 */
export function validateThreads(target: TargetContent, _account: { meta: AccountMeta }): RuleViolation[] {
  const settings = target.settings as ThreadsSettings;
  const out = checkPost(target.content, target.media, { text: 'content', media: 'media' });
  (settings.threadItems ?? []).forEach((item, i) => {
    const prefix = `settings.threadItems[${i}]`;
    out.push(...checkPost(item.content, (item.mediaItems ?? []) as MediaItem[], { text: `${prefix}.content`, media: `${prefix}.mediaItems` }));
  });
  if (settings.firstComment !== undefined) {
    out.push(...checkPost(settings.firstComment, [], { text: 'settings.firstComment', media: 'settings.firstComment' }));
  }
  if (settings.topicTag !== undefined) {
    const problem = topicTagProblem(settings.topicTag);
    if (problem) out.push({ field: 'settings.topicTag', message: problem });
  }
  return out;
}
