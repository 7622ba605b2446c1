// Create-time rules for an X target (API.md section 5): weighted length by twitter-text, and
// at most 4 images or 1 video without mixing — for the post itself and for every thread item.
import twitterText from 'twitter-text';
import type { AccountMeta, MediaItem, RuleViolation, TargetContent } from '../types.ts';
import { hasPaidSubscription, MAX_IMAGES, MAX_TEXT_WEIGHTED, MAX_VIDEOS, PAID_MAX_TEXT_WEIGHTED } from './info.ts';
import { chainOf } from './thread.ts';

/** X's own count: URLs weigh 23, CJK and emoji 2, text NFC-normalised first. */
export function weightedLength(text: string): number {
  return twitterText.parseTweet(text).weightedLength;
}

export function checkText(text: string, field: string, paid: boolean): RuleViolation[] {
  if (text.length === 0) return [];
  const length = weightedLength(text);
  const max = paid ? PAID_MAX_TEXT_WEIGHTED : MAX_TEXT_WEIGHTED;
  if (length > max) {
    const hint = paid ? '' : ` (${PAID_MAX_TEXT_WEIGHTED.toLocaleString('en-US')} with a paid X subscription)`;
    return [{ field, message: `X counts ${length} characters here; the limit is ${max.toLocaleString('en-US')}${hint}.` }];
  }
  if (twitterText.hasInvalidCharacters(text)) return [{ field, message: 'The text contains characters X does not accept.' }];
  return [];
}

export function checkMedia(media: MediaItem[], field: string): RuleViolation[] {
  const images = media.filter((m) => m.type === 'image').length;
  const videos = media.filter((m) => m.type === 'video').length;
  if (images > 0 && videos > 0) return [{ field, message: 'X cannot mix images and a video in one post.' }];
  if (videos > MAX_VIDEOS) return [{ field, message: `X allows ${MAX_VIDEOS} video per post; this one has ${videos}.` }];
  if (images > MAX_IMAGES) return [{ field, message: `X allows up to ${MAX_IMAGES} images per post; this one has ${images}.` }];
  return [];
}

export function validateTwitterTarget(target: TargetContent, account: { meta: AccountMeta }): RuleViolation[] {
  const paid = hasPaidSubscription(account.meta);
  const violations: RuleViolation[] = [];
  for (const item of chainOf(target)) {
    const { textField, mediaField } = item;
    if (item.text.trim().length === 0 && item.media.length === 0) {
      violations.push({ field: textField, message: 'An X post needs text or media.' });
      continue;
    }
    violations.push(...checkText(item.text, textField, paid), ...checkMedia(item.media, mediaField));
  }
  const comment = target.settings.firstComment;
  if (typeof comment === 'string') violations.push(...checkText(comment, 'settings.firstComment', paid));
  return violations;
}
