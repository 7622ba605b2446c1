// Posts and users as X's v2 API renders them, with only the fields the caller asked for.
import twitterText from 'twitter-text';
import type { SandboxUser, StoredPost, TwitterState } from './state.ts';
import { isPaid } from './state.ts';

export const EDIT_WINDOW_MS = 60 * 60_000;
export const MAX_EDITS = 5;

export function fieldsOf(query: unknown, name: string): Set<string> {
  const raw = (query as Record<string, unknown> | undefined)?.[name];
  return new Set(typeof raw === 'string' ? raw.split(',').map((s) => s.trim()) : []);
}

export function userObject(user: SandboxUser, fields: Set<string>): Record<string, unknown> {
  const out: Record<string, unknown> = { id: user.id, name: user.name, username: user.username };
  if (fields.has('profile_image_url')) out.profile_image_url = `https://pbs.twimg.com/profile_images/${user.id}/sandbox_normal.png`;
  if (fields.has('subscription_type')) out.subscription_type = user.subscriptionType;
  if (fields.has('verified')) out.verified = isPaid(user);
  if (fields.has('verified_type')) out.verified_type = isPaid(user) ? 'blue' : 'none';
  if (fields.has('created_at')) out.created_at = new Date(user.createdAt).toISOString();
  if (fields.has('protected')) out.protected = false;
  return out;
}

/** Replies to someone else's post cannot be edited; self-threads can. */
export function isEditEligible(post: StoredPost): boolean {
  if (!post.inReplyTo) return true;
  return post.inReplyToUserId === post.authorId;
}

export function editControls(state: TwitterState, post: StoredPost, now: number): Record<string, unknown> {
  const original = state.posts.get(post.originalId) ?? post;
  const editableUntil = original.createdAt + EDIT_WINDOW_MS;
  const edits = state.editChain(post).length - 1;
  return {
    is_edit_eligible: isEditEligible(post) && now < editableUntil && edits < MAX_EDITS && !post.supersededBy,
    editable_until: new Date(editableUntil).toISOString(),
    edits_remaining: Math.max(0, MAX_EDITS - edits),
  };
}

export function tweetObject(state: TwitterState, post: StoredPost, fields: Set<string>, now: number): Record<string, unknown> {
  // Long posts come back cut short in `text`; the whole of it is in note_tweet.
  const long = twitterText.parseTweet(post.text).weightedLength > 280;
  const out: Record<string, unknown> = {
    id: post.id,
    text: long ? `${Array.from(post.text).slice(0, 274).join('')}…` : post.text,
    edit_history_tweet_ids: state.editChain(post),
  };
  if (long && fields.has('note_tweet')) out.note_tweet = { text: post.text };
  if (fields.has('created_at')) out.created_at = new Date(post.createdAt).toISOString();
  if (fields.has('author_id')) out.author_id = post.authorId;
  if (fields.has('conversation_id')) out.conversation_id = post.conversationId;
  if (fields.has('in_reply_to_user_id') && post.inReplyToUserId) out.in_reply_to_user_id = post.inReplyToUserId;
  if (fields.has('referenced_tweets') && post.inReplyTo) out.referenced_tweets = [{ type: 'replied_to', id: post.inReplyTo }];
  if (fields.has('reply_settings')) out.reply_settings = post.replySettings ?? 'everyone';
  if (fields.has('attachments') && post.mediaIds.length > 0) {
    out.attachments = { media_keys: post.mediaIds.map((id) => state.media.get(id)?.key ?? id) };
  }
  if (fields.has('edit_controls')) out.edit_controls = editControls(state, post, now);
  return out;
}
