export interface paths {
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The process is up. */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The database is reachable. */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/posts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List posts, newest first, with keyset pagination. */
        get: operations["listPosts"];
        put?: never;
        /** Create a post: publish now, schedule, or save a draft. */
        post: operations["createPost"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/posts/{postId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get one post with per-platform status. */
        get: operations["getPost"];
        put?: never;
        post?: never;
        /** Delete a post from Herald (not from the platforms); cancels scheduled work. */
        delete: operations["deletePost"];
        options?: never;
        head?: never;
        /**
         * Change a draft or scheduled post before any target has started; checked like a create.
         * @description `platforms` and `mediaItems` replace the whole list. A mode field (isDraft, publishNow, scheduledFor, queue) moves the post; without one it keeps its mode and time. `If-Match: "<version>"` makes the change conditional.
         */
        patch: operations["updatePost"];
        trace?: never;
    };
    "/v1/posts/validate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run every check of a create without creating anything: all errors at once, a verdict and character count per target.
         * @description Takes a create body. Only a body that is not valid JSON gets 400 (a non-JSON content type: 415); every other problem is in the answer.
         */
        post: operations["validatePost"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/posts/bulk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create up to 500 posts from JSON ({posts, dryRun}) or CSV (text/csv, header row), each exactly as a single create.
         * @description CSV columns: content, scheduledFor, timezone, platforms (platform:accountId joined by ;), mediaUrls (joined by ;; .mp4/.mov/.m4v/.webm are videos), tags (joined by ;), isDraft, queue. At most 5 MiB. `?dryRun=true` (or dryRun in JSON) creates nothing. Idempotency-Key covers the whole import.
         */
        post: operations["importPosts"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/posts/{postId}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Publish the failed targets (and failed first comments) again; published targets are never touched. */
        post: operations["retryPost"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/posts/{postId}/edit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Edit the text of a published post, on platforms whose API can (X: paid subscription, within 1 hour, at most 5 edits). */
        post: operations["editPost"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/posts/{postId}/unpublish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Delete a published post from its platforms (the post stays in Herald). */
        post: operations["unpublishPost"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/queue": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The queue slots and the next 10 free slot times. */
        get: operations["getQueue"];
        /**
         * Set the weekly queue slots; a post created with queue: true takes the next free one.
         * @description Slots follow daylight saving. A slot in the hour skipped in spring falls after the jump by the length of the gap (02:30 becomes 03:30); a slot in the hour repeated in autumn happens once, at its first occurrence.
         */
        put: operations["setQueue"];
        post?: never;
        /** Remove the queue (queued posts keep their times). */
        delete: operations["deleteQueue"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect/{platform}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Start connecting an account: returns the URL to send the user to.
         * @description Platforms whose accounts live on a server the user names need `instance`. Platforms that connect with an app password answer 400 APP_PASSWORD_REQUIRED: use POST.
         */
        get: operations["startConnect"];
        put?: never;
        /**
         * Finish connecting: exchange the code from the callback (or send an app password); connects every account of the grant.
         * @description OAuth platforms take `code` (with `state` or `redirect_url`). App-password platforms take `identifier`, `appPassword` and optionally `service` (the server, default the configured one).
         */
        post: operations["completeConnect"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the connected accounts of this key. */
        get: operations["listAccounts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Check every account live with its platform: token, permissions, recommendations. */
        get: operations["getAccountsHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/{platform}/{accountId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Disconnect an account: revoke the token at the platform where possible and delete it. */
        delete: operations["disconnectAccount"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The webhook settings of this key, secret included. */
        get: operations["getWebhookSettings"];
        put?: never;
        /** Create or replace the webhook settings of this key; the first save generates the signing secret. */
        post: operations["saveWebhookSettings"];
        /** Remove the webhook settings; deliveries still waiting are marked failed. */
        delete: operations["deleteWebhookSettings"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/secret/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Replace the signing secret with a new generated one; every later attempt is signed with it. */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List deliveries of the last 30 days, newest first, with keyset pagination. */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/deliveries/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One delivery with the result of every attempt. */
        get: operations["getWebhookDelivery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/deliveries/{id}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send one more attempt of a delivery now (same event id and body); answers the updated delivery. */
        post: operations["redeliverWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a signed sample of an event to the configured URL now and report the outcome. */
        post: operations["testWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/media": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List media, newest first, with keyset pagination. */
        get: operations["listMedia"];
        put?: never;
        /**
         * Upload one file: the raw bytes with their Content-Type, or multipart/form-data with a part "file" (and "altText").
         * @description Streamed to storage; the kind is recognised from the bytes. An Idempotency-Key is claimed once the bytes are in, for the request and the file's SHA-256: sending the same file again under it answers the first media object.
         */
        post: operations["uploadMedia"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/media/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Fetch a file from a URL (through the outbound guard) into the library. */
        post: operations["importMedia"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/media/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One media object. */
        get: operations["getMedia"];
        put?: never;
        post?: never;
        /** Delete a file and its renditions; its URL answers 404 from then on. 409 MEDIA_IN_USE while a draft, a scheduled post or an unfinished target uses it. */
        delete: operations["deleteMedia"];
        options?: never;
        head?: never;
        /** Change the alt text (null clears it). */
        patch: operations["updateMedia"];
        trace?: never;
    };
}
export interface webhooks {
    "post.scheduled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A post was created with `scheduledFor`.
         * @description Signed with X-Herald-Signature (hex HMAC-SHA256 of the raw body) and the Standard Webhooks headers webhook-id, webhook-timestamp, webhook-signature.
         */
        post: operations["postScheduledEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "post.published": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * One target of a post was published (one event per target).
         * @description Signed with X-Herald-Signature (hex HMAC-SHA256 of the raw body) and the Standard Webhooks headers webhook-id, webhook-timestamp, webhook-signature.
         */
        post: operations["postPublishedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "post.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * One target ended failed, after automatic retries (one event per target).
         * @description Signed with X-Herald-Signature (hex HMAC-SHA256 of the raw body) and the Standard Webhooks headers webhook-id, webhook-timestamp, webhook-signature.
         */
        post: operations["postFailedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "post.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Every target of a publish run is final (once per run: publish now, schedule, retry).
         * @description Signed with X-Herald-Signature (hex HMAC-SHA256 of the raw body) and the Standard Webhooks headers webhook-id, webhook-timestamp, webhook-signature.
         */
        post: operations["postCompletedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "post.deleted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * `DELETE /v1/posts/{id}` removed the post from Herald (never from the platforms).
         * @description Signed with X-Herald-Signature (hex HMAC-SHA256 of the raw body) and the Standard Webhooks headers webhook-id, webhook-timestamp, webhook-signature.
         */
        post: operations["postDeletedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "post.edited": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The text of a published post was changed on its platform.
         * @description Signed with X-Herald-Signature (hex HMAC-SHA256 of the raw body) and the Standard Webhooks headers webhook-id, webhook-timestamp, webhook-signature.
         */
        post: operations["postEditedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "post.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A draft or scheduled post was changed (PATCH /v1/posts/{id}).
         * @description Signed with X-Herald-Signature (hex HMAC-SHA256 of the raw body) and the Standard Webhooks headers webhook-id, webhook-timestamp, webhook-signature.
         */
        post: operations["postUpdatedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "account.expiring": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An account's token ends within HERALD_EXPIRY_WARNING_DAYS and Herald cannot renew it: connect it again before then (once per expiry).
         * @description Signed with X-Herald-Signature (hex HMAC-SHA256 of the raw body) and the Standard Webhooks headers webhook-id, webhook-timestamp, webhook-signature.
         */
        post: operations["accountExpiringEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "post.unpublished": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * POST /v1/posts/{id}/unpublish deleted the post from platforms (with each target asked about).
         * @description Signed with X-Herald-Signature (hex HMAC-SHA256 of the raw body) and the Standard Webhooks headers webhook-id, webhook-timestamp, webhook-signature.
         */
        post: operations["postUnpublishedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "account.connected": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An account was connected or reconnected (one event per account of the grant).
         * @description Signed with X-Herald-Signature (hex HMAC-SHA256 of the raw body) and the Standard Webhooks headers webhook-id, webhook-timestamp, webhook-signature.
         */
        post: operations["accountConnectedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "account.disconnected": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The account was removed, or its token stopped working and could not be renewed.
         * @description Signed with X-Herald-Signature (hex HMAC-SHA256 of the raw body) and the Standard Webhooks headers webhook-id, webhook-timestamp, webhook-signature.
         */
        post: operations["accountDisconnectedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webhook.test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Only from `POST /v1/webhooks/test`.
         * @description Signed with X-Herald-Signature (hex HMAC-SHA256 of the raw body) and the Standard Webhooks headers webhook-id, webhook-timestamp, webhook-signature.
         */
        post: operations["webhookTestEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        Account: {
            /**
             * @description Platform name.
             * @enum {string}
             */
            platform: "instagram" | "facebook" | "threads" | "tiktok" | "twitter" | "linkedin" | "youtube" | "bluesky" | "pinterest" | "mastodon";
            accountId: string;
            username: string;
            displayName: string | null;
            avatarUrl: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with milliseconds.
             */
            connectedAt: string;
            /** @enum {string} */
            status: "active" | "needs_reconnect";
        };
        AccountHealth: {
            /**
             * @description Platform name.
             * @enum {string}
             */
            platform: "instagram" | "facebook" | "threads" | "tiktok" | "twitter" | "linkedin" | "youtube" | "bluesky" | "pinterest" | "mastodon";
            accountId: string;
            username: string;
            /** @enum {string} */
            health: "healthy" | "warning" | "error";
            tokenValid: boolean;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with milliseconds.
             */
            tokenExpiresAt: string | null;
            permissions: string[];
            missingPermissions: string[];
            recommendations: {
                code: string;
                message: string;
            }[];
        };
        AccountHealthList: {
            accounts: components["schemas"]["AccountHealth"][];
        };
        AccountList: {
            accounts: components["schemas"]["Account"][];
        };
        BulkResult: {
            created: number;
            failed: number;
            results: {
                /** @description The row, from 0 (a CSV header is not a row). */
                index: number;
                valid: boolean;
                id?: string;
                status?: string;
                errors?: components["schemas"]["Problem"][];
            }[];
        };
        ConnectResult: {
            /**
             * @description Platform name.
             * @enum {string}
             */
            platform: "instagram" | "facebook" | "threads" | "tiktok" | "twitter" | "linkedin" | "youtube" | "bluesky" | "pinterest" | "mastodon";
            accountId: string;
            username: string;
            accounts: {
                /**
                 * @description Platform name.
                 * @enum {string}
                 */
                platform: "instagram" | "facebook" | "threads" | "tiktok" | "twitter" | "linkedin" | "youtube" | "bluesky" | "pinterest" | "mastodon";
                accountId: string;
                username: string;
            }[];
        };
        ConnectStart: {
            authUrl: string;
            state: string;
        };
        /** @description A post to create: exactly one of isDraft, publishNow, scheduledFor or queue picks its mode. */
        CreatePostRequest: {
            /** @description Required when no media is attached. */
            content?: string;
            /** @description Shared media. */
            mediaItems?: components["schemas"]["MediaItem"][];
            /** @description Required for non-draft posts. */
            platforms?: components["schemas"]["TargetInput"][];
            /** @description Publish at once. */
            publishNow?: boolean;
            /** @description ISO 8601 date-time to publish at; without an offset it is read in timezone. */
            scheduledFor?: string | null;
            /** @description Save without publishing. */
            isDraft?: boolean;
            /** @description Schedule at the next free slot of the queue (PUT /v1/queue). */
            queue?: boolean;
            /** @description IANA time zone for scheduledFor (default UTC). */
            timezone?: string;
            tags?: string[];
            facebookSettings?: {
                contentType?: "feed" | "reel" | "story";
                /** Format: uri */
                link?: string;
            };
            tiktokSettings?: {
                privacyLevel?: "PUBLIC_TO_EVERYONE" | "MUTUAL_FOLLOW_FRIENDS" | "FOLLOWER_OF_CREATOR" | "SELF_ONLY";
                disableComment?: boolean;
                disableDuet?: boolean;
                disableStitch?: boolean;
                videoCoverTimestampMs?: number;
                brandContentToggle?: boolean;
                brandOrganicToggle?: boolean;
                isAigc?: boolean;
                autoAddMusic?: boolean;
                /** @description Title of a photo post (the content is its description). */
                title?: string;
            };
        };
        DeletedPost: {
            id: string;
            deleted: boolean;
        };
        EditPostRequest: {
            content?: string;
            /**
             * @description Platform name.
             * @enum {string}
             */
            platform?: "instagram" | "facebook" | "threads" | "tiktok" | "twitter" | "linkedin" | "youtube" | "bluesky" | "pinterest" | "mastodon";
            /** @description Picks the target when several published ones can be edited. */
            accountId?: string;
        } & {
            [key: string]: unknown;
        };
        EditResult: {
            id: string;
            /**
             * @description Platform name.
             * @enum {string}
             */
            platform: "instagram" | "facebook" | "threads" | "tiktok" | "twitter" | "linkedin" | "youtube" | "bluesky" | "pinterest" | "mastodon";
            accountId: string;
            /** @description The post's id after the edit (X gives every version its own). */
            platformPostId: string;
            previousPlatformPostId: string;
            platformPostUrl: string;
            editCount: number;
            /** @description Null where the platform sets no limit. */
            editsRemaining: number | null;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with milliseconds.
             */
            editableUntil: string | null;
        };
        /** @description Shape A error (every endpoint except POST /v1/posts). */
        ErrorA: {
            /** @description Human-readable explanation. */
            error: string;
            /** @description Machine-readable code, upper case. */
            code: string;
            /** @description The offending field, e.g. platforms[1].accountId. */
            param?: string;
            details?: unknown;
        };
        /** @description Shape B error (POST /v1/posts). */
        ErrorB: {
            error: string;
            /** @description invalid_request_error, authentication_error or idempotency_error. */
            type: string;
            /** @description Machine-readable code, lower case. */
            code: string;
            /** @description The offending field. */
            param: string | null;
        };
        /** @description {type, url} or {mediaId}, each with an optional altText. */
        MediaItem: {
            /**
             * @description Kind of media; from the library for library media (document: a PDF from the library).
             * @enum {string}
             */
            type?: "image" | "video" | "document";
            /**
             * Format: uri
             * @description Absolute http(s) URL of the file; fetched through the outbound guard when a target publishes. Herald fills it in for library media.
             */
            url?: string;
            /** @description A file of the media library (POST /v1/media), instead of type and url. */
            mediaId?: string;
            /** @description Alt text, sent to every platform that takes it; a library item without it uses the library's. */
            altText?: string;
        };
        PlatformResult: {
            /**
             * @description Platform name.
             * @enum {string}
             */
            platform: "instagram" | "facebook" | "threads" | "tiktok" | "twitter" | "linkedin" | "youtube" | "bluesky" | "pinterest" | "mastodon";
            accountId: string;
            /**
             * @description unpublished: was published, then deleted from the platform by POST /v1/posts/{id}/unpublish.
             * @enum {string}
             */
            status: "pending" | "publishing" | "published" | "failed" | "unpublished";
            platformPostId?: string;
            platformPostUrl?: string;
            /** @description Why the target failed (or why it is waiting to retry). */
            error?: string;
            /** @enum {string} */
            errorCode?: "auth_expired" | "permission_missing" | "content_rejected" | "media_rejected" | "rate_limited" | "quota_exceeded" | "platform_unavailable" | "outcome_unknown" | "account_disconnected" | "internal";
            attempts: number;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with milliseconds.
             */
            publishedAt?: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with milliseconds.
             */
            nextAttemptAt?: string;
            customContent?: string;
            customMedia?: components["schemas"]["MediaItem"][];
            platformSpecificData?: {
                [key: string]: unknown;
            };
            /** @description The outcome of platformSpecificData.firstComment, posted once the target is published; it never fails the target. */
            firstComment?: {
                /**
                 * @description pending while it is being posted.
                 * @enum {string}
                 */
                status: "pending" | "published" | "failed";
                platformCommentId?: string;
                error?: string;
            };
        };
        /** @description A post and the outcome of each of its targets. */
        Post: {
            id: string;
            content: string | null;
            mediaItems: components["schemas"]["MediaItem"][];
            /** @enum {string} */
            status: "draft" | "scheduled" | "publishing" | "published" | "partial" | "failed";
            platforms: components["schemas"]["PlatformResult"][];
            /**
             * Format: date-time
             * @description ISO 8601 UTC with milliseconds.
             */
            scheduledFor: string | null;
            timezone: string;
            isDraft: boolean;
            tags: string[];
            facebookSettings: {
                contentType?: "feed" | "reel" | "story";
                /** Format: uri */
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
                /** @description Title of a photo post (the content is its description). */
                title?: string;
            } | null;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with milliseconds.
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with milliseconds.
             */
            updatedAt: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with milliseconds.
             */
            publishedAt: string | null;
            /** @description Raised by every change; send it as If-Match to PATCH conditionally. */
            version: number;
        };
        PostPage: {
            posts: components["schemas"]["Post"][];
            /** @description Pass back to get the next page; null on the last page. */
            cursor: string | null;
            hasMore: boolean;
        };
        Problem: {
            param: string | null;
            code: string;
            message: string;
        };
        Queue: {
            timezone: string;
            slots: {
                /**
                 * @description Day of the week.
                 * @enum {string}
                 */
                day: "mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun";
                /** @description HH:MM, 24-hour, in the queue time zone. */
                time: string;
            }[];
            /** @description The next 10 slots no queued post holds, UTC. */
            upcoming: string[];
        };
        QueueRequest: {
            /** @description IANA time zone of the slots, e.g. Europe/Paris. */
            timezone: string;
            slots: {
                /**
                 * @description Day of the week.
                 * @enum {string}
                 */
                day: "mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun";
                /** @description HH:MM, 24-hour, in the queue time zone. */
                time: string;
            }[];
        };
        /** @description A platform account to publish to, with optional overrides. */
        TargetInput: {
            /**
             * @description Platform name.
             * @enum {string}
             */
            platform: "instagram" | "facebook" | "threads" | "tiktok" | "twitter" | "linkedin" | "youtube" | "bluesky" | "pinterest" | "mastodon";
            /** @description Id of a connected account on that platform. */
            accountId: string;
            /** @description Text for this target instead of content. */
            customContent?: string;
            /** @description Media for this target instead of mediaItems. */
            customMedia?: components["schemas"]["MediaItem"][];
            /** @description Platform options; checked against the target platform's schema. */
            platformSpecificData?: {
                [key: string]: unknown;
            };
        };
        UnpublishRequest: {
            /** @description The targets to take down; default every published target. */
            platforms?: {
                /**
                 * @description Platform name.
                 * @enum {string}
                 */
                platform: "instagram" | "facebook" | "threads" | "tiktok" | "twitter" | "linkedin" | "youtube" | "bluesky" | "pinterest" | "mastodon";
                accountId: string;
            }[];
        };
        UnpublishResult: {
            id: string;
            platforms: {
                /**
                 * @description Platform name.
                 * @enum {string}
                 */
                platform: "instagram" | "facebook" | "threads" | "tiktok" | "twitter" | "linkedin" | "youtube" | "bluesky" | "pinterest" | "mastodon";
                accountId: string;
                unpublished: boolean;
                error?: string;
                /** @description UNPUBLISH_NOT_SUPPORTED where the platform cannot delete, NOT_PUBLISHED, or the failure category. */
                errorCode?: string;
            }[];
        };
        ValidateResult: {
            valid: boolean;
            errors: components["schemas"]["Problem"][];
            targets: {
                /**
                 * @description Platform name.
                 * @enum {string}
                 */
                platform: "instagram" | "facebook" | "threads" | "tiktok" | "twitter" | "linkedin" | "youtube" | "bluesky" | "pinterest" | "mastodon";
                accountId: string;
                valid: boolean;
                errors: components["schemas"]["Problem"][];
                characters: {
                    /** @description The text's length as the platform counts it (weighted, graphemes, code points or UTF-16 units: docs/api.md says which). */
                    used: number;
                    limit: number;
                };
            }[];
        };
        WebhookDelivery: {
            /** @description Delivery id (whd_…). */
            id: string;
            /** @description Event id (evt_…), the same on every attempt; dedupe on it. */
            eventId: string;
            /**
             * @description Webhook event name.
             * @enum {unknown}
             */
            event: "post.scheduled" | "post.published" | "post.failed" | "post.completed" | "post.deleted" | "post.edited" | "post.updated" | "account.expiring" | "post.unpublished" | "account.connected" | "account.disconnected" | "webhook.test";
            /** @description Where the latest attempt went (or, before any, where the event was bound). */
            url: string;
            /** @enum {unknown} */
            status: "pending" | "delivered" | "failed";
            /** @description Requests sent so far, redeliveries included. */
            attempts: number;
            lastStatusCode: number | null;
            lastError: string | null;
            lastDurationMs: number | null;
            /** @description When the next automatic attempt is due (pending only). */
            nextAttemptAt: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with milliseconds.
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with milliseconds.
             */
            deliveredAt: string | null;
        };
        WebhookDeliveryDetail: {
            /** @description Delivery id (whd_…). */
            id: string;
            /** @description Event id (evt_…), the same on every attempt; dedupe on it. */
            eventId: string;
            /**
             * @description Webhook event name.
             * @enum {unknown}
             */
            event: "post.scheduled" | "post.published" | "post.failed" | "post.completed" | "post.deleted" | "post.edited" | "post.updated" | "account.expiring" | "post.unpublished" | "account.connected" | "account.disconnected" | "webhook.test";
            /** @description Where the latest attempt went (or, before any, where the event was bound). */
            url: string;
            /** @enum {unknown} */
            status: "pending" | "delivered" | "failed";
            /** @description Requests sent so far, redeliveries included. */
            attempts: number;
            lastStatusCode: number | null;
            lastError: string | null;
            lastDurationMs: number | null;
            /** @description When the next automatic attempt is due (pending only). */
            nextAttemptAt: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with milliseconds.
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with milliseconds.
             */
            deliveredAt: string | null;
            history: {
                attempt: number;
                redelivery: boolean;
                url: string;
                /**
                 * Format: date-time
                 * @description ISO 8601 UTC with milliseconds.
                 */
                startedAt: string;
                statusCode: number | null;
                error: string | null;
                durationMs: number;
            }[];
        };
        WebhookDeliveryPage: {
            deliveries: {
                /** @description Delivery id (whd_…). */
                id: string;
                /** @description Event id (evt_…), the same on every attempt; dedupe on it. */
                eventId: string;
                /**
                 * @description Webhook event name.
                 * @enum {unknown}
                 */
                event: "post.scheduled" | "post.published" | "post.failed" | "post.completed" | "post.deleted" | "post.edited" | "post.updated" | "account.expiring" | "post.unpublished" | "account.connected" | "account.disconnected" | "webhook.test";
                /** @description Where the latest attempt went (or, before any, where the event was bound). */
                url: string;
                /** @enum {unknown} */
                status: "pending" | "delivered" | "failed";
                /** @description Requests sent so far, redeliveries included. */
                attempts: number;
                lastStatusCode: number | null;
                lastError: string | null;
                lastDurationMs: number | null;
                /** @description When the next automatic attempt is due (pending only). */
                nextAttemptAt: string | null;
                /**
                 * Format: date-time
                 * @description ISO 8601 UTC with milliseconds.
                 */
                createdAt: string;
                /**
                 * Format: date-time
                 * @description ISO 8601 UTC with milliseconds.
                 */
                deliveredAt: string | null;
            }[];
            /** @description Pass back to get the next page; null on the last page. */
            cursor: string | null;
            hasMore: boolean;
        };
        WebhookSettings: {
            url: string;
            events: ("post.scheduled" | "post.published" | "post.failed" | "post.completed" | "post.deleted" | "post.edited" | "post.updated" | "account.expiring" | "post.unpublished" | "account.connected" | "account.disconnected" | "webhook.test")[];
            /** @description Signing secret: "whsec_" + base64. */
            secret: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with milliseconds.
             */
            updatedAt: string;
            /** @description Set when a 410 from the receiver stopped deliveries; saving again clears it. */
            disabledAt: string | null;
            disabledReason: string | null;
        };
        WebhookSettingsRequest: {
            /** @description Absolute http(s) URL; private and loopback addresses are refused. */
            url: string;
            /** @description The events to send. */
            events: ("post.scheduled" | "post.published" | "post.failed" | "post.completed" | "post.deleted" | "post.edited" | "post.updated" | "account.expiring" | "post.unpublished" | "account.connected" | "account.disconnected" | "webhook.test")[];
            /** @description "whsec_" + base64 of 24 to 64 random bytes. Omit to keep the current secret (or get a generated one on the first save). */
            secret?: string;
        };
        WebhookTestRequest: {
            /**
             * @description Webhook event name.
             * @enum {unknown}
             */
            event: "post.scheduled" | "post.published" | "post.failed" | "post.completed" | "post.deleted" | "post.edited" | "post.updated" | "account.expiring" | "post.unpublished" | "account.connected" | "account.disconnected" | "webhook.test";
        };
        WebhookTestResult: {
            delivered: boolean;
            /** @description Null when no answer came (time-out, refused address, connection error). */
            statusCode: number | null;
            durationMs: number;
            error?: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok";
                    };
                };
            };
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ready";
                    };
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
        };
    };
    listPosts: {
        parameters: {
            query?: {
                status?: "draft" | "scheduled" | "publishing" | "published" | "failed" | "partial";
                /** @description Platform name. */
                platform?: "instagram" | "facebook" | "threads" | "tiktok" | "twitter" | "linkedin" | "youtube" | "bluesky" | "pinterest" | "mastodon";
                limit?: number;
                cursor?: string;
                /** @description YYYY-MM-DD, inclusive, on createdAt (UTC). */
                fromDate?: string;
                /** @description YYYY-MM-DD, inclusive, on createdAt (UTC). */
                toDate?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PostPage"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
        };
    };
    createPost: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID; repeats of the request with it return the first answer for 24 h. */
                "idempotency-key"?: string;
                /** @description Instead of Idempotency-Key: seconds during which a repeat of this same request (method, path and body) by the same API key returns the first answer, counted from the first request. */
                "idempotency-window"?: number;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreatePostRequest"];
            };
        };
        responses: {
            /** @description A post and the outcome of each of its targets. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Post"];
                };
            };
            /** @description Shape B error (POST /v1/posts). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorB"];
                };
            };
            /** @description Shape B error (POST /v1/posts). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorB"];
                };
            };
            /** @description Shape B error (POST /v1/posts). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorB"];
                };
            };
            /** @description Shape B error (POST /v1/posts). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorB"];
                };
            };
            /** @description Shape B error (POST /v1/posts). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorB"];
                };
            };
            /** @description Shape B error (POST /v1/posts). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorB"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
        };
    };
    getPost: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                postId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A post and the outcome of each of its targets. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Post"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
        };
    };
    deletePost: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                postId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedPost"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
        };
    };
    updatePost: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID; repeats of the request with it return the first answer for 24 h. */
                "idempotency-key"?: string;
                /** @description Instead of Idempotency-Key: seconds during which a repeat of this same request (method, path and body) by the same API key returns the first answer, counted from the first request. */
                "idempotency-window"?: number;
                /** @description The version the change expects, e.g. "3"; another gives 412 VERSION_MISMATCH. */
                "if-match"?: string;
            };
            path: {
                postId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreatePostRequest"];
            };
        };
        responses: {
            /** @description A post and the outcome of each of its targets. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Post"];
                };
            };
            /** @description Shape B error (POST /v1/posts). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorB"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape B error (POST /v1/posts). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorB"];
                };
            };
            /** @description Shape B error (POST /v1/posts). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorB"];
                };
            };
            /** @description Shape B error (POST /v1/posts). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorB"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
        };
    };
    validatePost: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description A create body (POST /v1/posts). */
        requestBody: {
            content: {
                "application/json": unknown;
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidateResult"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
        };
    };
    importPosts: {
        parameters: {
            query?: {
                dryRun?: boolean;
            };
            header?: {
                /** @description A UUID; repeats of the request with it return the first answer for 24 h. */
                "idempotency-key"?: string;
                /** @description Instead of Idempotency-Key: seconds during which a repeat of this same request (method, path and body) by the same API key returns the first answer, counted from the first request. */
                "idempotency-window"?: number;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    posts: unknown[];
                    /** @description Check every row, create nothing. */
                    dryRun?: boolean;
                };
                "text/csv": string;
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BulkResult"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
        };
    };
    retryPost: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID; repeats of the request with it return the first answer for 24 h. */
                "idempotency-key"?: string;
                /** @description Instead of Idempotency-Key: seconds during which a repeat of this same request (method, path and body) by the same API key returns the first answer, counted from the first request. */
                "idempotency-window"?: number;
            };
            path: {
                postId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A post and the outcome of each of its targets. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Post"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
        };
    };
    editPost: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID; repeats of the request with it return the first answer for 24 h. */
                "idempotency-key"?: string;
                /** @description Instead of Idempotency-Key: seconds during which a repeat of this same request (method, path and body) by the same API key returns the first answer, counted from the first request. */
                "idempotency-window"?: number;
            };
            path: {
                postId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EditPostRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EditResult"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
        };
    };
    unpublishPost: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID; repeats of the request with it return the first answer for 24 h. */
                "idempotency-key"?: string;
                /** @description Instead of Idempotency-Key: seconds during which a repeat of this same request (method, path and body) by the same API key returns the first answer, counted from the first request. */
                "idempotency-window"?: number;
            };
            path: {
                postId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UnpublishRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnpublishResult"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
        };
    };
    getQueue: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Queue"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
        };
    };
    setQueue: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["QueueRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Queue"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
        };
    };
    deleteQueue: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deleted: boolean;
                    };
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
        };
    };
    startConnect: {
        parameters: {
            query?: {
                /** @description Where the platform sends the user back (default: the key's). */
                redirect_url?: string;
                /** @description The URL of the server the account lives on (platforms whose accounts live on a server the user names), e.g. https://social.example. */
                instance?: string;
            };
            header?: never;
            path: {
                /** @description Platform name. */
                platform: "instagram" | "facebook" | "threads" | "tiktok" | "twitter" | "linkedin" | "youtube" | "bluesky" | "pinterest" | "mastodon";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConnectStart"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
        };
    };
    completeConnect: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Platform name. */
                platform: "instagram" | "facebook" | "threads" | "tiktok" | "twitter" | "linkedin" | "youtube" | "bluesky" | "pinterest" | "mastodon";
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The code from the callback (OAuth platforms). */
                    code?: string;
                    redirect_url?: string;
                    /** @description The state from GET /v1/connect; recommended. */
                    state?: string;
                    /** @description Handle or email (app-password platforms). */
                    identifier?: string;
                    /** @description An app password (app-password platforms). */
                    appPassword?: string;
                    /** @description The server to sign in on (app-password platforms). */
                    service?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConnectResult"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
        };
    };
    listAccounts: {
        parameters: {
            query?: {
                /** @description Platform name. */
                platform?: "instagram" | "facebook" | "threads" | "tiktok" | "twitter" | "linkedin" | "youtube" | "bluesky" | "pinterest" | "mastodon";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountList"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
        };
    };
    getAccountsHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountHealthList"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
        };
    };
    disconnectAccount: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Platform name. */
                platform: "instagram" | "facebook" | "threads" | "tiktok" | "twitter" | "linkedin" | "youtube" | "bluesky" | "pinterest" | "mastodon";
                accountId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deleted: boolean;
                        revoked: boolean;
                    };
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
        };
    };
    getWebhookSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSettings"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
        };
    };
    saveWebhookSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookSettingsRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSettings"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
        };
    };
    deleteWebhookSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deleted: boolean;
                    };
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSettings"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                status?: "pending" | "delivered" | "failed";
                /** @description Webhook event name. */
                event?: "post.scheduled" | "post.published" | "post.failed" | "post.completed" | "post.deleted" | "post.edited" | "post.updated" | "account.expiring" | "post.unpublished" | "account.connected" | "account.disconnected" | "webhook.test";
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryPage"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
        };
    };
    getWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryDetail"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
        };
    };
    redeliverWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
        };
    };
    testWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookTestRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookTestResult"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
        };
    };
    listMedia: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        media: {
                            /** @description med_… */
                            id: string;
                            /** @enum {string} */
                            type: "image" | "video" | "document";
                            /** @description From the bytes, not from what the upload declared. */
                            contentType: string;
                            bytes: number;
                            /** @description Lowercase hex SHA-256 of the bytes. */
                            sha256: string;
                            width: number | null;
                            height: number | null;
                            durationMs: number | null;
                            frameRate: number | null;
                            videoCodec: string | null;
                            audioCodec: string | null;
                            pages: number | null;
                            altText: string | null;
                            /** @description Public address that serves the bytes without a key (HEAD and Range honoured); 404 once deleted. */
                            url: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             */
                            createdAt: string;
                        }[];
                        /** @description Pass back to get the next page; null on the last page. */
                        cursor: string | null;
                        hasMore: boolean;
                    };
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
        };
    };
    uploadMedia: {
        parameters: {
            query?: {
                /** @description The file name shown in the public URL (its extension follows the bytes). */
                filename?: string;
                /** @description Alternative text, sent to every platform that takes it (at most 1,000 characters). */
                altText?: string;
            };
            header?: {
                /** @description A UUID; repeats of the request with it return the first answer for 24 h. */
                "idempotency-key"?: string;
                /** @description Instead of Idempotency-Key: seconds during which a repeat of this same request (method, path and body) by the same API key returns the first answer, counted from the first request. */
                "idempotency-window"?: number;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description med_… */
                        id: string;
                        /** @enum {string} */
                        type: "image" | "video" | "document";
                        /** @description From the bytes, not from what the upload declared. */
                        contentType: string;
                        bytes: number;
                        /** @description Lowercase hex SHA-256 of the bytes. */
                        sha256: string;
                        width: number | null;
                        height: number | null;
                        durationMs: number | null;
                        frameRate: number | null;
                        videoCodec: string | null;
                        audioCodec: string | null;
                        pages: number | null;
                        altText: string | null;
                        /** @description Public address that serves the bytes without a key (HEAD and Range honoured); 404 once deleted. */
                        url: string;
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC with milliseconds.
                         */
                        createdAt: string;
                    };
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
        };
    };
    importMedia: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID; repeats of the request with it return the first answer for 24 h. */
                "idempotency-key"?: string;
                /** @description Instead of Idempotency-Key: seconds during which a repeat of this same request (method, path and body) by the same API key returns the first answer, counted from the first request. */
                "idempotency-window"?: number;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uri
                     * @description Absolute http(s) URL; fetched through the outbound guard.
                     */
                    url: string;
                    /** @description Alternative text, sent to every platform that takes it (at most 1,000 characters). */
                    altText?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description med_… */
                        id: string;
                        /** @enum {string} */
                        type: "image" | "video" | "document";
                        /** @description From the bytes, not from what the upload declared. */
                        contentType: string;
                        bytes: number;
                        /** @description Lowercase hex SHA-256 of the bytes. */
                        sha256: string;
                        width: number | null;
                        height: number | null;
                        durationMs: number | null;
                        frameRate: number | null;
                        videoCodec: string | null;
                        audioCodec: string | null;
                        pages: number | null;
                        altText: string | null;
                        /** @description Public address that serves the bytes without a key (HEAD and Range honoured); 404 once deleted. */
                        url: string;
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC with milliseconds.
                         */
                        createdAt: string;
                    };
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
        };
    };
    getMedia: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description med_… */
                        id: string;
                        /** @enum {string} */
                        type: "image" | "video" | "document";
                        /** @description From the bytes, not from what the upload declared. */
                        contentType: string;
                        bytes: number;
                        /** @description Lowercase hex SHA-256 of the bytes. */
                        sha256: string;
                        width: number | null;
                        height: number | null;
                        durationMs: number | null;
                        frameRate: number | null;
                        videoCodec: string | null;
                        audioCodec: string | null;
                        pages: number | null;
                        altText: string | null;
                        /** @description Public address that serves the bytes without a key (HEAD and Range honoured); 404 once deleted. */
                        url: string;
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC with milliseconds.
                         */
                        createdAt: string;
                    };
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
        };
    };
    deleteMedia: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        deleted: boolean;
                    };
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
        };
    };
    updateMedia: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Alternative text, sent to every platform that takes it (at most 1,000 characters). */
                    altText: string | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description med_… */
                        id: string;
                        /** @enum {string} */
                        type: "image" | "video" | "document";
                        /** @description From the bytes, not from what the upload declared. */
                        contentType: string;
                        bytes: number;
                        /** @description Lowercase hex SHA-256 of the bytes. */
                        sha256: string;
                        width: number | null;
                        height: number | null;
                        durationMs: number | null;
                        frameRate: number | null;
                        videoCodec: string | null;
                        audioCodec: string | null;
                        pages: number | null;
                        altText: string | null;
                        /** @description Public address that serves the bytes without a key (HEAD and Range honoured); 404 once deleted. */
                        url: string;
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC with milliseconds.
                         */
                        createdAt: string;
                    };
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
            /** @description Shape A error (every endpoint except POST /v1/posts). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorA"];
                };
            };
        };
    };
    postScheduledEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Event id (evt_…), the same on every delivery attempt: dedupe on it. */
                    id: string;
                    /** @constant */
                    event: "post.scheduled";
                    /** Format: date-time */
                    timestamp: string;
                    data: {
                        /** @description The post (post_…). */
                        postId: string;
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC with milliseconds.
                         */
                        scheduledFor: string;
                    };
                };
            };
        };
        responses: {
            /** @description Delivered. Anything else (or no answer within 10 s) is retried; 410 stops deliveries to the URL. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    postPublishedEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Event id (evt_…), the same on every delivery attempt: dedupe on it. */
                    id: string;
                    /** @constant */
                    event: "post.published";
                    /** Format: date-time */
                    timestamp: string;
                    data: {
                        /** @description The post (post_…). */
                        postId: string;
                        /** @description Platform name. */
                        platform: string;
                        /** @description The platform's own id of the account. */
                        accountId: string;
                        platformPostId: string;
                        platformPostUrl: string;
                        /** @constant */
                        status: "published";
                    };
                };
            };
        };
        responses: {
            /** @description Delivered. Anything else (or no answer within 10 s) is retried; 410 stops deliveries to the URL. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    postFailedEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Event id (evt_…), the same on every delivery attempt: dedupe on it. */
                    id: string;
                    /** @constant */
                    event: "post.failed";
                    /** Format: date-time */
                    timestamp: string;
                    data: {
                        /** @description The post (post_…). */
                        postId: string;
                        /** @description Platform name. */
                        platform: string;
                        /** @description The platform's own id of the account. */
                        accountId: string;
                        /** @description Why, in words. */
                        error: string;
                        /** @description One of the post object's codes: auth_expired, content_rejected, rate_limited, … */
                        errorCode: string;
                        /** @constant */
                        status: "failed";
                    };
                };
            };
        };
        responses: {
            /** @description Delivered. Anything else (or no answer within 10 s) is retried; 410 stops deliveries to the URL. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    postCompletedEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Event id (evt_…), the same on every delivery attempt: dedupe on it. */
                    id: string;
                    /** @constant */
                    event: "post.completed";
                    /** Format: date-time */
                    timestamp: string;
                    data: {
                        /** @description The post (post_…). */
                        postId: string;
                        /**
                         * @description The final post status: published, partial or failed.
                         * @enum {string}
                         */
                        status: "draft" | "scheduled" | "publishing" | "published" | "partial" | "failed";
                        /** @description The post object's targets. */
                        platforms: {
                            /**
                             * @description Platform name.
                             * @enum {string}
                             */
                            platform: "instagram" | "facebook" | "threads" | "tiktok" | "twitter" | "linkedin" | "youtube" | "bluesky" | "pinterest" | "mastodon";
                            accountId: string;
                            /**
                             * @description unpublished: was published, then deleted from the platform by POST /v1/posts/{id}/unpublish.
                             * @enum {string}
                             */
                            status: "pending" | "publishing" | "published" | "failed" | "unpublished";
                            platformPostId?: string;
                            platformPostUrl?: string;
                            /** @description Why the target failed (or why it is waiting to retry). */
                            error?: string;
                            /** @enum {string} */
                            errorCode?: "auth_expired" | "permission_missing" | "content_rejected" | "media_rejected" | "rate_limited" | "quota_exceeded" | "platform_unavailable" | "outcome_unknown" | "account_disconnected" | "internal";
                            attempts: number;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             */
                            publishedAt?: string;
                            /**
                             * Format: date-time
                             * @description ISO 8601 UTC with milliseconds.
                             */
                            nextAttemptAt?: string;
                            customContent?: string;
                            customMedia?: components["schemas"]["MediaItem"][];
                            platformSpecificData?: {
                                [key: string]: unknown;
                            };
                            /** @description The outcome of platformSpecificData.firstComment, posted once the target is published; it never fails the target. */
                            firstComment?: {
                                /**
                                 * @description pending while it is being posted.
                                 * @enum {string}
                                 */
                                status: "pending" | "published" | "failed";
                                platformCommentId?: string;
                                error?: string;
                            };
                        }[];
                    };
                };
            };
        };
        responses: {
            /** @description Delivered. Anything else (or no answer within 10 s) is retried; 410 stops deliveries to the URL. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    postDeletedEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Event id (evt_…), the same on every delivery attempt: dedupe on it. */
                    id: string;
                    /** @constant */
                    event: "post.deleted";
                    /** Format: date-time */
                    timestamp: string;
                    data: {
                        /** @description The post (post_…). */
                        postId: string;
                    };
                };
            };
        };
        responses: {
            /** @description Delivered. Anything else (or no answer within 10 s) is retried; 410 stops deliveries to the URL. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    postEditedEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Event id (evt_…), the same on every delivery attempt: dedupe on it. */
                    id: string;
                    /** @constant */
                    event: "post.edited";
                    /** Format: date-time */
                    timestamp: string;
                    data: {
                        /** @description The post (post_…). */
                        postId: string;
                        /** @description Platform name. */
                        platform: string;
                        /** @description The platform's own id of the account. */
                        accountId: string;
                        /** @description The post after the edit (X gives every version its own id). */
                        platformPostId: string;
                        previousPlatformPostId: string;
                    };
                };
            };
        };
        responses: {
            /** @description Delivered. Anything else (or no answer within 10 s) is retried; 410 stops deliveries to the URL. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    postUpdatedEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Event id (evt_…), the same on every delivery attempt: dedupe on it. */
                    id: string;
                    /** @constant */
                    event: "post.updated";
                    /** Format: date-time */
                    timestamp: string;
                    data: {
                        /** @description The post (post_…). */
                        postId: string;
                        /** @description The post's version after the change. */
                        version: number;
                    };
                };
            };
        };
        responses: {
            /** @description Delivered. Anything else (or no answer within 10 s) is retried; 410 stops deliveries to the URL. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    accountExpiringEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Event id (evt_…), the same on every delivery attempt: dedupe on it. */
                    id: string;
                    /** @constant */
                    event: "account.expiring";
                    /** Format: date-time */
                    timestamp: string;
                    data: {
                        /** @description Platform name. */
                        platform: string;
                        /** @description The platform's own id of the account. */
                        accountId: string;
                        username: string;
                        /**
                         * Format: date-time
                         * @description ISO 8601 UTC with milliseconds.
                         */
                        expiresAt: string;
                    };
                };
            };
        };
        responses: {
            /** @description Delivered. Anything else (or no answer within 10 s) is retried; 410 stops deliveries to the URL. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    postUnpublishedEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Event id (evt_…), the same on every delivery attempt: dedupe on it. */
                    id: string;
                    /** @constant */
                    event: "post.unpublished";
                    /** Format: date-time */
                    timestamp: string;
                    data: {
                        /** @description The post (post_…). */
                        postId: string;
                        platforms: {
                            /** @description Platform name. */
                            platform: string;
                            /** @description The platform's own id of the account. */
                            accountId: string;
                            unpublished: boolean;
                            error?: string;
                            /** @description UNPUBLISH_NOT_SUPPORTED where the platform cannot delete, else the failure category. */
                            errorCode?: string;
                        }[];
                    };
                };
            };
        };
        responses: {
            /** @description Delivered. Anything else (or no answer within 10 s) is retried; 410 stops deliveries to the URL. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    accountConnectedEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Event id (evt_…), the same on every delivery attempt: dedupe on it. */
                    id: string;
                    /** @constant */
                    event: "account.connected";
                    /** Format: date-time */
                    timestamp: string;
                    data: {
                        /** @description Platform name. */
                        platform: string;
                        /** @description The platform's own id of the account. */
                        accountId: string;
                        username: string;
                    };
                };
            };
        };
        responses: {
            /** @description Delivered. Anything else (or no answer within 10 s) is retried; 410 stops deliveries to the URL. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    accountDisconnectedEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Event id (evt_…), the same on every delivery attempt: dedupe on it. */
                    id: string;
                    /** @constant */
                    event: "account.disconnected";
                    /** Format: date-time */
                    timestamp: string;
                    data: {
                        /** @description Platform name. */
                        platform: string;
                        /** @description The platform's own id of the account. */
                        accountId: string;
                        username: string;
                        /** @description `user` (DELETE /v1/accounts/…), `token_expired` or `token_revoked`. */
                        reason?: "user" | "token_revoked" | "token_expired";
                    };
                };
            };
        };
        responses: {
            /** @description Delivered. Anything else (or no answer within 10 s) is retried; 410 stops deliveries to the URL. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookTestEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Event id (evt_…), the same on every delivery attempt: dedupe on it. */
                    id: string;
                    /** @constant */
                    event: "webhook.test";
                    /** Format: date-time */
                    timestamp: string;
                    data: {
                        message: string;
                    };
                };
            };
        };
        responses: {
            /** @description Delivered. Anything else (or no answer within 10 s) is retried; 410 stops deliveries to the URL. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
