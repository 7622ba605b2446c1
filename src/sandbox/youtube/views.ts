// How the emulator's records look as YouTube resources: channels, videos (parts chosen by `part`, owner-only
// parts for the owner), playlist items, search results and comment threads.
import { createHash } from 'node:crypto';
import type { SandboxAccount, SandboxChannel } from './accounts.ts';
import { uploadsPlaylistId } from './accounts.ts';
import { iso } from './context.ts';
import type { CommentRecord, VideoRecord, YouTubeStore } from './store.ts';

type Json = Record<string, unknown>;

export function etag(value: unknown): string {
  return createHash('sha1').update(JSON.stringify(value)).digest('base64url').slice(0, 27);
}

function thumbs(base: string, key: string): Json {
  return {
    default: { url: `${base}/sandbox-avatar/${key}-88.jpg`, width: 88, height: 88 },
    medium: { url: `${base}/sandbox-avatar/${key}-240.jpg`, width: 240, height: 240 },
    high: { url: `${base}/sandbox-avatar/${key}-800.jpg`, width: 800, height: 800 },
  };
}

export function channelView(channel: SandboxChannel, parts: Set<string>, base: string): Json {
  const out: Json = { kind: 'youtube#channel', etag: etag(channel), id: channel.id };
  if (parts.has('snippet')) {
    out.snippet = {
      title: channel.title,
      description: '',
      customUrl: channel.handle,
      publishedAt: iso(channel.publishedAt),
      thumbnails: thumbs(base, channel.id),
      localized: { title: channel.title, description: '' },
    };
  }
  if (parts.has('contentDetails')) out.contentDetails = { relatedPlaylists: { likes: '', uploads: uploadsPlaylistId(channel.id) } };
  if (parts.has('statistics')) out.statistics = { viewCount: '0', subscriberCount: '0', hiddenSubscriberCount: false, videoCount: '0' };
  if (parts.has('status')) {
    out.status = { privacyStatus: 'public', isLinked: true, longUploadsStatus: channel.verified ? 'allowed' : 'eligible', madeForKids: false };
  }
  return out;
}

export function videoThumbs(base: string, v: VideoRecord): Json {
  const url = (size: string) => `${base}/sandbox-avatar/${v.id}-${size}.jpg`;
  return {
    default: { url: url('default'), width: 120, height: 90 },
    medium: { url: url('mqdefault'), width: 320, height: 180 },
    high: { url: url('hqdefault'), width: 480, height: 360 },
  };
}

export function videoView(store: YouTubeStore, v: VideoRecord, parts: Set<string>, owner: SandboxAccount | null, base: string): Json {
  const out: Json = { kind: 'youtube#video', etag: etag([v.id, v.snippet, v.status, v.edits]), id: v.id };
  const channel = owner?.channel;
  if (parts.has('snippet')) {
    const snippet: Json = {
      publishedAt: iso(v.publishedAt),
      channelId: v.channelId,
      title: v.snippet.title,
      description: v.snippet.description,
      thumbnails: videoThumbs(base, v),
      channelTitle: channel?.id === v.channelId ? channel.title : '',
      categoryId: v.snippet.categoryId,
      liveBroadcastContent: 'none',
      localized: { title: v.snippet.title, description: v.snippet.description },
    };
    if (v.snippet.tags.length > 0) snippet.tags = v.snippet.tags;
    if (v.snippet.defaultLanguage) snippet.defaultLanguage = v.snippet.defaultLanguage;
    if (v.snippet.defaultAudioLanguage) snippet.defaultAudioLanguage = v.snippet.defaultAudioLanguage;
    out.snippet = snippet;
  }
  const isOwner = channel?.id === v.channelId;
  const p = store.processing(v);
  if (parts.has('status')) {
    const status: Json = {
      uploadStatus: p.uploadStatus,
      privacyStatus: v.status.privacyStatus,
      license: v.status.license,
      embeddable: v.status.embeddable,
      publicStatsViewable: v.status.publicStatsViewable,
      madeForKids: v.status.selfDeclaredMadeForKids === true,
    };
    if (p.failureReason) status.failureReason = p.failureReason;
    if (v.status.publishAt) status.publishAt = v.status.publishAt;
    if (isOwner && v.status.selfDeclaredMadeForKids !== undefined) status.selfDeclaredMadeForKids = v.status.selfDeclaredMadeForKids;
    out.status = status;
  }
  // processingDetails is the owner's alone.
  if (parts.has('processingDetails') && isOwner) {
    out.processingDetails = { processingStatus: p.processingStatus, ...(p.processingStatus === 'failed' ? { processingFailureReason: 'other' } : {}) };
  }
  if (parts.has('contentDetails')) out.contentDetails = { duration: 'PT0S', dimension: '2d', definition: 'hd', caption: 'false', licensedContent: false, projection: 'rectangular' };
  if (parts.has('statistics')) out.statistics = { viewCount: '0', likeCount: '0', favoriteCount: '0', commentCount: '0' };
  return out;
}

