// A twitter target is a chain of posts: the target's own content first, then settings.threadItems,
// each a reply to the one before.
import type { MediaItem } from '../types.ts';

export interface ChainItem {
  text: string;
  media: MediaItem[];
  /** Where the item sits in the target, for messages: 'content' or 'settings.threadItems[1]'. */
  field: string;
}

function isMediaItem(v: unknown): v is MediaItem {
  const m = v as MediaItem;
  return !!m && typeof m === 'object' && (m.type === 'image' || m.type === 'video') && typeof m.url === 'string';
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

export function replySettingsOf(settings: Record<string, unknown>): string | undefined {
  return typeof settings.replySettings === 'string' ? settings.replySettings : undefined;
}
