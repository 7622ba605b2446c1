// The Data API reads and writes as the emulator serves them: channels.list (mine, id, forHandle), videos
// list / update / delete, playlistItems.list (uploads, newest first, opaque page tokens) and search.list
// (forMine). Scopes per method as the discovery document lists them (§8.3).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SCOPE } from '../../platforms/youtube/info.ts';
import { emulatorBaseUrl } from '../kit/emulator.ts';
import { uploadsPlaylistId } from './accounts.ts';
import { authenticate, checkQuery, partsOf, quotaGate, refuse, type Caller, type Query, type YouTubeContext } from './context.ts';
import { ERR } from './google-errors.ts';
import { parseVideoResource } from './resource.ts';
import type { VideoRecord } from './store.ts';
import { channelView, pageToken, playlistItemView, readPageToken, searchResultView, videoView } from './views.ts';

const READ_SCOPES = [SCOPE.readonly, SCOPE.manage, SCOPE.forceSsl, SCOPE.partner];
const WRITE_SCOPES = [SCOPE.manage, SCOPE.forceSsl, SCOPE.partner];
const CHANNEL_PARTS = ['id', 'snippet', 'contentDetails', 'statistics', 'status', 'brandingSettings', 'contentOwnerDetails', 'localizations', 'topicDetails', 'auditDetails'];
const VIDEO_PARTS = ['id', 'snippet', 'status', 'contentDetails', 'fileDetails', 'liveStreamingDetails', 'localizations', 'player', 'processingDetails', 'recordingDetails', 'statistics', 'suggestions', 'topicDetails'];
const ITEM_PARTS = ['id', 'snippet', 'contentDetails', 'status'];

/** maxResults within [min, max], default `fallback`; null when malformed. */
export function maxResults(raw: string | undefined, fallback: number, min: number, max: number): number | null {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  return Number.isInteger(n) && n >= min && n <= max ? n : null;
}

function list(kind: string, items: unknown[], total: number, perPage: number, next?: string): Record<string, unknown> {
  return { kind, etag: `"${kind}-${total}"`, ...(next ? { nextPageToken: next } : {}), pageInfo: { totalResults: total, resultsPerPage: perPage }, items };
}

/** What a caller may see of a video: the owner everything, others public and unlisted ones. */
function visible(caller: Caller, v: VideoRecord): boolean {
  return caller.account.channel?.id === v.channelId || v.status.privacyStatus !== 'private';
}

