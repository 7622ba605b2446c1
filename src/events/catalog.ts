// The event catalog: every event Herald announces, its payload schema, and the one function that builds
// it. The outbox takes only events built here, the webhook settings accept only these names, and the
// OpenAPI document and docs/webhooks.md describe each payload from the same schemas.
import Type, { type Static, type TSchema } from 'typebox';
import { IsoTime } from '../contract/schemas.ts';
import { PlatformResult, PostStatusName } from '../posts/schemas.ts';

const PostId = Type.String({ description: 'The post (post_…).' });
const PlatformField = Type.String({ description: 'Platform name.' });
const AccountId = Type.String({ description: "The platform's own id of the account." });

const TargetRef = {
  postId: PostId,
  platform: PlatformField,
  accountId: AccountId,
};

const AccountRef = {
  platform: PlatformField,
  accountId: AccountId,
  username: Type.String(),
};

/** Each event's payload (the `data` of the request body) and when it is sent. */
export const EVENT_CATALOG = {
  'post.scheduled': {
    when: 'A post was created with `scheduledFor`.',
    schema: Type.Object({ postId: PostId, scheduledFor: IsoTime }),
  },
  'post.published': {
    when: 'One target of a post was published (one event per target).',
    schema: Type.Object({
      ...TargetRef,
      platformPostId: Type.String(),
      platformPostUrl: Type.String(),
      status: Type.Literal('published'),
    }),
  },
  'post.failed': {
    when: 'One target ended failed, after automatic retries (one event per target).',
    schema: Type.Object({
      ...TargetRef,
      error: Type.String({ description: 'Why, in words.' }),
      errorCode: Type.String({ description: "One of the post object's codes: auth_expired, content_rejected, rate_limited, …" }),
      status: Type.Literal('failed'),
    }),
  },
  'post.completed': {
    when: 'Every target of a publish run is final (once per run: publish now, schedule, retry).',
    schema: Type.Object({
      postId: PostId,
      status: Type.Unsafe<Static<typeof PostStatusName>>({ ...PostStatusName, description: 'The final post status: published, partial or failed.' }),
      platforms: Type.Array(PlatformResult, { description: "The post object's targets." }),
    }),
  },
  'post.deleted': {
    when: '`DELETE /v1/posts/{id}` removed the post from Herald (never from the platforms).',
    schema: Type.Object({ postId: PostId }),
  },
  'post.edited': {
    when: 'The text of a published post was changed on its platform.',
    schema: Type.Object({
      ...TargetRef,
      platformPostId: Type.String({ description: 'The post after the edit (X gives every version its own id).' }),
      previousPlatformPostId: Type.String(),
    }),
  },
  'post.updated': {
    when: 'A draft or scheduled post was changed (PATCH /v1/posts/{id}).',
    schema: Type.Object({ postId: PostId, version: Type.Integer({ description: "The post's version after the change." }) }),
  },
  'account.expiring': {
    when: "An account's token ends within HERALD_EXPIRY_WARNING_DAYS and Herald cannot renew it: connect it again before then (once per expiry).",
    schema: Type.Object({ ...AccountRef, expiresAt: IsoTime }),
  },
  'post.unpublished': {
    when: 'POST /v1/posts/{id}/unpublish deleted the post from platforms (with each target asked about).',
    schema: Type.Object({
      postId: PostId,
      platforms: Type.Array(
        Type.Object({
          platform: PlatformField,
          accountId: AccountId,
          unpublished: Type.Boolean(),
          error: Type.Optional(Type.String()),
          errorCode: Type.Optional(Type.String({ description: 'UNPUBLISH_NOT_SUPPORTED where the platform cannot delete, else the failure category.' })),
        }),
      ),
    }),
  },
  'account.connected': {
    when: 'An account was connected or reconnected (one event per account of the grant).',
    schema: Type.Object(AccountRef),
  },
  'account.disconnected': {
    when: 'The account was removed, or its token stopped working and could not be renewed.',
    schema: Type.Object({
      ...AccountRef,
      reason: Type.Optional(
        Type.Union([Type.Literal('user'), Type.Literal('token_revoked'), Type.Literal('token_expired')], {
          description: '`user` (DELETE /v1/accounts/…), `token_expired` or `token_revoked`.',
        }),
      ),
    }),
  },
  'webhook.test': {
    when: 'Only from `POST /v1/webhooks/test`.',
    schema: Type.Object({ message: Type.String() }),
  },
} as const satisfies Record<string, { when: string; schema: TSchema }>;

export type EventName = keyof typeof EVENT_CATALOG;
export const EVENT_NAMES = Object.keys(EVENT_CATALOG) as EventName[];
export type EventData<N extends EventName> = Static<(typeof EVENT_CATALOG)[N]['schema']>;

/** An event of the catalog, ready for the outbox. */
export type CatalogEvent = { [N in EventName]: { event: N; data: EventData<N> } }[EventName];

function build<N extends EventName>(event: N, data: EventData<N>): CatalogEvent {
  return { event, data } as CatalogEvent;
}

// The builders: each payload is made here and nowhere else.
export const postScheduled = (postId: string, scheduledFor: number) =>
  build('post.scheduled', { postId, scheduledFor: new Date(scheduledFor).toISOString() });

export const postPublished = (t: { postId: string; platform: string; accountId: string; platformPostId: string; platformPostUrl: string }) =>
  build('post.published', { ...t, status: 'published' });

export const postFailed = (t: { postId: string; platform: string; accountId: string; error: string; errorCode: string }) =>
  build('post.failed', { ...t, status: 'failed' });

export const postCompleted = (data: EventData<'post.completed'>) => build('post.completed', data);

export const postDeleted = (postId: string) => build('post.deleted', { postId });

export const postEdited = (data: EventData<'post.edited'>) => build('post.edited', data);

export const postUpdated = (postId: string, version: number) => build('post.updated', { postId, version });

export const postUnpublished = (postId: string, platforms: EventData<'post.unpublished'>['platforms']) => build('post.unpublished', { postId, platforms });

export const accountConnected = (a: { platform: string; accountId: string; username: string }) => build('account.connected', a);

export const accountDisconnected = (a: { platform: string; accountId: string; username: string }, reason: 'user' | 'token_revoked' | 'token_expired') =>
  build('account.disconnected', { ...a, reason });

export const accountExpiring = (a: { platform: string; accountId: string; username: string }, expiresAt: number) =>
  build('account.expiring', { ...a, expiresAt: new Date(expiresAt).toISOString() });

export const webhookTest = () => build('webhook.test', { message: 'This is a test notification from Herald.' });
