// A bluesky target is a chain of posts: the target's own content first, then settings.threadItems, each a
// reply to the one before (root = the first post, parent = the previous one).
import type { MediaItem } from '../types.ts';

export interface ChainItem {
  text: string;
  media: MediaItem[];
  /** Where the item sits in the target, for messages: 'content' or 'settings.threadItems[1]'. */
  field: string;
}

function isMediaItem(v: unknown): v is MediaItem {
  const m = v as MediaItem;
  return !!m && typeof m === 'object' && (m.type === 'image' || m.type === 'video' || m.type === 'document') && typeof m.url === 'string';
}

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

export function langsOf(settings: Record<string, unknown>): string[] | undefined {
  const langs = settings.langs;
  return Array.isArray(langs) && langs.length > 0 && langs.every((l) => typeof l === 'string') ? (langs as string[]) : undefined;
}
