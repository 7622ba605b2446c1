// The posts API boundary: request bodies, query, and the post object, in one place. Each schema
// validates, types the handler and documents the route.
import Type, { type Static } from 'typebox';
import { FAILURE_CATEGORIES } from '../platforms/types.ts';
import { PlatformName } from '../platforms/registry.ts';
import { MediaItemSchema } from '../platforms/schemas.ts';
import { IsoTime, Nullable, NullableIsoTime, StringEnum } from '../contract/schemas.ts';
import { component, ref } from '../contract/components.ts';
import { postLevelBodyProperties, postLevelOutProperties } from './post-settings.ts';

export const MAX_TARGETS = 25;
export const MAX_MEDIA = 35;
export const MAX_CONTENT = 100_000;


/** A media item, named in the OpenAPI document (platform settings embed their own copy). */
export const MediaItem = ref(component('MediaItem', MediaItemSchema));

export const TargetInputSchema = component('TargetInput', Type.Object(
  {
    platform: PlatformName,
    accountId: Type.String({ minLength: 1, maxLength: 256, description: 'Id of a connected account on that platform.' }),
    customContent: Type.Optional(Type.String({ maxLength: MAX_CONTENT, description: 'Text for this target instead of content.' })),
    customMedia: Type.Optional(Type.Array(MediaItem, { maxItems: MAX_MEDIA, description: 'Media for this target instead of mediaItems.' })),
    platformSpecificData: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: "Platform options; checked against the target platform's schema." }),
    ),
  },
  { additionalProperties: false, description: 'A platform account to publish to, with optional overrides.' },
));
export const TargetInput = ref(TargetInputSchema);

/** The create body, named; `CreatePostBody` (a reference to it) is what routes use. */
export const CreatePostBodySchema = component('CreatePostRequest', Type.Object(
  {
    content: Type.Optional(Type.String({ maxLength: MAX_CONTENT, description: 'Required when no media is attached.' })),
    mediaItems: Type.Optional(Type.Array(MediaItem, { maxItems: MAX_MEDIA, description: 'Shared media.' })),
    platforms: Type.Optional(Type.Array(TargetInput, { maxItems: MAX_TARGETS, description: 'Required for non-draft posts.' })),
    publishNow: Type.Optional(Type.Boolean({ description: 'Publish at once.' })),
    scheduledFor: Type.Optional(
      Type.Union([Type.String({ maxLength: 64 }), Type.Null()], {
        description: 'ISO 8601 date-time to publish at; without an offset it is read in timezone.',
      }),
    ),
    isDraft: Type.Optional(Type.Boolean({ description: 'Save without publishing.' })),
    queue: Type.Optional(Type.Boolean({ description: 'Schedule at the next free slot of the queue (PUT /v1/queue).' })),
    timezone: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone for scheduledFor (default UTC).' })),
    tags: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 50 })),
    // Post-level platform settings (tiktokSettings, facebookSettings), from the platform descriptors.
    ...postLevelBodyProperties(),
  },
  { additionalProperties: false, description: 'A post to create: exactly one of isDraft, publishNow, scheduledFor or queue picks its mode.' },
));
export const CreatePostBody = ref(CreatePostBodySchema);
/** The typed fields, plus the post-level settings objects by field name (see post-settings.ts). */
export type CreatePostInput = Static<typeof CreatePostBody> & Record<string, unknown>;

export const TargetStatusName = StringEnum(['pending', 'publishing', 'published', 'failed', 'unpublished'], {
  description: 'unpublished: was published, then deleted from the platform by POST /v1/posts/{id}/unpublish.',
});
export const PostStatusName = StringEnum(['draft', 'scheduled', 'publishing', 'published', 'partial', 'failed']);
// A target's errorCode: a platform failure category, or one of Herald's own.
export const ErrorCodeName = StringEnum([...FAILURE_CATEGORIES, 'account_disconnected', 'internal']);

