// A mastodon target is a chain of statuses: the target's own content first, then settings.threadItems,
// each a reply to the one before. The status options (visibility, content warning, sensitive, language)
// apply to every status of the chain.
export { chainOf, type ChainItem } from '../thread-chain.ts';
import { VISIBILITIES, type Visibility } from './info.ts';

export interface StatusOptions {
  visibility?: Visibility;
  spoilerText: string;
  sensitive?: boolean;
  language?: string;
}

/** The merged settings read defensively: validated at create time, but stored long ago. */
export function statusOptionsOf(settings: Record<string, unknown>): StatusOptions {
  const out: StatusOptions = { spoilerText: typeof settings.spoilerText === 'string' ? settings.spoilerText : '' };
  if (typeof settings.visibility === 'string' && (VISIBILITIES as readonly string[]).includes(settings.visibility)) {
    out.visibility = settings.visibility as Visibility;
  }
  if (typeof settings.sensitive === 'boolean') out.sensitive = settings.sensitive;
  if (typeof settings.language === 'string' && settings.language) out.language = settings.language;
  return out;
}

export function firstCommentOf(settings: Record<string, unknown>): string | undefined {
  return typeof settings.firstComment === 'string' && settings.firstComment.trim() ? settings.firstComment : undefined;
}
