// Platforms that publish a thread (X, Bluesky, Mastodon) read one target as a chain: its own content
// first, then settings.threadItems, each a reply to the one before. Settings were validated at create
// time but may have been stored long ago, so they are read defensively: anything the schema would refuse
// is ignored here rather than trusted.
import type { MediaItem } from './types.ts';

export interface ChainItem {
  text: string;
  media: MediaItem[];
  /** Where the item sits in the target, for messages: 'content' or 'settings.threadItems[1]'. */
  field: string;
  /** Where its text and its media sit, for violations: 'content' and 'media' for the target's own. */
  textField: string;
  mediaField: string;
}

function isMediaItem(v: unknown): v is MediaItem {
  const m = v as MediaItem;
  return !!m && typeof m === 'object' && (m.type === 'image' || m.type === 'video' || m.type === 'document') && typeof m.url === 'string';
}

/** settings.threadItems as the schema allows them. */
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
    { text: target.content, media: target.media, field: 'content', textField: 'content', mediaField: 'media' },
    ...threadItemsOf(target.settings).map((item, i) => {
      const field = `settings.threadItems[${i}]`;
      return { text: item.content, media: item.mediaItems, field, textField: `${field}.content`, mediaField: `${field}.mediaItems` };
    }),
  ];
}
