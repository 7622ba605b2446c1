// Rows → the post object of API.md section 5.
import type { PostRow, TargetRow } from '../db/schema.ts';
import { isoTime as iso } from '../lib/iso-time.ts';
import { fromJson } from '../lib/json.ts';
import { presentPostSettings, type PostSettings } from './post-settings.ts';
import type { PlatformResultOut, PostOut } from './schemas.ts';

const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

/** The columns of a target its presentation reads (lists select only these). */
export const PRESENTED_TARGET_COLUMNS = [
  'post_id',
  'position',
  'platform',
  'account_id',
  'status',
  'attempts',
  'platform_post_id',
  'platform_post_url',
  'error',
  'error_code',
  'published_at',
  'next_attempt_at',
  'custom_content',
  'custom_media',
  'platform_specific_data',
  'comment_status',
  'comment_id',
  'comment_error',
] as const satisfies readonly (keyof TargetRow)[];
export type PresentedTarget = Pick<TargetRow, (typeof PRESENTED_TARGET_COLUMNS)[number]>;

export function presentTarget(t: PresentedTarget): PlatformResultOut {
  const out: PlatformResultOut = {
    platform: t.platform as PlatformResultOut['platform'],
    accountId: t.account_id,
    status: t.status,
    attempts: t.attempts,
  };
  if (t.platform_post_id !== null) out.platformPostId = t.platform_post_id;
  if (t.platform_post_url !== null) out.platformPostUrl = t.platform_post_url;
  if (t.error !== null) out.error = t.error;
  if (t.error_code !== null) out.errorCode = t.error_code as PlatformResultOut['errorCode'];
  if (t.published_at !== null) out.publishedAt = iso(t.published_at);
  if (t.status === 'pending' && t.next_attempt_at !== null) out.nextAttemptAt = iso(t.next_attempt_at);
  if (t.custom_content !== null) out.customContent = t.custom_content;
  if (t.custom_media !== null) out.customMedia = fromJson<PostOut['mediaItems']>(t.custom_media, []);
  if (t.platform_specific_data !== null) out.platformSpecificData = fromJson<Record<string, unknown>>(t.platform_specific_data, {});
  if (t.comment_status !== null) {
    // A comment being posted shows as pending; one waiting to be retried shows its last failure.
    out.firstComment = { status: t.comment_status === 'publishing' ? 'pending' : t.comment_status };
    if (t.comment_id !== null) out.firstComment.platformCommentId = t.comment_id;
    if (t.comment_error !== null) out.firstComment.error = t.comment_error;
  }
  return out;
}

export function presentPost(p: PostRow, targets: readonly PresentedTarget[]): PostOut {
  return {
    id: p.id,
    content: p.content,
    mediaItems: fromJson<PostOut['mediaItems']>(p.media_items, []),
    status: p.status,
    platforms: [...targets].sort((a, b) => a.position - b.position).map(presentTarget),
    scheduledFor: isoOrNull(p.scheduled_for),
    timezone: p.timezone,
    isDraft: p.is_draft === 1,
    tags: fromJson<string[]>(p.tags, []),
    ...presentPostSettings(fromJson<PostSettings | null>(p.post_settings, null)),
    createdAt: iso(p.created_at),
    updatedAt: iso(p.updated_at),
    publishedAt: isoOrNull(p.published_at),
    version: p.version,
  };
}
