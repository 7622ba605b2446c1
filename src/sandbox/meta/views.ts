// How emulator objects look when read back through Graph (GET /{id}?fields=… and list edges).
import type { MetaContext } from './graph-http.ts';
import { graphTime, type FbVideo, type IgContainer, type IgMedia } from './state.ts';

const DAY_MS = 24 * 60 * 60_000;

export function videoView(ctx: MetaContext, v: FbVideo): Record<string, unknown> {
  const processing = v.uploaded && v.readyAt !== undefined && ctx.now() < v.readyAt;
  const failed = v.uploaded && !processing && v.broken;
  return {
    id: v.id,
    description: v.description || undefined,
    created_time: graphTime(v.createdAt),
    updated_time: graphTime(v.readyAt ?? v.createdAt),
    // Graph gives video permalinks relative to facebook.com.
    permalink_url: v.kind === 'reel' ? `/reel/${v.id}/` : `/${v.pageId}/videos/${v.id}/`,
    status: {
      video_status: !v.uploaded || processing ? 'processing' : failed ? 'error' : 'ready',
      uploading_phase: { status: v.uploaded ? 'complete' : 'not_started' },
      processing_phase: {
        status: !v.uploaded ? 'not_started' : processing ? 'in_progress' : failed ? 'error' : 'complete',
        ...(failed ? { error: { message: v.failure ?? 'The file is not a video Meta can process' } } : {}),
      },
      publishing_phase: { status: v.published ? 'complete' : 'not_started', publish_status: v.published ? 'published' : 'draft' },
    },
  };
}

export type ContainerCode = 'IN_PROGRESS' | 'FINISHED' | 'PUBLISHED' | 'ERROR' | 'EXPIRED';

export function containerCode(ctx: MetaContext, c: IgContainer): ContainerCode {
  const now = ctx.now();
  if (c.mediaId) return 'PUBLISHED';
  if (now < c.readyAt) return 'IN_PROGRESS';
  if (c.error) return 'ERROR';
  if (now - c.createdAt >= DAY_MS) return 'EXPIRED';
  return 'FINISHED';
}

const STATUS_TEXT: Record<ContainerCode, string> = {
  IN_PROGRESS: 'In Progress: Media is still being processed.',
  FINISHED: 'Finished: Media has been uploaded and it is ready to be published.',
  PUBLISHED: 'Published: Media has been successfully published.',
  ERROR: 'Error',
  EXPIRED: 'Expired: Media was not published within 24 hours.',
};

export function containerView(ctx: MetaContext, c: IgContainer): Record<string, unknown> {
  const code = containerCode(ctx, c);
  return { id: c.id, status_code: code, status: code === 'ERROR' ? c.error : STATUS_TEXT[code] };
}

export function mediaView(ctx: MetaContext, m: IgMedia): Record<string, unknown> {
  const ig = ctx.state.igAccounts.get(m.igId);
  const permalink =
    m.productType === 'STORY'
      ? `https://www.instagram.com/stories/${ig?.username ?? 'instagram'}/${m.id}/`
      : `https://www.instagram.com/${m.productType === 'REELS' ? 'reel' : 'p'}/${m.shortcode}/`;
  return {
    id: m.id,
    caption: m.caption || undefined,
    media_type: m.mediaType,
    media_product_type: m.productType,
    permalink,
    shortcode: m.shortcode,
    timestamp: graphTime(m.createdAt),
    username: ig?.username,
  };
}
