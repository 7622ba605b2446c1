// Posts: create (201, snowflake ids, duplicate text refused, replies chained, reply_settings),
// edit through edit_options (paid subscription, own post, 1 hour, 5 edits, new id), lookup with
// edit_controls, and delete. Everything published lands in the ledger.
import type { FastifyInstance, FastifyReply } from 'fastify';
import twitterText from 'twitter-text';
import type { LedgerEntry } from '../kit/ledger.ts';
import { processingInfo } from './media-model.ts';
import { EDIT_WINDOW_MS, isEditEligible, MAX_EDITS, fieldsOf, tweetObject } from './objects.ts';
import { authenticate, forbidden, invalidRequest, notFoundError, withinRateLimit, type TwitterContext } from './replies.ts';
import { isPaid, type SandboxUser, type StoredPost } from './state.ts';

const REPLY_SETTINGS = new Set(['following', 'mentionedUsers', 'subscribers', 'verified']);
const MAX_WEIGHTED = 280;
const PAID_MAX_WEIGHTED = 25_000;
const DUPLICATE = 'You are not allowed to create a Tweet with duplicate content.';
/** POST /2/tweets body fields (X's OpenAPI); the schema allows no others. */
const BODY_FIELDS = new Set([
  'text', 'media', 'reply', 'quote_tweet_id', 'poll', 'reply_settings', 'community_id', 'share_with_followers',
  'for_super_followers_only', 'nullcast', 'geo', 'card_uri', 'direct_message_deep_link', 'made_with_ai', 'paid_partnership',
  'edit_options',
]);

interface CreateBody {
  text?: string;
  mediaIds: string[];
  replyTo?: string;
  replySettings?: string;
  previousPostId?: string;
}

function obj(v: unknown): Record<string, unknown> | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** Reads the JSON body, or returns the invalid-request message and the parameter at fault. */
function parseBody(raw: unknown): CreateBody | { error: string; parameter: string; value: unknown } {
  const body = obj(raw);
  if (!body) return { error: 'The request body must be a JSON object.', parameter: 'body', value: null };
  const unknown = Object.keys(body).find((k) => !BODY_FIELDS.has(k));
  if (unknown) return { error: `$.${unknown}: is not defined in the schema and the schema does not allow additional properties`, parameter: unknown, value: body[unknown] };
  if (body.text !== undefined && typeof body.text !== 'string') return { error: '`text` must be a string.', parameter: 'text', value: body.text };
  const ids = obj(body.media)?.media_ids ?? [];
  if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string' && /^\d+$/.test(id))) {
    return { error: '`media.media_ids` must be an array of numeric strings.', parameter: 'media.media_ids', value: ids };
  }
  if (obj(body.media) && (ids.length < 1 || ids.length > 4)) {
    return { error: '`media.media_ids` must hold between 1 and 4 ids.', parameter: 'media.media_ids', value: ids };
  }
  const replyTo = obj(body.reply)?.in_reply_to_tweet_id;
  const previousPostId = obj(body.edit_options)?.previous_post_id;
  const replySettings = body.reply_settings;
  if (replySettings !== undefined && (typeof replySettings !== 'string' || !REPLY_SETTINGS.has(replySettings))) {
    return { error: `\`reply_settings\` must be one of ${[...REPLY_SETTINGS].join(', ')}.`, parameter: 'reply_settings', value: replySettings };
  }
  return {
    text: body.text as string | undefined,
    mediaIds: ids as string[],
    replyTo: typeof replyTo === 'string' ? replyTo : undefined,
    replySettings: replySettings as string | undefined,
    previousPostId: typeof previousPostId === 'string' ? previousPostId : undefined,
  };
}

function mediaProblem(ctx: TwitterContext, user: SandboxUser, ids: string[]): string | undefined {
  let images = 0;
  let motion = 0;
  for (const id of ids) {
    const m = ctx.state.media.get(id);
    if (!m || m.ownerId !== user.id || m.finalizedAt === undefined || m.expiresAt <= ctx.now()) return 'Your media IDs are invalid.';
    const info = processingInfo(m, ctx.now(), ctx.processingMs);
    if (info?.state === 'failed') return `Media [${id}] failed processing and cannot be attached.`;
    if (info && info.state !== 'succeeded') return `Media [${id}] is not ready yet: it is still being processed.`;
    if (m.kind === 'image') images++;
    else motion++;
  }
  if (motion > 1 || (motion === 1 && images > 0)) return 'A post can have up to 4 images, or 1 video or GIF, but not a mix.';
  return undefined;
}

function record(ctx: TwitterContext, post: StoredPost, kind: string, extra: Record<string, unknown>): void {
  const media = post.mediaIds.map((id) => {
    const m = ctx.state.media.get(id);
    return {
      type: m?.kind === 'image' ? 'image' : 'video',
      url: `x-media:${m?.key ?? id}`,
      ...(m?.size !== undefined ? { bytes: m.size } : {}),
      ...(m?.sha256 ? { sha256: m.sha256, contentType: m.mediaType } : {}),
      ...(m?.altText ? { altText: m.altText } : {}),
    };
  });
  const defined = Object.fromEntries(Object.entries(extra).filter(([, v]) => v !== undefined));
  const entry: LedgerEntry = { id: post.id, accountId: post.authorId, kind, text: post.text, media, createdAt: post.createdAt };
  if (Object.keys(defined).length > 0) entry.extra = defined;
  ctx.ledger.record(entry);
}