export function registerDataRoutes(app: FastifyInstance, ctx: YouTubeContext, prefix: string): void {
  const base = (req: FastifyRequest) => emulatorBaseUrl(req, prefix);

  app.get('/youtube/v3/channels', async (req, reply) => {
    const q = req.query as Query;
    const caller = authenticate(ctx, req, reply, READ_SCOPES, 'ChannelsList');
    if (!caller) return reply;
    if (!quotaGate(ctx, reply, 'units', 1)) return reply;
    const bad = checkQuery(q, ['part', 'mine', 'id', 'forHandle', 'forUsername', 'managedByMe', 'categoryId', 'maxResults', 'pageToken', 'hl', 'onBehalfOfContentOwner'], CHANNEL_PARTS);
    if (bad) return refuse(ctx, reply, bad);
    const filters = ['mine', 'id', 'forHandle', 'forUsername', 'managedByMe', 'categoryId'].filter((f) => q[f] !== undefined);
    if (filters.length === 0) return refuse(ctx, reply, ERR.badParam('missingRequiredParameter', 'No filter selected. Expected one of: forUsername, managedByMe, categoryId, mine, id, forHandle, idParam'));
    if (filters.length > 1) return refuse(ctx, reply, ERR.badParam('incompatibleParameters', `Incompatible parameters specified in the request: ${filters.join(', ')}`));
    ctx.quota.charge('units', 1);
    const channels = [...ctx.accounts.values()].flatMap((a) => (a.channel ? [a.channel] : []));
    let found = q.mine === 'true' ? (caller.account.channel ? [caller.account.channel] : []) : [];
    if (q.id) found = channels.filter((c) => q.id!.split(',').includes(c.id));
    if (q.forHandle) found = channels.filter((c) => c.handle.toLowerCase() === (q.forHandle!.startsWith('@') ? q.forHandle! : `@${q.forHandle}`).toLowerCase());
    const parts = partsOf(q);
    // A Google account without a channel: 200 and no `items` at all (§8.4).
    if (found.length === 0) return { kind: 'youtube#channelListResponse', etag: '"none"', pageInfo: { totalResults: 0, resultsPerPage: 5 } };
    return list('youtube#channelListResponse', found.map((c) => channelView(c, parts, base(req))), found.length, 5);
  });

  app.get('/youtube/v3/videos', async (req, reply) => {
    const q = req.query as Query;
    const caller = authenticate(ctx, req, reply, READ_SCOPES, 'VideosList');
    if (!caller) return reply;
    if (!quotaGate(ctx, reply, 'units', 1)) return reply;
    const bad = checkQuery(q, ['part', 'id', 'chart', 'myRating', 'maxResults', 'pageToken', 'hl', 'regionCode', 'videoCategoryId', 'maxHeight', 'maxWidth', 'onBehalfOfContentOwner'], VIDEO_PARTS);
    if (bad) return refuse(ctx, reply, bad);
    if (!q.id) return refuse(ctx, reply, ERR.badParam('missingRequiredParameter', 'No filter selected. Expected one of: id, chart, myRating (the sandbox serves id)'));
    ctx.quota.charge('units', 1);
    const ids = q.id.split(',').map((s) => s.trim()).filter(Boolean);
    const videos = ids.map((id) => ctx.store.video(id)).filter((v): v is VideoRecord => v !== undefined && visible(caller, v));
    const parts = partsOf(q);
    return list('youtube#videoListResponse', videos.map((v) => videoView(ctx.store, v, parts, caller.account, base(req))), videos.length, videos.length);
  });

  app.put('/youtube/v3/videos', async (req, reply) => {
    const q = req.query as Query;
    const caller = authenticate(ctx, req, reply, WRITE_SCOPES, 'VideosUpdate');
    if (!caller) return reply;
    if (!quotaGate(ctx, reply, 'units', 50)) return reply;
    const bad = checkQuery(q, ['part', 'onBehalfOfContentOwner'], ['snippet', 'status', 'recordingDetails', 'localizations', 'id']);
    if (bad) return refuse(ctx, reply, bad);
    const parts = partsOf(q);
    const parsed = parseVideoResource(req.body, parts, 'update', ctx.now());
    if (!parsed.ok) return refuse(ctx, reply, parsed.error);
    if (!parsed.id) return refuse(ctx, reply, ERR.youtube(400, 'youtube.video', 'invalidVideoMetadata', 'The request metadata is invalid.', 'body.id'));
    const video = ctx.store.video(parsed.id);
    if (!video || !visible(caller, video)) return refuse(ctx, reply, ERR.youtube(404, 'youtube.video', 'videoNotFound', 'The video that you are trying to update cannot be found. Check the value of the id field in the request body to ensure that it is correct.', 'body.id'));
    if (caller.account.channel?.id !== video.channelId) return refuse(ctx, reply, ERR.forbidden('The video that you are trying to update cannot be updated. The request might not be properly authorized.', 'youtube.video'));
    ctx.quota.charge('units', 50);
    // The parts sent replace the video's: a snippet without tags clears them.
    if (parsed.snippet) ctx.store.update(video, parsed.snippet);
    if (parsed.status) video.status = parsed.status;
    return videoView(ctx.store, video, parts, caller.account, base(req));
  });

  app.delete('/youtube/v3/videos', async (req, reply) => {
    const q = req.query as Query;
    const caller = authenticate(ctx, req, reply, WRITE_SCOPES, 'VideosDelete');
    if (!caller) return reply;
    if (!quotaGate(ctx, reply, 'units', 50)) return reply;
    const bad = checkQuery(q, ['id', 'onBehalfOfContentOwner'], null);
    if (bad) return refuse(ctx, reply, bad);
    if (!q.id) return refuse(ctx, reply, ERR.required('id'));
    const video = ctx.store.video(q.id);
    if (!video || !visible(caller, video)) return refuse(ctx, reply, ERR.youtube(404, 'youtube.video', 'videoNotFound', 'The video that you are trying to delete cannot be found. Check the value of the id parameter in your request to ensure that it is correct.', 'id'));
    if (caller.account.channel?.id !== video.channelId) return refuse(ctx, reply, ERR.forbidden('The video that you are trying to delete cannot be deleted. The request might not be properly authorized.', 'youtube.video'));
    ctx.quota.charge('units', 50);
    ctx.store.delete(video);
    return reply.code(204).send();
  });

  app.get('/youtube/v3/playlistItems', async (req, reply) => {
    const q = req.query as Query;
    const caller = authenticate(ctx, req, reply, READ_SCOPES, 'PlaylistItemsList');
    if (!caller) return reply;
    if (!quotaGate(ctx, reply, 'units', 1)) return reply;
    const bad = checkQuery(q, ['part', 'playlistId', 'id', 'maxResults', 'pageToken', 'videoId', 'onBehalfOfContentOwner'], ITEM_PARTS);
    if (bad) return refuse(ctx, reply, bad);
    if (!q.playlistId) return refuse(ctx, reply, ERR.badParam('missingRequiredParameter', 'No filter selected. Expected one of: playlistId, id (the sandbox serves playlistId)'));
    const size = maxResults(q.maxResults, 5, 0, 50);
    if (size === null) return refuse(ctx, reply, ERR.badParam('invalidParameter', `Invalid value '${q.maxResults}'. Values must be within the range: [0, 50]`, 'maxResults'));
    const offset = readPageToken(`pl:${q.playlistId}`, q.pageToken);
    if (offset === null) return refuse(ctx, reply, ERR.badParam('invalidPageToken', 'The request specifies an invalid page token.', 'pageToken'));
    const channel = [...ctx.accounts.values()].map((a) => a.channel).find((c) => c && uploadsPlaylistId(c.id) === q.playlistId);
    if (!channel) return refuse(ctx, reply, ERR.youtube(404, 'youtube.playlistItem', 'playlistNotFound', 'The playlist identified with the request\'s playlistId parameter cannot be found.', 'playlistId'));
    ctx.quota.charge('units', 1);
    const all = ctx.store.uploadsOf(channel.id).filter((v) => visible(caller, v));
    const page = all.slice(offset, offset + size);
    const parts = partsOf(q);
    const next = offset + size < all.length ? pageToken(`pl:${q.playlistId}`, offset + size) : undefined;
    return list('youtube#playlistItemListResponse', page.map((v, i) => playlistItemView(v, offset + i, parts, channel, base(req))), all.length, size, next);
  });

  app.get('/youtube/v3/search', async (req, reply) => {
    const q = req.query as Query;
    const caller = authenticate(ctx, req, reply, READ_SCOPES, 'SearchList');
    if (!caller) return reply;
    if (!quotaGate(ctx, reply, 'search', 1)) return reply;
    const bad = checkQuery(q, ['part', 'forMine', 'type', 'order', 'maxResults', 'pageToken', 'q', 'channelId', 'publishedAfter', 'publishedBefore', 'regionCode', 'relevanceLanguage', 'safeSearch'], ['snippet', 'id']);
    if (bad) return refuse(ctx, reply, bad);
    if (q.forMine === 'true' && q.type !== 'video') return refuse(ctx, reply, ERR.badParam('invalidSearchFilter', 'The request contains an invalid combination of search filters and/or restrictions. Note that you must set the type parameter to video if you set the forMine parameter.'));
    const size = maxResults(q.maxResults, 5, 0, 50);
    if (size === null) return refuse(ctx, reply, ERR.badParam('invalidParameter', `Invalid value '${q.maxResults}'. Values must be within the range: [0, 50]`, 'maxResults'));
    const scope = `search:${caller.account.sub}:${q.forMine ?? ''}:${q.q ?? ''}`;
    const offset = readPageToken(scope, q.pageToken);
    if (offset === null) return refuse(ctx, reply, ERR.badParam('invalidPageToken', 'The request specifies an invalid page token.', 'pageToken'));
    ctx.quota.charge('search', 1);
    const channel = caller.account.channel;
    const now = ctx.now();
    const pool = q.forMine === 'true' && channel ? ctx.store.uploadsOf(channel.id) : [];
    const indexed = pool.filter((v) => now - v.publishedAt >= ctx.settings.searchDelayMs && (!q.q || v.snippet.title.toLowerCase().includes(q.q.toLowerCase())));
    const page = indexed.slice(offset, offset + size);
    const next = offset + size < indexed.length ? pageToken(scope, offset + size) : undefined;
    return list('youtube#searchListResponse', channel ? page.map((v) => searchResultView(v, channel, base(req))) : [], indexed.length, size, next);
  });
}
