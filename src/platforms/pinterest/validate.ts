// Create-time rules for a Pinterest target (API.md §11): 1 image, 1 video or 2–5 images; a board; the
// title, description, link and alt text within Pinterest's lengths. Pure: no network, only the boards
// remembered on the account (to name them when the board is missing).
import type { AccountMeta, MediaItem, RuleViolation, TargetContent } from '../types.ts';
import { CAROUSEL, TEXT_LIMITS } from './info.ts';
import { boardsOf } from './identity.ts';

export type MediaShape =
  | { kind: 'image'; images: [MediaItem] }
  | { kind: 'carousel'; images: MediaItem[] }
  | { kind: 'video'; video: MediaItem }
  | { error: RuleViolation };

/** Pinterest counts its maxLength in code points (assumed, §9.6): an emoji is one character. */
export function characters(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

export function mediaShape(media: MediaItem[]): MediaShape {
  const what = 'one image, one video, or 2–5 images';
  if (media.length === 0) return { error: { field: 'media', message: `a Pin needs media: ${what}` } };
  const doc = media.findIndex((m) => m.type !== 'image' && m.type !== 'video');
  if (doc !== -1) return { error: { field: `media[${doc}]`, message: `Pinterest takes images and videos, not a ${media[doc]!.type}` } };
  const videos = media.filter((m) => m.type === 'video').length;
  if (videos > 0 && media.length > 1) {
    return { error: { field: 'media', message: `a Pin carries ${what}: it cannot mix a video with other media (${media.length} items given)` } };
  }
  if (videos === 1) return { kind: 'video', video: media[0]! };
  if (media.length === 1) return { kind: 'image', images: [media[0]!] };
  if (media.length > CAROUSEL.maxItems) {
    return { error: { field: 'media', message: `a Pinterest carousel holds at most ${CAROUSEL.maxItems} images (${media.length} given)` } };
  }
  return { kind: 'carousel', images: media };
}

function boardHint(meta: AccountMeta): string {
  const boards = boardsOf(meta);
  if (boards.length === 0) return '';
  const named = boards.slice(0, 10).map((b) => `${b.id} (${b.name})`);
  return `; this account's boards include ${named.join(', ')}${boards.length > 10 ? ', …' : ''}`;
}

function tooLong(field: string, what: string, limit: number, text: string): RuleViolation | null {
  const n = characters(text);
  return n > limit ? { field, message: `Pinterest ${what} is at most ${limit} characters (this one has ${n})` } : null;
}

export function validatePinterest(target: TargetContent, account: { meta: AccountMeta }): RuleViolation[] {
  const out: RuleViolation[] = [];
  const shape = mediaShape(target.media);
  if ('error' in shape) out.push(shape.error);

  const s = target.settings;
  if (typeof s.boardId !== 'string' || s.boardId === '') {
    out.push({ field: 'settings.boardId', message: `a Pin is saved to a board: set boardId to the board's numeric id${boardHint(account.meta)}` });
  }
  const checks = [
    tooLong('content', 'a Pin description (the content)', TEXT_LIMITS.description, target.content),
    typeof s.title === 'string' ? tooLong('settings.title', 'a Pin title', TEXT_LIMITS.title, s.title) : null,
    typeof s.link === 'string' ? tooLong('settings.link', 'a Pin link', TEXT_LIMITS.link, s.link) : null,
    ...target.media.map((m, i) => (typeof m.altText === 'string' ? tooLong(`media[${i}].altText`, 'alt text', TEXT_LIMITS.altText, m.altText) : null)),
  ];
  for (const v of checks) if (v) out.push(v);
  return out;
}