function edit(ctx: TwitterContext, reply: FastifyReply, user: SandboxUser, body: CreateBody): FastifyReply | Record<string, unknown> {
  const previousId = body.previousPostId!;
  const prev = ctx.state.posts.get(previousId);
  if (!prev || prev.deleted) {
    return invalidRequest(reply, `Could not find a Post with previous_post_id: [${previousId}].`, { 'edit_options.previous_post_id': [previousId] });
  }
  if (prev.authorId !== user.id) return forbidden(reply, 'You cannot edit a Post that is not your own.');
  if (!isPaid(user)) return forbidden(reply, 'Editing a Post requires an X Premium subscription.');
  if (prev.supersededBy) return forbidden(reply, 'Only the latest version of a Post can be edited.');
  if (!isEditEligible(prev)) return forbidden(reply, 'This Post cannot be edited.');
  const original = ctx.state.posts.get(prev.originalId) ?? prev;
  if (ctx.now() >= original.createdAt + EDIT_WINDOW_MS) return forbidden(reply, 'This Post can no longer be edited: the edit window has closed.');
  if (ctx.state.editChain(prev).length - 1 >= MAX_EDITS) return forbidden(reply, 'This Post has reached the maximum number of edits.');

  const post: StoredPost = {
    ...prev,
    id: ctx.state.nextId(ctx.now()),
    text: body.text ?? prev.text,
    mediaIds: body.mediaIds.length > 0 ? body.mediaIds : prev.mediaIds,
    createdAt: ctx.now(),
    supersededBy: undefined,
  };
  ctx.state.addPost(post);
  prev.supersededBy = post.id;
  record(ctx, post, 'edit', { previousPostId: prev.id, originalPostId: post.originalId });
  reply.code(201);
  return { data: { id: post.id, text: post.text, edit_history_tweet_ids: ctx.state.editChain(post) } };
}

export function registerTweetRoutes(app: FastifyInstance, ctx: TwitterContext): void {
  app.post('/2/tweets', async (req, reply) => {
    const user = authenticate(ctx, req, reply, ['tweet.read', 'tweet.write', 'users.read']);
    if (!user || !withinRateLimit(ctx, reply, user, 'POST /2/tweets')) return reply;
    const body = parseBody(req.body);
    if ('error' in body) return invalidRequest(reply, body.error, { [body.parameter]: [body.value] });
    const text = body.text ?? '';
    if (text.length === 0 && body.mediaIds.length === 0) return invalidRequest(reply, 'You must provide text or media.', { text: [text] });
    const max = isPaid(user) ? PAID_MAX_WEIGHTED : MAX_WEIGHTED;
    if (text.length > 0 && twitterText.parseTweet(text).weightedLength > max) return invalidRequest(reply, 'Your Tweet text is too long.', { text: [text] });
    const mediaError = body.mediaIds.length > 0 ? mediaProblem(ctx, user, body.mediaIds) : undefined;
    if (mediaError) return invalidRequest(reply, mediaError, { 'media.media_ids': body.mediaIds });
    if (body.previousPostId) return edit(ctx, reply, user, body);

    const parent = body.replyTo ? ctx.state.posts.get(body.replyTo) : undefined;
    if (body.replyTo && (!parent || parent.deleted)) return forbidden(reply, 'You attempted to reply to a Tweet that is deleted or not visible to you.');
    if (text.length > 0 && ctx.state.timeline(user.id).some((p) => p.text === text)) return forbidden(reply, DUPLICATE);

    const id = ctx.state.nextId(ctx.now());
    const post: StoredPost = {
      id,
      authorId: user.id,
      text,
      mediaIds: body.mediaIds,
      createdAt: ctx.now(),
      inReplyTo: parent?.id,
      inReplyToUserId: parent?.authorId,
      conversationId: parent?.conversationId ?? id,
      replySettings: body.replySettings,
      originalId: id,
      deleted: false,
    };
    ctx.state.addPost(post);
    record(ctx, post, parent ? 'reply' : 'post', { inReplyTo: parent?.id, replySettings: body.replySettings, conversationId: post.conversationId });
    reply.code(201);
    return { data: { id, text, edit_history_tweet_ids: [id] } };
  });

  app.get('/2/tweets/:id', async (req, reply) => {
    const user = authenticate(ctx, req, reply, ['tweet.read', 'users.read']);
    if (!user || !withinRateLimit(ctx, reply, user, 'GET /2/tweets/:id')) return reply;
    const { id } = req.params as { id: string };
    const post = ctx.state.posts.get(id);
    if (!post || post.deleted) return { errors: [notFoundError(id, 'tweet')] };
    return { data: tweetObject(ctx.state, post, fieldsOf(req.query, 'tweet.fields'), ctx.now()) };
  });

  app.delete('/2/tweets/:id', async (req, reply) => {
    const user = authenticate(ctx, req, reply, ['tweet.read', 'tweet.write', 'users.read']);
    if (!user || !withinRateLimit(ctx, reply, user, 'DELETE /2/tweets/:id')) return reply;
    const { id } = req.params as { id: string };
    const post = ctx.state.posts.get(id);
    if (!post || post.deleted) return { data: { deleted: false } };
    if (post.authorId !== user.id) return forbidden(reply, 'You are not allowed to delete a Tweet that is not your own.');
    // Deleting any version deletes the whole edit chain.
    for (const p of ctx.state.versions(post)) p.deleted = true;
    return { data: { deleted: true } };
  });
}
