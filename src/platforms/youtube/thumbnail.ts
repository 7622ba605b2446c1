// The custom thumbnail (§8.5): thumbnails.set once the video exists. It is a courtesy on top of a post
// that is already live, so its outcome is reported, never turned into a failure of the video.
import type { AdapterDeps } from '../deps.ts';
import type { MediaItem } from '../types.ts';
import { callApi } from './client.ts';
import { THUMBNAIL_RULES } from './info.ts';
import { sniffImage } from './media-file.ts';

export type ThumbnailOutcome = { ok: true } | { ok: false; message: string; category: string };

export async function setThumbnail(deps: AdapterDeps, token: string, videoId: string, item: MediaItem, signal?: AbortSignal): Promise<ThumbnailOutcome> {
  const fetched = await deps.media.fetch(item, { maxBytes: THUMBNAIL_RULES.maxBytes });
  if (!fetched.ok) return { ok: false, category: 'media_rejected', message: `the thumbnail could not be fetched (at most ${THUMBNAIL_RULES.maxBytes} bytes): ${fetched.message}` };
  const contentType = sniffImage(fetched.bytes);
  if (!contentType) return { ok: false, category: 'media_rejected', message: 'the thumbnail is not a JPEG or PNG image, the formats YouTube takes' };
  const res = await callApi(deps, {
    method: 'POST',
    path: '/upload/youtube/v3/thumbnails/set',
    token,
    query: { videoId, uploadType: 'media' },
    bytes: { data: fetched.bytes, contentType },
    signal,
  });
  if (!res.ok) return { ok: false, category: res.category, message: `the thumbnail was not set: ${res.message}` };
  return { ok: true };
}
