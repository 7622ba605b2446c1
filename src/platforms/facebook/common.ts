// What the Facebook publishing flows share: the Page they act as, the checkpoint shapes, links.
import type { AdapterDeps } from '../deps.ts';
import type { Checkpoint, PublishOutcome, PublishRequest } from '../types.ts';
import { str, type Graph, type GraphAnswer } from '../meta/graph.ts';
import type { FacebookSettings } from './settings.ts';

export interface FacebookContext {
  deps: AdapterDeps;
  graph: Graph;
  /** Graph for video uploads: graph-video.facebook.com when talking to the real Graph. */
  videoGraph: Graph;
}

export function videoBase(deps: AdapterDeps): string | undefined {
  const api = new URL(deps.app.apiUrl);
  if (api.hostname !== 'graph.facebook.com') return undefined;
  api.hostname = 'graph-video.facebook.com';
  return `${api.origin}/${deps.app.apiVersion}`;
}

/** The state saved before the step that makes a Facebook post public. */
export type FacebookCheckpoint =
  | { flow: 'album'; photoIds: string[] }
  | { flow: 'reel'; videoId: string; uploadUrl: string }
  | { flow: 'photo_story'; photoId: string }
  | { flow: 'video_story'; videoId: string; uploadUrl: string };

export function readCheckpoint(cp: Checkpoint | null): FacebookCheckpoint | null {
  if (!cp || typeof cp.flow !== 'string') return null;
  const s = (k: string) => (typeof cp[k] === 'string' ? (cp[k] as string) : undefined);
  switch (cp.flow) {
    case 'album':
      return Array.isArray(cp.photoIds) && cp.photoIds.every((x) => typeof x === 'string') ? { flow: 'album', photoIds: cp.photoIds as string[] } : null;
    case 'reel':
    case 'video_story': {
      const videoId = s('videoId');
      const uploadUrl = s('uploadUrl');
      return videoId && uploadUrl ? { flow: cp.flow, videoId, uploadUrl } : null;
    }
    case 'photo_story': {
      const photoId = s('photoId');
      return photoId ? { flow: 'photo_story', photoId } : null;
    }
    default:
      return null;
  }
}

export function settingsOf(req: PublishRequest): FacebookSettings {
  return req.settings as FacebookSettings;
}

export function page(req: PublishRequest): { pageId: string; token: string } {
  return { pageId: req.account.accountId, token: req.account.accessToken };
}

/** Graph hands out relative permalinks for videos ("/{page}/videos/{id}/"); make them absolute. */
export function absoluteLink(link: string | undefined): string | undefined {
  if (!link) return undefined;
  if (/^https?:\/\//i.test(link)) return link;
  if (link.startsWith('/')) return `https://www.facebook.com${link}`;
  return undefined;
}

/**
 * The public link of something already published. A failed read must not turn a published post into a
 * failure, so the documented URL pattern stands in.
 */
export async function permalink(ctx: FacebookContext, id: string, token: string, fallback: string, signal?: AbortSignal): Promise<string> {
  const res = await ctx.graph.get(`/${id}`, token, { fields: 'permalink_url' }, { label: 'Facebook permalink', signal });
  return (res.ok && absoluteLink(str(res.body, 'permalink_url'))) || fallback;
}

export async function published(ctx: FacebookContext, req: PublishRequest, id: string, fallback: string): Promise<PublishOutcome> {
  const url = await permalink(ctx, id, req.account.accessToken, fallback, req.signal);
  return { ok: true, platformPostId: id, platformPostUrl: url };
}

/**
 * Uploads a photo without publishing it (for albums and photo stories); nothing is public yet. altText
 * goes as the photo's alt_text_custom (Graph API Photo reference: the user-provided alternative text).
 */
export async function stagePhoto(ctx: FacebookContext, req: PublishRequest, url: string, altText?: string): Promise<GraphAnswer> {
  const { pageId, token } = page(req);
  return ctx.graph.post(`/${pageId}/photos`, token, { url, published: false, alt_text_custom: altText || undefined }, { label: 'Facebook photo upload', signal: req.signal });
}