export const PlatformResult = Type.Object({
  platform: PlatformName,
  accountId: Type.String(),
  status: TargetStatusName,
  platformPostId: Type.Optional(Type.String()),
  platformPostUrl: Type.Optional(Type.String()),
  error: Type.Optional(Type.String({ description: 'Why the target failed (or why it is waiting to retry).' })),
  errorCode: Type.Optional(ErrorCodeName),
  attempts: Type.Integer(),
  publishedAt: Type.Optional(IsoTime),
  nextAttemptAt: Type.Optional(IsoTime),
  customContent: Type.Optional(Type.String()),
  customMedia: Type.Optional(Type.Array(MediaItem)),
  platformSpecificData: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  firstComment: Type.Optional(
    Type.Object(
      {
        status: StringEnum(['pending', 'published', 'failed'], { description: 'pending while it is being posted.' }),
        platformCommentId: Type.Optional(Type.String()),
        error: Type.Optional(Type.String()),
      },
      { description: "The outcome of platformSpecificData.firstComment, posted once the target is published; it never fails the target." },
    ),
  ),
});
export type PlatformResultOut = Static<typeof PlatformResult>;

/** A target's outcome, named in the OpenAPI document (the event catalog embeds its own copy). */
export const PlatformResultRef = ref(component('PlatformResult', PlatformResult));

export const PostSchema = component('Post', Type.Object(
  {
    id: Type.String(),
    content: Nullable(Type.String()),
    mediaItems: Type.Array(MediaItem),
    status: PostStatusName,
    platforms: Type.Array(PlatformResultRef),
    scheduledFor: NullableIsoTime,
    timezone: Type.String(),
    isDraft: Type.Boolean(),
    tags: Type.Array(Type.String()),
    ...postLevelOutProperties(),
    createdAt: IsoTime,
    updatedAt: IsoTime,
    publishedAt: NullableIsoTime,
    version: Type.Integer({ description: 'Raised by every change; send it as If-Match to PATCH conditionally.' }),
  },
  { description: 'A post and the outcome of each of its targets.' },
));
export const Post = ref(PostSchema);
export type PostOut = Static<typeof Post>;

export const ListPostsQuery = Type.Object(
  {
    status: Type.Optional(StringEnum(['draft', 'scheduled', 'publishing', 'published', 'failed', 'partial'])),
    platform: Type.Optional(PlatformName),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    fromDate: Type.Optional(Type.String({ format: 'date', description: 'YYYY-MM-DD, inclusive, on createdAt (UTC).' })),
    toDate: Type.Optional(Type.String({ format: 'date', description: 'YYYY-MM-DD, inclusive, on createdAt (UTC).' })),
  },
  { additionalProperties: false },
);
export type ListPostsInput = Static<typeof ListPostsQuery>;

export const PostPage = ref(component('PostPage', Type.Object({
  posts: Type.Array(Post),
  cursor: Nullable(Type.String({ description: 'Pass back to get the next page; null on the last page.' })),
  hasMore: Type.Boolean(),
})));

export const PostIdParams = Type.Object({ postId: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });

export const DeletedPost = ref(component('DeletedPost', Type.Object({ id: Type.String(), deleted: Type.Boolean() })));

export const EditPostBodySchema = component('EditPostRequest', Type.Object(
  {
    // Optional here so that a body of other fields only is answered with EDIT_TEXT_ONLY; the service
    // answers a missing content with 400.
    content: Type.Optional(Type.String({ minLength: 1, maxLength: 25_000 })),
    platform: Type.Optional(PlatformName),
    accountId: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'Picks the target when several published ones can be edited.' })),
  },
  // Other fields are answered with 422 EDIT_TEXT_ONLY rather than a generic unknown-field 400.
  { additionalProperties: true },
));
export const EditPostBody = ref(EditPostBodySchema);

export const EditResult = ref(component('EditResult', Type.Object({
  id: Type.String(),
  platform: PlatformName,
  accountId: Type.String(),
  platformPostId: Type.String({ description: "The post's id after the edit (X gives every version its own)." }),
  previousPlatformPostId: Type.String(),
  platformPostUrl: Type.String(),
  editCount: Type.Integer(),
  editsRemaining: Nullable(Type.Integer({ description: 'Null where the platform sets no limit.' })),
  editableUntil: Nullable(IsoTime),
})));

export const UnpublishBodySchema = component('UnpublishRequest', Type.Object(
  {
    platforms: Type.Optional(
      Type.Array(Type.Object({ platform: PlatformName, accountId: Type.String({ minLength: 1, maxLength: 256 }) }, { additionalProperties: false }), {
        minItems: 1,
        maxItems: 25,
        description: 'The targets to take down; default every published target.',
      }),
    ),
  },
  { additionalProperties: false },
));
