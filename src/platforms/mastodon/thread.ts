// A mastodon target is a chain of statuses: the target's own content first, then settings.threadItems,
// each a reply to the one before. The status options (visibility, content warning, sensitive, language)
// apply to every status of the chain.
import type { MediaItem } from '../types.ts';
import { VISIBILITIES, type Visibility } from './info.ts';

export interface ChainItem {
  text: string;
  media: MediaItem[];
  /** Where the item sits in the target, for messages: 'content' or 'settings.threadItems[1]'. */
  field: string;
}

export interface StatusOptions {
  visibility?: Visibility;
  spoilerText: string;
  sensitive?: boolean;
  language?: string;
}

function isMediaItem(v: unknown): v is MediaItem {
  const m = v as MediaItem;
  return !!m && typeof m === 'object' && (m.type === 'image' || m.type === 'video' || m.type === 'document') && typeof m.url === 'string';
}

/** settings.threadItems as the schema allows them; anything else is ignored (create-time validation refused it). */
export function threadItemsOf(settings: Record<string, unknown>): { content: string; mediaItems: MediaItem[] }[] {
  const raw = settings.threadItems;
  if (!Array.isArray(raw)) return [];
  return raw.map((item) => {
    const o = (item ?? {}) as { content?: unknown; mediaItems?: unknown };
    return {
      content: typeof o.content === 'string' ? o.content : '',
      mediaItems: Array.isArray(o.mediaItems) ? o.mediaItems.filter(isMediaItem) : [],
    };
  });
}

export function chainOf(target: { content: string; media: MediaItem[]; settings: Record<string, unknown> }): ChainItem[] {
  return [
    { text: target.content, media: target.media, field: 'content' },
    ...threadItemsOf(target.settings).map((item, i) => ({ text: item.content, media: item.mediaItems, field: `settings.threadItems[${i}]` })),
  ];
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
