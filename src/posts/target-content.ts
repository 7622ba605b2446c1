// What one target publishes: the one merge rule, used when a post is checked at create time and when
// it is published, so both always see the same text, media and settings.
import { descriptorOf } from '../platforms/registry.ts';
import type { MediaItem, TargetContent } from '../platforms/types.ts';
import type { Platform } from '../platforms/registry.ts';

export interface TargetParts {
  platform: Platform;
  /** The post's shared text and media. */
  content: string | null | undefined;
  media: MediaItem[];
  /** The post's post-level settings objects by field name (a descriptor's postLevel.field). */
  postSettings: Record<string, Record<string, unknown> | null | undefined>;
  /** The target's own overrides. */
  customContent: string | null | undefined;
  customMedia: MediaItem[] | null | undefined;
  platformSpecificData: Record<string, unknown> | null | undefined;
}

/** customContent over content, customMedia over mediaItems, platformSpecificData over the post-level settings. */
export function targetContent(p: TargetParts): TargetContent {
  const postLevel = descriptorOf(p.platform).postLevel;
  return {
    content: p.customContent ?? p.content ?? '',
    media: p.customMedia ?? p.media,
    settings: { ...((postLevel && p.postSettings[postLevel.field]) || {}), ...(p.platformSpecificData ?? {}) },
  };
}
