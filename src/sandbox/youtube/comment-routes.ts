// commentThreads as the emulator serves them: insert (youtube.force-ssl only; channelId, videoId and the
// text required; comments disabled on videos made for kids) and list (newest first, the original text to
// its author only).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SCOPE, TEXT_LIMITS } from '../../platforms/youtube/info.ts';
import { charCount } from '../../platforms/youtube/validate.ts';
import { emulatorBaseUrl } from '../kit/emulator.ts';
import { authenticate, checkQuery, quotaGate, refuse, type Query, type YouTubeContext } from './context.ts';
import { ERR } from './google-errors.ts';
import { maxResults } from './data-routes.ts';
import { commentThreadView, pageToken, readPageToken } from './views.ts';

const COMMENT_SCOPES = [SCOPE.forceSsl];

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});

const videoNotFound = () => ERR.youtube(404, 'youtube.commentThread', 'videoNotFound', 'The video identified by the videoId parameter could not be found.', 'videoId');
const commentsDisabled = () => ERR.youtube(403, 'youtube.commentThread', 'commentsDisabled', 'The video identified by the videoId parameter has disabled comments.', 'videoId');

export function registerCommentRoutes(app: FastifyInstance, ctx: YouTubeContext, prefix: string): void {
  const base = (req: FastifyRequest) => emulatorBaseUrl(req, prefix);

  app.post('/youtube/v3/commentThreads', async (req, reply) => {
    const q = req.query as Query;
    const caller = authenticate(ctx, req, reply, COMMENT_SCOPES, 'CommentThreadsInsert');
    if (!caller) return reply;
    if (!quotaGate(ctx, reply, 'units', 50)) return reply;
    const bad = checkQuery(q, ['part'], ['snippet', 'id', 'replies']);
    if (bad) return refuse(ctx, reply, bad);
    const snippet = obj(obj(req.body).snippet);
    const videoId = snippet.videoId;
    const channelId = snippet.channelId;
    if (typeof videoId !== 'string' || typeof channelId !== 'string') {
      return refuse(ctx, reply, ERR.youtube(400, 'youtube.commentThread', 'channelOrVideoIdMissing', 'The comment thread must be linked to a video. Specify values for the snippet.channelId and snippet.videoId properties.'));
    }
    const text = obj(obj(snippet.topLevelComment).snippet).textOriginal;
    if (typeof text !== 'string' || !text.trim()) {
      return refuse(ctx, reply, ERR.youtube(400, 'youtube.commentThread', 'commentTextRequired', 'The comment resource that is being inserted must specify a value for the snippet.topLevelComment.snippet.textOriginal property.'));
    }
    if (charCount(text) > TEXT_LIMITS.commentChars) {
      return refuse(ctx, reply, ERR.youtube(400, 'youtube.commentThread', 'commentTextTooLong', 'The comment resource that is being inserted contains too many characters in the snippet.topLevelComment.snippet.textOriginal property.'));
    }
    const author = caller.account.channel;
    if (!author) return refuse(ctx, reply, ERR.youtube(403, 'youtube.commentThread', 'ineligibleAccount', 'The YouTube account used to authorize the API request must be merged with the user\'s Google account to insert a comment or comment thread.'));
    const video = ctx.store.video(videoId);
    if (!video || (video.status.privacyStatus === 'private' && video.channelId !== author.id)) return refuse(ctx, reply, videoNotFound());
    if (video.channelId !== channelId) {
      return refuse(ctx, reply, ERR.youtube(400, 'youtube.commentThread', 'invalidCommentThreadMetadata', 'The request metadata is invalid: snippet.channelId is not the channel of the video.'));
    }
    if (video.status.selfDeclaredMadeForKids === true) return refuse(ctx, reply, commentsDisabled());
    if (video.status.privacyStatus === 'private' && !ctx.settings.commentsOnPrivate) {
      // The refusal YouTube gives a comment it will not take (text from a real answer); that private videos
      // get it is unconfirmed (platforms.md 8.12), so the emulator takes the stricter side.
      return refuse(ctx, reply, { ...ERR.forbidden('The comment thread could not be created due to insufficient permissions. The request might not be properly authorized.', 'youtube.commentThread'), location: 'body', locationType: 'other' });
    }
    ctx.quota.charge('units', 50);
    const c = ctx.store.addComment({ videoId, channelId, authorChannelId: author.id, authorName: author.title, text });
    return commentThreadView(c, author.id, base(req), 'html');
  });

  app.get('/youtube/v3/commentThreads', async (req, reply) => {
    const q = req.query as Query;
    const caller = authenticate(ctx, req, reply, COMMENT_SCOPES, 'CommentThreadsList');
    if (!caller) return reply;
    if (!quotaGate(ctx, reply, 'units', 1)) return reply;
    const bad = checkQuery(q, ['part', 'videoId', 'allThreadsRelatedToChannelId', 'id', 'maxResults', 'pageToken', 'order', 'textFormat', 'searchTerms', 'moderationStatus'], ['snippet', 'id', 'replies']);
    if (bad) return refuse(ctx, reply, bad);
    if (!q.videoId) return refuse(ctx, reply, ERR.badParam('missingRequiredParameter', 'No filter selected. Expected one of: videoId, allThreadsRelatedToChannelId, id (the sandbox serves videoId)'));
    const size = maxResults(q.maxResults, 20, 1, 100);
    if (size === null) return refuse(ctx, reply, ERR.badParam('invalidParameter', `Invalid value '${q.maxResults}'. Values must be within the range: [1, 100]`, 'maxResults'));
    if (q.order !== undefined && q.order !== 'time' && q.order !== 'relevance') return refuse(ctx, reply, ERR.badParam('invalidParameter', `Invalid value for order: ${q.order}`, 'order'));
    if (q.textFormat !== undefined && q.textFormat !== 'html' && q.textFormat !== 'plainText') return refuse(ctx, reply, ERR.badParam('invalidParameter', `Invalid value for textFormat: ${q.textFormat}`, 'textFormat'));
    const scope = `ct:${q.videoId}`;
    const offset = readPageToken(scope, q.pageToken);
    if (offset === null) return refuse(ctx, reply, ERR.badParam('invalidPageToken', 'The request specifies an invalid page token.', 'pageToken'));
    const video = ctx.store.video(q.videoId);
    if (!video || (video.status.privacyStatus === 'private' && video.channelId !== caller.account.channel?.id)) return refuse(ctx, reply, videoNotFound());
    if (video.status.selfDeclaredMadeForKids === true) return refuse(ctx, reply, commentsDisabled());
    ctx.quota.charge('units', 1);
    const all = ctx.store.comments.filter((c) => c.videoId === video.id).sort((a, b) => b.publishedAt - a.publishedAt);
    const page = all.slice(offset, offset + size);
    const next = offset + size < all.length ? pageToken(scope, offset + size) : undefined;
    return {
      kind: 'youtube#commentThreadListResponse',
      etag: `"ct-${all.length}"`,
      ...(next ? { nextPageToken: next } : {}),
      pageInfo: { totalResults: page.length, resultsPerPage: size },
      items: page.map((c) => commentThreadView(c, caller.account.channel?.id, base(req), q.textFormat ?? 'html')),
    };
  });
}
