// The connected channel (§8.4): channels.list?mine=true gives the id (the accountId), the title, the
// handle, the avatar and the uploads playlist that reconcile reads.
import type { AdapterDeps } from '../deps.ts';
import { failure, type AccountMeta, type ConnectedAccount, type PlatformFailure, type TokenGrant } from '../types.ts';
import { asArray, asObject, asString, callApi } from './client.ts';

export interface Channel {
  id: string;
  title: string;
  /** The @handle, when the channel has one. */
  customUrl?: string;
  avatarUrl?: string;
  uploadsPlaylistId?: string;
  /** `allowed` when the account is verified (uploads over 15 minutes, custom thumbnails), else `eligible`/`disallowed`. */
  longUploadsStatus?: string;
}

export async function fetchChannel(deps: AdapterDeps, token: string, signal?: AbortSignal): Promise<{ ok: true; channel: Channel } | PlatformFailure> {
  const res = await callApi(deps, {
    method: 'GET',
    path: '/youtube/v3/channels',
    token,
    query: { part: 'snippet,contentDetails,status', mine: 'true' },
    signal,
  });
  if (!res.ok) return res;
  // A Google account without a channel: 200 without `items` (§8.4).
  const item = asArray(res.body.items)[0];
  const id = asString(item?.id);
  if (!item || !id) {
    return failure('permission_missing', 'this Google account has no YouTube channel; create one on youtube.com, then connect again', { platformCode: 'youtubeSignupRequired' });
  }
  const snippet = asObject(item.snippet);
  const thumbs = asObject(snippet.thumbnails);
  const avatar = asString(asObject(thumbs.high).url) ?? asString(asObject(thumbs.medium).url) ?? asString(asObject(thumbs.default).url);
  const channel: Channel = { id, title: asString(snippet.title) ?? id };
  const customUrl = asString(snippet.customUrl);
  if (customUrl) channel.customUrl = customUrl;
  if (avatar) channel.avatarUrl = avatar;
  const uploads = asString(asObject(asObject(item.contentDetails).relatedPlaylists).uploads);
  if (uploads) channel.uploadsPlaylistId = uploads;
  const longUploads = asString(asObject(item.status).longUploadsStatus);
  if (longUploads) channel.longUploadsStatus = longUploads;
  return { ok: true, channel };
}

export function channelMeta(channel: Channel): AccountMeta {
  const meta: AccountMeta = {};
  if (channel.uploadsPlaylistId) meta.uploadsPlaylistId = channel.uploadsPlaylistId;
  if (channel.longUploadsStatus) meta.longUploadsStatus = channel.longUploadsStatus;
  return meta;
}

export function toConnectedAccount(channel: Channel, grant: TokenGrant): ConnectedAccount {
  const account: ConnectedAccount = {
    accountId: channel.id,
    username: channel.customUrl ?? channel.title,
    displayName: channel.title,
    grant,
    meta: channelMeta(channel),
  };
  if (channel.avatarUrl) account.avatarUrl = channel.avatarUrl;
  return account;
}
