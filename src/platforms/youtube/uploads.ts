// The channel's uploads playlist (§8.9): newest first, private and unlisted uploads included for the owner.
// Reconcile looks there for a video whose session can no longer be asked; health counts today's uploads.
import type { AdapterDeps } from '../deps.ts';
import type { AccountCredentials, PlatformFailure } from '../types.ts';
import { asArray, asObject, asString, callApi } from './client.ts';
import { fetchChannel } from './identity.ts';

export interface Upload {
  videoId: string;
  title: string;
  description: string;
  /** When the video joined the playlist (its upload), epoch ms. */
  publishedAt?: number;
}

const PAGE_SIZE = 50;

export async function uploadsPlaylistOf(deps: AdapterDeps, account: AccountCredentials, signal?: AbortSignal): Promise<{ ok: true; playlistId: string } | PlatformFailure> {
  const stored = account.meta.uploadsPlaylistId;
  if (typeof stored === 'string' && stored) return { ok: true, playlistId: stored };
  const channel = await fetchChannel(deps, account.accessToken, signal);
  if (!channel.ok) return channel;
  // Every channel has one: UU + the channel id without its UC.
  return { ok: true, playlistId: channel.channel.uploadsPlaylistId ?? `UU${channel.channel.id.slice(2)}` };
}

/**
 * Uploads since `since`, newest first. `complete` is true when the listing reached an older upload or its
 * end, so an upload missing from `items` is positively not there.
 */
export async function uploadsSince(
  deps: AdapterDeps,
  account: AccountCredentials,
  since: number,
  options: { maxPages: number; signal?: AbortSignal },
): Promise<{ ok: true; items: Upload[]; complete: boolean } | PlatformFailure> {
  const playlist = await uploadsPlaylistOf(deps, account, options.signal);
  if (!playlist.ok) return playlist;
  const items: Upload[] = [];
  let pageToken: string | undefined;
  for (let page = 0; page < options.maxPages; page++) {
    const res = await callApi(deps, {
      method: 'GET',
      path: '/youtube/v3/playlistItems',
      token: account.accessToken,
      query: { part: 'snippet,contentDetails', playlistId: playlist.playlistId, maxResults: PAGE_SIZE, pageToken },
      signal: options.signal,
    });
    if (!res.ok) return res;
    for (const raw of asArray(res.body.items)) {
      const snippet = asObject(raw.snippet);
      const videoId = asString(asObject(raw.contentDetails).videoId) ?? asString(asObject(snippet.resourceId).videoId);
      if (!videoId) continue;
      const at = Date.parse(asString(snippet.publishedAt) ?? '');
      const upload: Upload = { videoId, title: asString(snippet.title) ?? '', description: typeof snippet.description === 'string' ? snippet.description : '' };
      if (Number.isFinite(at)) {
        upload.publishedAt = at;
        if (at < since) return { ok: true, items, complete: true };
      }
      items.push(upload);
    }
    pageToken = asString(res.body.nextPageToken);
    if (!pageToken) return { ok: true, items, complete: true };
  }
  return { ok: true, items, complete: false };
}
