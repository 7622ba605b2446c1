// Create-time rules for a mastodon target (API.md section 11): every status of the chain within the
// instance's character limit (counted as the instance counts: links weigh `characters_reserved_per_url`,
// the content warning counts too) and its attachment count (a video goes alone). Pure: the instance's
// limits come from the account's meta (stored at connect and health), the defaults when it has none.
import type { AccountMeta, MediaItem, RuleViolation, TargetContent } from '../types.ts';
import { domainOf, limitsOf, type InstanceLimits } from './limits.ts';
import { statusLength } from './text.ts';
import { chainOf, firstCommentOf, statusOptionsOf } from './thread.ts';

export function checkText(text: string, spoilerText: string, field: string, limits: InstanceLimits, where: string): RuleViolation[] {
  const used = statusLength(text, spoilerText, limits.charactersReservedPerUrl);
  if (used <= limits.maxCharacters) return [];
  const warning = spoilerText ? ', content warning included' : '';
  return [
    {
      field,
      message: `${where} counts ${used} characters here${warning}; its limit is ${limits.maxCharacters} (each link counts ${limits.charactersReservedPerUrl}).`,
    },
  ];
}

export function checkMedia(media: MediaItem[], field: string, limits: InstanceLimits, where: string): RuleViolation[] {
  const out: RuleViolation[] = [];
  if (media.length > limits.maxMediaAttachments) {
    out.push({ field, message: `${where} takes at most ${limits.maxMediaAttachments} attachments per post; this one has ${media.length}.` });
  }
  const videos = media.filter((m) => m.type === 'video').length;
  if (videos > 0 && media.length > 1) {
    out.push({ field, message: `${where} takes a video alone: this post has ${videos} video(s) among ${media.length} attachments.` });
  }
  media.forEach((m, i) => {
    if (m.type === 'document') out.push({ field: `${field}[${i}]`, message: `${where} takes images and videos, not documents.` });
    if (m.altText !== undefined && m.altText.length > limits.descriptionLimit) {
      out.push({ field: `${field}[${i}].altText`, message: `${where} takes alt text of at most ${limits.descriptionLimit} characters; this one has ${m.altText.length}.` });
    }
  });
  return out;
}

export function validateMastodon(target: TargetContent, account: { meta: AccountMeta }): RuleViolation[] {
  const limits = limitsOf(account.meta);
  const where = `Mastodon (${domainOf(account.meta)})`;
  const { spoilerText } = statusOptionsOf(target.settings);
  const out: RuleViolation[] = [];
  for (const item of chainOf(target)) {
    const { textField, mediaField } = item;
    if (item.text.trim().length === 0 && item.media.length === 0) {
      out.push({ field: textField, message: `${where} needs text or media in every post.` });
      continue;
    }
    out.push(...checkText(item.text, spoilerText, textField, limits, where), ...checkMedia(item.media, mediaField, limits, where));
  }
  const comment = firstCommentOf(target.settings);
  if (comment !== undefined) out.push(...checkText(comment, spoilerText, 'settings.firstComment', limits, where));
  return out;
}
