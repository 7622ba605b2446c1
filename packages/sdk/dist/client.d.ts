import type { components, operations, paths } from './schema.ts';
import { type RetryOptions } from './transport.ts';
type Schemas = components['schemas'];
export type Post = Schemas['Post'];
export type PlatformResult = Schemas['PlatformResult'];
export type MediaItem = Schemas['MediaItem'];
export type CreatePostInput = Schemas['CreatePostRequest'];
export type TargetInput = Schemas['TargetInput'];
export type PostPage = Schemas['PostPage'];
export type EditPostInput = Schemas['EditPostRequest'];
export type EditResult = Schemas['EditResult'];
export type UnpublishInput = Schemas['UnpublishRequest'];
export type UnpublishResult = Schemas['UnpublishResult'];
export type ValidateResult = Schemas['ValidateResult'];
export type BulkResult = Schemas['BulkResult'];
export type Account = Schemas['Account'];
export type AccountHealth = Schemas['AccountHealth'];
export type ConnectStart = Schemas['ConnectStart'];
export type ConnectResult = Schemas['ConnectResult'];
export type Queue = Schemas['Queue'];
export type QueueInput = Schemas['QueueRequest'];
export type WebhookSettings = Schemas['WebhookSettings'];
export type WebhookSettingsInput = Schemas['WebhookSettingsRequest'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type WebhookDeliveryDetail = Schemas['WebhookDeliveryDetail'];
export type WebhookTestResult = Schemas['WebhookTestResult'];
export type Platform = PlatformResult['platform'];
export type ListPostsQuery = NonNullable<operations['listPosts']['parameters']['query']>;
export type ListDeliveriesQuery = NonNullable<operations['listWebhookDeliveries']['parameters']['query']>;
export type StartConnectQuery = NonNullable<operations['startConnect']['parameters']['query']>;
export type CompleteConnectInput = NonNullable<operations['completeConnect']['requestBody']>['content']['application/json'];
export type BulkInput = {
    posts: CreatePostInput[];
    dryRun?: boolean;
};
/** A media library item (API.md section 10). */
export interface Media {
    id: string;
    type: 'image' | 'video' | 'document';
    contentType: string;
    bytes: number;
    sha256: string;
    width: number | null;
    height: number | null;
    durationMs: number | null;
    frameRate: number | null;
    videoCodec: string | null;
    audioCodec: string | null;
    pages: number | null;
    altText: string | null;
    url: string;
    createdAt: string;
}
export interface MediaPage {
    media: Media[];
    cursor: string | null;
    hasMore: boolean;
}
export interface HeraldOptions {
    /** Where Herald answers, e.g. http://127.0.0.1:3000 (no /v1). */
    baseUrl: string;
    /** An API key (hk_…). */
    apiKey: string;
    /** A fetch of your own (a proxy, a test double, a framework's fetch); default globalThis.fetch. */
    fetch?: (request: Request) => Promise<Response>;
    /** Headers sent with every request (say a User-Agent of yours). */
    headers?: Record<string, string>;
    /** Retries of 429, 5xx and unanswered requests: see transport.ts. */
    retry?: Partial<RetryOptions>;
}
/** Options of calls that honour an Idempotency-Key. */
export interface IdempotentCall {
    /** A UUID of yours; by default the client makes one per call (and reuses it for its own retries). */
    idempotencyKey?: string;
}
export interface CreateCall extends IdempotentCall {
    /**
     * Instead of a key: seconds during which the same create by the same API key returns the first post
     * (Idempotency-Window; what the MCP server sends). Ignored when idempotencyKey is given.
     */
    idempotencyWindowSeconds?: number;
}
export interface UploadOptions {
    /** The file's type as sent (Herald recognises the kind from the bytes); default application/octet-stream. */
    contentType?: string;
    filename?: string;
    altText?: string;
    /** The size in bytes, when known, for onProgress's total. */
    size?: number;
    /** Called as bytes go out. */
    onProgress?: (sentBytes: number, totalBytes: number | null) => void;
}
export type Herald = ReturnType<typeof createHerald>;
export declare function createHerald(options: HeraldOptions): {
    posts: {
        /** POST /v1/posts. Errors are shape B (InvalidRequestError's `type` and `param`). */
        create: (body: CreatePostInput, call?: CreateCall) => Promise<{
            id: string;
            content: string | null;
            mediaItems: {
                type?: "image" | "video" | "document" | undefined;
                url?: string | undefined;
                mediaId?: string | undefined;
                altText?: string | undefined;
            }[];
            status: "draft" | "scheduled" | "publishing" | "published" | "partial" | "failed";
            platforms: {
                platform: "instagram" | "facebook" | "threads" | "tiktok" | "twitter" | "linkedin" | "youtube" | "bluesky" | "pinterest" | "mastodon";
                accountId: string;
                status: "pending" | "publishing" | "published" | "failed" | "unpublished";
                platformPostId?: string | undefined;
                platformPostUrl?: string | undefined;
                error?: string | undefined;
                errorCode?: "auth_expired" | "permission_missing" | "content_rejected" | "media_rejected" | "rate_limited" | "quota_exceeded" | "platform_unavailable" | "outcome_unknown" | "account_disconnected" | "internal" | undefined;
                attempts: number;
                publishedAt?: string | undefined;
                nextAttemptAt?: string | undefined;
                customContent?: string | undefined;
                customMedia?: {
                    type?: "image" | "video" | "document" | undefined;
                    url?: string | undefined;
                    mediaId?: string | undefined;
                    altText?: string | undefined;
                }[] | undefined;
                platformSpecificData?: {
                    [x: string]: unknown;
                } | undefined;
                firstComment?: {
                    status: "pending" | "published" | "failed";
                    platformCommentId?: string | undefined;
                    error?: string | undefined;
                } | undefined;
            }[];
            scheduledFor: string | null;
            timezone: string;
            isDraft: boolean;
            tags: string[];
            facebookSettings: {
                contentType?: "feed" | "reel" | "story" | undefined;
                link?: string | undefined;
            } | null;
            tiktokSettings: {
                privacyLevel?: "PUBLIC_TO_EVERYONE" | "MUTUAL_FOLLOW_FRIENDS" | "FOLLOWER_OF_CREATOR" | "SELF_ONLY" | undefined;
                disableComment?: boolean | undefined;
                disableDuet?: boolean | undefined;
                disableStitch?: boolean | undefined;
                videoCoverTimestampMs?: number | undefined;
                brandContentToggle?: boolean | undefined;
                brandOrganicToggle?: boolean | undefined;
                isAigc?: boolean | undefined;
                autoAddMusic?: boolean | undefined;
                title?: string | undefined;
            } | null;
            createdAt: string;
            updatedAt: string;
            publishedAt: string | null;
            version: number;
        }>;
        list: (query?: ListPostsQuery) => Promise<{
            posts: {
                id: string;
                content: string | null;
                mediaItems: {
                    type?: "image" | "video" | "document" | undefined;
                    url?: string | undefined;
                    mediaId?: string | undefined;
                    altText?: string | undefined;
                }[];
                status: "draft" | "scheduled" | "publishing" | "published" | "partial" | "failed";
                platforms: {
                    platform: "instagram" | "facebook" | "threads" | "tiktok" | "twitter" | "linkedin" | "youtube" | "bluesky" | "pinterest" | "mastodon";
                    accountId: string;
                    status: "pending" | "publishing" | "published" | "failed" | "unpublished";
                    platformPostId?: string | undefined;
                    platformPostUrl?: string | undefined;
                    error?: string | undefined;
                    errorCode?: "auth_expired" | "permission_missing" | "content_rejected" | "media_rejected" | "rate_limited" | "quota_exceeded" | "platform_unavailable" | "outcome_unknown" | "account_disconnected" | "internal" | undefined;
                    attempts: number;
                    publishedAt?: string | undefined;
                    nextAttemptAt?: string | undefined;
                    customContent?: string | undefined;
                    customMedia?: {
                        type?: "image" | "video" | "document" | undefined;
                        url?: string | undefined;
                        mediaId?: string | undefined;
                        altText?: string | undefined;
                    }[] | undefined;
                    platformSpecificData?: {
                        [x: string]: unknown;
                    } | undefined;
                    firstComment?: {
                        status: "pending" | "published" | "failed";
                        platformCommentId?: string | undefined;
                        error?: string | undefined;
                    } | undefined;
                }[];
                scheduledFor: string | null;
                timezone: string;
                isDraft: boolean;
                tags: string[];
                facebookSettings: {
                    contentType?: "feed" | "reel" | "story" | undefined;
                    link?: string | undefined;
                } | null;
                tiktokSettings: {
                    privacyLevel?: "PUBLIC_TO_EVERYONE" | "MUTUAL_FOLLOW_FRIENDS" | "FOLLOWER_OF_CREATOR" | "SELF_ONLY" | undefined;
                    disableComment?: boolean | undefined;
                    disableDuet?: boolean | undefined;
                    disableStitch?: boolean | undefined;
                    videoCoverTimestampMs?: number | undefined;
                    brandContentToggle?: boolean | undefined;
                    brandOrganicToggle?: boolean | undefined;
                    isAigc?: boolean | undefined;
                    autoAddMusic?: boolean | undefined;
                    title?: string | undefined;
                } | null;
                createdAt: string;
                updatedAt: string;
                publishedAt: string | null;
                version: number;
            }[];
            cursor: string | null;
            hasMore: boolean;
        }>;
        /** Every post matching `query`, newest first, page by page: `for await (const post of herald.posts.iterate())`. */
        iterate: (query?: Omit<ListPostsQuery, "cursor"> & {
            cursor?: string;
        }) => AsyncGenerator<{
            id: string;
            content: string | null;
            mediaItems: components["schemas"]["MediaItem"][];
            status: "draft" | "scheduled" | "publishing" | "published" | "partial" | "failed";
            platforms: components["schemas"]["PlatformResult"][];
            scheduledFor: string | null;
            timezone: string;
            isDraft: boolean;
            tags: string[];
            facebookSettings: {
                contentType?: "feed" | "reel" | "story";
                link?: string;
            } | null;
            tiktokSettings: {
                privacyLevel?: "PUBLIC_TO_EVERYONE" | "MUTUAL_FOLLOW_FRIENDS" | "FOLLOWER_OF_CREATOR" | "SELF_ONLY";
                disableComment?: boolean;
                disableDuet?: boolean;
                disableStitch?: boolean;
                videoCoverTimestampMs?: number;
                brandContentToggle?: boolean;
                brandOrganicToggle?: boolean;
                isAigc?: boolean;
                autoAddMusic?: boolean;
                title?: string;
            } | null;
            createdAt: string;
            updatedAt: string;
            publishedAt: string | null;
            version: number;
        }, void, undefined>;
        get: (id: string) => Promise<{
            id: string;
            content: string | null;
            mediaItems: {
                type?: "image" | "video" | "document" | undefined;
                url?: string | undefined;
                mediaId?: string | undefined;
                altText?: string | undefined;
            }[];
            status: "draft" | "scheduled" | "publishing" | "published" | "partial" | "failed";
            platforms: {
                platform: "instagram" | "facebook" | "threads" | "tiktok" | "twitter" | "linkedin" | "youtube" | "bluesky" | "pinterest" | "mastodon";
                accountId: string;
                status: "pending" | "publishing" | "published" | "failed" | "unpublished";
                platformPostId?: string | undefined;
                platformPostUrl?: string | undefined;
                error?: string | undefined;
                errorCode?: "auth_expired" | "permission_missing" | "content_rejected" | "media_rejected" | "rate_limited" | "quota_exceeded" | "platform_unavailable" | "outcome_unknown" | "account_disconnected" | "internal" | undefined;
                attempts: number;
                publishedAt?: string | undefined;
                nextAttemptAt?: string | undefined;
                customContent?: string | undefined;
                customMedia?: {
                    type?: "image" | "video" | "document" | undefined;
                    url?: string | undefined;
                    mediaId?: string | undefined;
                    altText?: string | undefined;
                }[] | undefined;
                platformSpecificData?: {
                    [x: string]: unknown;
                } | undefined;
                firstComment?: {
                    status: "pending" | "published" | "failed";
                    platformCommentId?: string | undefined;
                    error?: string | undefined;
                } | undefined;
            }[];
            scheduledFor: string | null;
            timezone: string;
            isDraft: boolean;
            tags: string[];
            facebookSettings: {
                contentType?: "feed" | "reel" | "story" | undefined;
                link?: string | undefined;
            } | null;
            tiktokSettings: {
                privacyLevel?: "PUBLIC_TO_EVERYONE" | "MUTUAL_FOLLOW_FRIENDS" | "FOLLOWER_OF_CREATOR" | "SELF_ONLY" | undefined;
                disableComment?: boolean | undefined;
                disableDuet?: boolean | undefined;
                disableStitch?: boolean | undefined;
                videoCoverTimestampMs?: number | undefined;
                brandContentToggle?: boolean | undefined;
                brandOrganicToggle?: boolean | undefined;
                isAigc?: boolean | undefined;
                autoAddMusic?: boolean | undefined;
                title?: string | undefined;
            } | null;
            createdAt: string;
            updatedAt: string;
            publishedAt: string | null;
            version: number;
        }>;
        /** PATCH /v1/posts/{id}: a draft or scheduled post; `ifMatch` (a version) makes it conditional. */
        update: (id: string, body: CreatePostInput, call?: IdempotentCall & {
            ifMatch?: number | string;
        }) => Promise<{
            id: string;
            content: string | null;
            mediaItems: {
                type?: "image" | "video" | "document" | undefined;
                url?: string | undefined;
                mediaId?: string | undefined;
                altText?: string | undefined;
            }[];
            status: "draft" | "scheduled" | "publishing" | "published" | "partial" | "failed";
            platforms: {
                platform: "instagram" | "facebook" | "threads" | "tiktok" | "twitter" | "linkedin" | "youtube" | "bluesky" | "pinterest" | "mastodon";
                accountId: string;
                status: "pending" | "publishing" | "published" | "failed" | "unpublished";
                platformPostId?: string | undefined;
                platformPostUrl?: string | undefined;
                error?: string | undefined;
                errorCode?: "auth_expired" | "permission_missing" | "content_rejected" | "media_rejected" | "rate_limited" | "quota_exceeded" | "platform_unavailable" | "outcome_unknown" | "account_disconnected" | "internal" | undefined;
                attempts: number;
                publishedAt?: string | undefined;
                nextAttemptAt?: string | undefined;
                customContent?: string | undefined;
                customMedia?: {
                    type?: "image" | "video" | "document" | undefined;
                    url?: string | undefined;
                    mediaId?: string | undefined;
                    altText?: string | undefined;
                }[] | undefined;
                platformSpecificData?: {
                    [x: string]: unknown;
                } | undefined;
                firstComment?: {
                    status: "pending" | "published" | "failed";
                    platformCommentId?: string | undefined;
                    error?: string | undefined;
                } | undefined;
            }[];
            scheduledFor: string | null;
            timezone: string;
            isDraft: boolean;
            tags: string[];
            facebookSettings: {
                contentType?: "feed" | "reel" | "story" | undefined;
                link?: string | undefined;
            } | null;
            tiktokSettings: {
                privacyLevel?: "PUBLIC_TO_EVERYONE" | "MUTUAL_FOLLOW_FRIENDS" | "FOLLOWER_OF_CREATOR" | "SELF_ONLY" | undefined;
                disableComment?: boolean | undefined;
                disableDuet?: boolean | undefined;
                disableStitch?: boolean | undefined;
                videoCoverTimestampMs?: number | undefined;
                brandContentToggle?: boolean | undefined;
                brandOrganicToggle?: boolean | undefined;
                isAigc?: boolean | undefined;
                autoAddMusic?: boolean | undefined;
                title?: string | undefined;
            } | null;
            createdAt: string;
            updatedAt: string;
            publishedAt: string | null;
            version: number;
        }>;
        delete: (id: string) => Promise<{
            id: string;
            deleted: boolean;
        }>;
        retry: (id: string, call?: IdempotentCall) => Promise<{
            id: string;
            content: string | null;
            mediaItems: {
                type?: "image" | "video" | "document" | undefined;
                url?: string | undefined;
                mediaId?: string | undefined;
                altText?: string | undefined;
            }[];
            status: "draft" | "scheduled" | "publishing" | "published" | "partial" | "failed";
            platforms: {
                platform: "instagram" | "facebook" | "threads" | "tiktok" | "twitter" | "linkedin" | "youtube" | "bluesky" | "pinterest" | "mastodon";
                accountId: string;
                status: "pending" | "publishing" | "published" | "failed" | "unpublished";
                platformPostId?: string | undefined;
                platformPostUrl?: string | undefined;
                error?: string | undefined;
                errorCode?: "auth_expired" | "permission_missing" | "content_rejected" | "media_rejected" | "rate_limited" | "quota_exceeded" | "platform_unavailable" | "outcome_unknown" | "account_disconnected" | "internal" | undefined;
                attempts: number;
                publishedAt?: string | undefined;
                nextAttemptAt?: string | undefined;
                customContent?: string | undefined;
                customMedia?: {
                    type?: "image" | "video" | "document" | undefined;
                    url?: string | undefined;
                    mediaId?: string | undefined;
                    altText?: string | undefined;
                }[] | undefined;
                platformSpecificData?: {
                    [x: string]: unknown;
                } | undefined;
                firstComment?: {
                    status: "pending" | "published" | "failed";
                    platformCommentId?: string | undefined;
                    error?: string | undefined;
                } | undefined;
            }[];
            scheduledFor: string | null;
            timezone: string;
            isDraft: boolean;
            tags: string[];
            facebookSettings: {
                contentType?: "feed" | "reel" | "story" | undefined;
                link?: string | undefined;
            } | null;
            tiktokSettings: {
                privacyLevel?: "PUBLIC_TO_EVERYONE" | "MUTUAL_FOLLOW_FRIENDS" | "FOLLOWER_OF_CREATOR" | "SELF_ONLY" | undefined;
                disableComment?: boolean | undefined;
                disableDuet?: boolean | undefined;
                disableStitch?: boolean | undefined;
                videoCoverTimestampMs?: number | undefined;
                brandContentToggle?: boolean | undefined;
                brandOrganicToggle?: boolean | undefined;
                isAigc?: boolean | undefined;
                autoAddMusic?: boolean | undefined;
                title?: string | undefined;
            } | null;
            createdAt: string;
            updatedAt: string;
            publishedAt: string | null;
            version: number;
        }>;
        edit: (id: string, body: EditPostInput, call?: IdempotentCall) => Promise<{
            id: string;
            platform: "instagram" | "facebook" | "threads" | "tiktok" | "twitter" | "linkedin" | "youtube" | "bluesky" | "pinterest" | "mastodon";
            accountId: string;
            platformPostId: string;
            previousPlatformPostId: string;
            platformPostUrl: string;
            editCount: number;
            editsRemaining: number | null;
            editableUntil: string | null;
        }>;
        unpublish: (id: string, body?: UnpublishInput, call?: IdempotentCall) => Promise<{
            id: string;
            platforms: {
                platform: "instagram" | "facebook" | "threads" | "tiktok" | "twitter" | "linkedin" | "youtube" | "bluesky" | "pinterest" | "mastodon";
                accountId: string;
                unpublished: boolean;
                error?: string | undefined;
                errorCode?: string | undefined;
            }[];
        }>;
        /** Every check of a create, nothing created: {valid, errors, targets}. */
        validate: (body: CreatePostInput | Record<string, unknown>) => Promise<{
            valid: boolean;
            errors: {
                param: string | null;
                code: string;
                message: string;
            }[];
            targets: {
                platform: "instagram" | "facebook" | "threads" | "tiktok" | "twitter" | "linkedin" | "youtube" | "bluesky" | "pinterest" | "mastodon";
                accountId: string;
                valid: boolean;
                errors: {
                    param: string | null;
                    code: string;
                    message: string;
                }[];
                characters: {
                    used: number;
                    limit: number;
                };
            }[];
        }>;
        /** Up to 500 creates at once: JSON ({posts, dryRun}) or a CSV text. */
        bulk: (input: BulkInput | string, call?: IdempotentCall & {
            dryRun?: boolean;
        }) => Promise<BulkResult>;
    };
    accounts: {
        list: (query?: {
            platform?: Platform;
        }) => Promise<{
            accounts: {
                platform: "instagram" | "facebook" | "threads" | "tiktok" | "twitter" | "linkedin" | "youtube" | "bluesky" | "pinterest" | "mastodon";
                accountId: string;
                username: string;
                displayName: string | null;
                avatarUrl: string | null;
                connectedAt: string;
                status: "active" | "needs_reconnect";
            }[];
        }>;
        health: () => Promise<{
            accounts: {
                platform: "instagram" | "facebook" | "threads" | "tiktok" | "twitter" | "linkedin" | "youtube" | "bluesky" | "pinterest" | "mastodon";
                accountId: string;
                username: string;
                health: "healthy" | "warning" | "error";
                tokenValid: boolean;
                tokenExpiresAt: string | null;
                permissions: string[];
                missingPermissions: string[];
                recommendations: {
                    code: string;
                    message: string;
                }[];
            }[];
        }>;
        disconnect: (platform: Platform, accountId: string) => Promise<{
            deleted: boolean;
            revoked: boolean;
        }>;
    };
    connect: {
        start: (platform: Platform, query?: StartConnectQuery) => Promise<{
            authUrl: string;
            state: string;
        }>;
        complete: (platform: Platform, body: CompleteConnectInput) => Promise<{
            platform: "instagram" | "facebook" | "threads" | "tiktok" | "twitter" | "linkedin" | "youtube" | "bluesky" | "pinterest" | "mastodon";
            accountId: string;
            username: string;
            accounts: {
                platform: "instagram" | "facebook" | "threads" | "tiktok" | "twitter" | "linkedin" | "youtube" | "bluesky" | "pinterest" | "mastodon";
                accountId: string;
                username: string;
            }[];
        }>;
    };
    webhooks: {
        getSettings: () => Promise<{
            url: string;
            events: ("post.scheduled" | "post.published" | "post.failed" | "post.completed" | "post.deleted" | "post.edited" | "post.updated" | "account.expiring" | "post.unpublished" | "account.connected" | "account.disconnected" | "webhook.test")[];
            secret: string;
            updatedAt: string;
            disabledAt: string | null;
            disabledReason: string | null;
        }>;
        saveSettings: (body: WebhookSettingsInput) => Promise<{
            url: string;
            events: ("post.scheduled" | "post.published" | "post.failed" | "post.completed" | "post.deleted" | "post.edited" | "post.updated" | "account.expiring" | "post.unpublished" | "account.connected" | "account.disconnected" | "webhook.test")[];
            secret: string;
            updatedAt: string;
            disabledAt: string | null;
            disabledReason: string | null;
        }>;
        deleteSettings: () => Promise<{
            deleted: boolean;
        }>;
        rotateSecret: () => Promise<{
            url: string;
            events: ("post.scheduled" | "post.published" | "post.failed" | "post.completed" | "post.deleted" | "post.edited" | "post.updated" | "account.expiring" | "post.unpublished" | "account.connected" | "account.disconnected" | "webhook.test")[];
            secret: string;
            updatedAt: string;
            disabledAt: string | null;
            disabledReason: string | null;
        }>;
        test: (event: WebhookDelivery["event"]) => Promise<{
            delivered: boolean;
            statusCode: number | null;
            durationMs: number;
            error?: string | undefined;
        }>;
        deliveries: {
            list: (query?: ListDeliveriesQuery) => Promise<{
                deliveries: {
                    id: string;
                    eventId: string;
                    event: "post.scheduled" | "post.published" | "post.failed" | "post.completed" | "post.deleted" | "post.edited" | "post.updated" | "account.expiring" | "post.unpublished" | "account.connected" | "account.disconnected" | "webhook.test";
                    url: string;
                    status: "pending" | "delivered" | "failed";
                    attempts: number;
                    lastStatusCode: number | null;
                    lastError: string | null;
                    lastDurationMs: number | null;
                    nextAttemptAt: string | null;
                    createdAt: string;
                    deliveredAt: string | null;
                }[];
                cursor: string | null;
                hasMore: boolean;
            }>;
            iterate: (query?: ListDeliveriesQuery) => AsyncGenerator<{
                id: string;
                eventId: string;
                event: "post.scheduled" | "post.published" | "post.failed" | "post.completed" | "post.deleted" | "post.edited" | "post.updated" | "account.expiring" | "post.unpublished" | "account.connected" | "account.disconnected" | "webhook.test";
                url: string;
                status: "pending" | "delivered" | "failed";
                attempts: number;
                lastStatusCode: number | null;
                lastError: string | null;
                lastDurationMs: number | null;
                nextAttemptAt: string | null;
                createdAt: string;
                deliveredAt: string | null;
            }, void, undefined>;
            get: (id: string) => Promise<{
                id: string;
                eventId: string;
                event: "post.scheduled" | "post.published" | "post.failed" | "post.completed" | "post.deleted" | "post.edited" | "post.updated" | "account.expiring" | "post.unpublished" | "account.connected" | "account.disconnected" | "webhook.test";
                url: string;
                status: "pending" | "delivered" | "failed";
                attempts: number;
                lastStatusCode: number | null;
                lastError: string | null;
                lastDurationMs: number | null;
                nextAttemptAt: string | null;
                createdAt: string;
                deliveredAt: string | null;
                history: {
                    attempt: number;
                    redelivery: boolean;
                    url: string;
                    startedAt: string;
                    statusCode: number | null;
                    error: string | null;
                    durationMs: number;
                }[];
            }>;
            redeliver: (id: string) => Promise<{
                id: string;
                eventId: string;
                event: "post.scheduled" | "post.published" | "post.failed" | "post.completed" | "post.deleted" | "post.edited" | "post.updated" | "account.expiring" | "post.unpublished" | "account.connected" | "account.disconnected" | "webhook.test";
                url: string;
                status: "pending" | "delivered" | "failed";
                attempts: number;
                lastStatusCode: number | null;
                lastError: string | null;
                lastDurationMs: number | null;
                nextAttemptAt: string | null;
                createdAt: string;
                deliveredAt: string | null;
            }>;
        };
    };
    queue: {
        get: () => Promise<{
            timezone: string;
            slots: {
                day: "mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun";
                time: string;
            }[];
            upcoming: string[];
        }>;
        set: (body: QueueInput) => Promise<{
            timezone: string;
            slots: {
                day: "mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun";
                time: string;
            }[];
            upcoming: string[];
        }>;
        delete: () => Promise<{
            deleted: boolean;
        }>;
    };
    media: {
        /**
         * POST /v1/media with the file as the body, streamed (a ReadableStream is sent as it is read, never
         * held whole). Not retried: a stream cannot be sent twice.
         */
        upload: (file: Blob | Uint8Array | ReadableStream<Uint8Array>, upload?: UploadOptions) => Promise<Media>;
        /** POST /v1/media/import: Herald fetches the URL into the library. */
        import: (body: {
            url: string;
            altText?: string;
        }, call?: IdempotentCall) => Promise<Media>;
        list: (query?: {
            limit?: number;
            cursor?: string;
        }) => Promise<MediaPage>;
        iterate: (query?: {
            limit?: number;
            cursor?: string;
        }) => AsyncGenerator<Media, void, undefined>;
        get: (id: string) => Promise<Media>;
        update: (id: string, body: {
            altText: string | null;
        }) => Promise<Media>;
        delete: (id: string) => Promise<{
            id: string;
            deleted: boolean;
        }>;
    };
    system: {
        health: () => Promise<{
            status: "ok";
        }>;
        ready: () => Promise<{
            status: "ready";
        }>;
    };
    request: <T>(method: string, path: string, init?: {
        query?: Record<string, unknown>;
        body?: unknown;
        headers?: Record<string, string>;
    }) => Promise<T>;
    raw: import("openapi-fetch").Client<paths, `${string}/${string}`>;
};
export {};
