// A stored post read back as the create body it came from: what a PATCH merges its changes into, and how
// PATCH and delete find the library media the post named (for its uses).
import type { PostRow, TargetRow } from '../db/schema.ts';
import { fromJson } from '../lib/json.ts';
import type { Platform } from '../platforms/registry.ts';
import { presentPostSettings, type PostSettings } from './post-settings.ts';
import type { CreatePostInput } from './schemas.ts';

/** The post as a create body: what a PATCH changes (and the media it names, for its uses). */
export function bodyOf(post: PostRow, targets: readonly TargetRow[]): CreatePostInput {
  const settings = presentPostSettings(fromJson<PostSettings | null>(post.post_settings, null));
  const body: CreatePostInput = {
    mediaItems: fromJson(post.media_items, []),
    platforms: [...targets]
      .sort((a, b) => a.position - b.position)
      .map((t) => ({
        platform: t.platform as Platform,
        accountId: t.account_id,
        ...(t.custom_content !== null ? { customContent: t.custom_content } : {}),
        ...(t.custom_media !== null ? { customMedia: fromJson(t.custom_media, []) } : {}),
        ...(t.platform_specific_data !== null ? { platformSpecificData: fromJson(t.platform_specific_data, {}) } : {}),
      })),
    timezone: post.timezone,
    tags: fromJson(post.tags, []),
  };
  if (post.content !== null) body.content = post.content;
  for (const [field, value] of Object.entries(settings)) if (value !== null) body[field] = value;
  return body;
}