export function playlistItemView(v: VideoRecord, position: number, parts: Set<string>, channel: SandboxChannel, base: string): Json {
  const playlistId = uploadsPlaylistId(v.channelId);
  const out: Json = { kind: 'youtube#playlistItem', etag: etag([playlistId, v.id, v.snippet]), id: Buffer.from(`${playlistId}.${v.id}`).toString('base64url') };
  if (parts.has('snippet')) {
    out.snippet = {
      publishedAt: iso(v.publishedAt),
      channelId: v.channelId,
      title: v.snippet.title,
      description: v.snippet.description,
      thumbnails: videoThumbs(base, v),
      channelTitle: channel.title,
      playlistId,
      position,
      resourceId: { kind: 'youtube#video', videoId: v.id },
      videoOwnerChannelTitle: channel.title,
      videoOwnerChannelId: v.channelId,
    };
  }
  if (parts.has('contentDetails')) out.contentDetails = { videoId: v.id, videoPublishedAt: iso(v.publishedAt) };
  if (parts.has('status')) out.status = { privacyStatus: v.status.privacyStatus };
  return out;
}

export function searchResultView(v: VideoRecord, channel: SandboxChannel, base: string): Json {
  return {
    kind: 'youtube#searchResult',
    etag: etag(['search', v.id]),
    id: { kind: 'youtube#video', videoId: v.id },
    snippet: {
      publishedAt: iso(v.publishedAt),
      channelId: v.channelId,
      title: v.snippet.title,
      description: v.snippet.description,
      thumbnails: videoThumbs(base, v),
      channelTitle: channel.title,
      liveBroadcastContent: 'none',
      publishTime: iso(v.publishedAt),
    },
  };
}

export function commentThreadView(c: CommentRecord, viewerChannelId: string | undefined, base: string, textFormat: string): Json {
  const isAuthor = viewerChannelId === c.authorChannelId;
  const top: Json = {
    channelId: c.channelId,
    videoId: c.videoId,
    textDisplay: textFormat === 'plainText' ? c.text : c.text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\n/g, '<br>'),
    authorDisplayName: c.authorName,
    authorProfileImageUrl: `${base}/sandbox-avatar/${c.authorChannelId}-88.jpg`,
    authorChannelUrl: `http://www.youtube.com/channel/${c.authorChannelId}`,
    authorChannelId: { value: c.authorChannelId },
    canRate: true,
    viewerRating: 'none',
    likeCount: 0,
    publishedAt: iso(c.publishedAt),
    updatedAt: iso(c.publishedAt),
  };
  // The original text is only guaranteed to the comment's author.
  if (isAuthor) top.textOriginal = c.text;
  return {
    kind: 'youtube#commentThread',
    etag: etag(['thread', c.id]),
    id: c.id,
    snippet: {
      channelId: c.channelId,
      videoId: c.videoId,
      topLevelComment: { kind: 'youtube#comment', etag: etag(['comment', c.id]), id: c.id, snippet: top },
      canReply: true,
      totalReplyCount: 0,
      isPublic: true,
    },
  };
}

/** Opaque page tokens: the offset, bound to the listing they came from. */
export function pageToken(scope: string, offset: number): string {
  return Buffer.from(JSON.stringify([scope, offset])).toString('base64url');
}

export function readPageToken(scope: string, token: string | undefined): number | null {
  if (token === undefined || token === '') return 0;
  try {
    const [s, offset] = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as [string, number];
    return s === scope && Number.isInteger(offset) && offset >= 0 ? offset : null;
  } catch {
    return null;
  }
}
