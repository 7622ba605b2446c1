// Create-time rules for a LinkedIn target (API.md section 11). Pure: only the target and the account
// meta saved at connect (member or Page).
import type { AccountMeta, MediaItem, RuleViolation, TargetContent } from '../types.ts';
import { LIMITS, readMeta } from './info.ts';

export type MediaShape =
  | { kind: 'text' }
  | { kind: 'images'; images: MediaItem[] }
  | { kind: 'video'; video: MediaItem }
  | { kind: 'document'; document: MediaItem }
  | { error: RuleViolation };

const count = (n: number) => n.toLocaleString('en-US');

/** Text alone, 1–20 images, 1 video or 1 document (PDF); never two kinds in one post. */
export function mediaShape(media: MediaItem[]): MediaShape {
  if (media.length === 0) return { kind: 'text' };
  const kinds = new Set(media.map((m) => m.type));
  if (kinds.size > 1) {
    return { error: { field: 'media', message: `LinkedIn posts carry images, one video or one document, never a mix (this one has ${[...kinds].join(' and ')})` } };
  }
  const [kind] = kinds;
  if (kind === 'image') {
    if (media.length > LIMITS.images) {
      return { error: { field: 'media', message: `LinkedIn posts carry at most ${LIMITS.images} images; this one has ${media.length}` } };
    }
    return { kind: 'images', images: media };
  }
  if (media.length > 1) {
    return { error: { field: 'media', message: `LinkedIn posts carry one ${kind} at most; this one has ${media.length}` } };
  }
  return kind === 'video' ? { kind: 'video', video: media[0]! } : { kind: 'document', document: media[0]! };
}

/** The commentary limit, counted in UTF-16 units (what JavaScript's length gives: the stricter count). */
export function checkCommentary(content: string, field = 'content'): RuleViolation[] {
  if (content.length <= LIMITS.commentary) return [];
  return [{ field, message: `LinkedIn posts are at most ${count(LIMITS.commentary)} characters; this one has ${count(content.length)}` }];
}

export function validateLinkedIn(target: TargetContent, account: { meta: AccountMeta }): RuleViolation[] {
  const out: RuleViolation[] = [...checkCommentary(target.content)];
  const shape = mediaShape(target.media);
  if ('error' in shape) out.push(shape.error);

  const { visibility, firstComment, documentTitle } = target.settings;
  if (visibility !== undefined && visibility !== 'PUBLIC' && visibility !== 'CONNECTIONS') {
    out.push({ field: 'settings.visibility', message: `visibility must be PUBLIC or CONNECTIONS, not ${String(visibility)}` });
  } else if (visibility === 'CONNECTIONS' && readMeta(account.meta).kind === 'organization') {
    out.push({ field: 'settings.visibility', message: 'a LinkedIn Page has followers, not connections: its posts are PUBLIC' });
  }
  if (typeof firstComment === 'string' && firstComment.length > LIMITS.comment) {
    out.push({ field: 'settings.firstComment', message: `LinkedIn comments are at most ${count(LIMITS.comment)} characters; this one has ${count(firstComment.length)}` });
  }
  if (typeof documentTitle === 'string') {
    if (!('kind' in shape) || shape.kind !== 'document') {
      out.push({ field: 'settings.documentTitle', message: 'documentTitle names a document (PDF) post; this post carries no document' });
    } else if (documentTitle.length > LIMITS.documentTitle) {
      out.push({ field: 'settings.documentTitle', message: `documentTitle is at most ${LIMITS.documentTitle} characters; this one has ${documentTitle.length}` });
    }
  }
  if ('kind' in shape && shape.kind === 'text' && target.content.trim() === '') {
    out.push({ field: 'content', message: 'a LinkedIn post without media needs text' });
  }
  return out;
}
