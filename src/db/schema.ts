// Table types for Kysely. Times are epoch milliseconds (bigint), JSON is stored as text, booleans as
// 0/1 integers: one representation that SQLite and PostgreSQL share, so queries need no dialect branches.
import type { Generated, Insertable, Kysely, Selectable, Updateable } from 'kysely';

export interface ApiKeysTable {
  id: string;
  name: string;
  prefix: string;
  key_hash: string;
  default_redirect_url: string | null;
  created_at: number;
  revoked_at: number | null;
}

export interface AccountsTable {
  id: string;
  api_key_id: string;
  platform: string;
  account_id: string;
  username: string;
  display_name: string | null;
  avatar_url: string | null;
  status: 'active' | 'needs_reconnect';
  access_token: string; // sealed
  refresh_token: string | null; // sealed
  token_expires_at: number | null;
  refresh_expires_at: number | null;
  scopes: string; // JSON string[]
  meta: string; // JSON object
  connected_at: number;
  updated_at: number;
  /** Held by the one process refreshing this account's tokens (see accounts/credentials.ts). */
  refresh_lease_id: Generated<string | null>;
  refresh_lease_until: Generated<number | null>;
  /** The token expiry an account.expiring has announced (once per expiry). */
  expiry_announced_for: Generated<number | null>;
}

export interface OAuthStatesTable {
  state_hash: string;
  api_key_id: string;
  platform: string;
  redirect_url: string;
  code_verifier: string | null; // sealed
  /** Herald's app on the server the authorization runs on (platforms with user-named servers), else null. */
  server_app_id: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** A key's weekly queue: the time zone and the slots (JSON [{day, time}]). */
export interface QueuesTable {
  api_key_id: string;
  timezone: string;
  slots: string;
  updated_at: number;
}

/** An app of Herald's registered on a server the user named (one per platform, server and redirect URL). */
export interface PlatformAppsTable {
  id: string;
  platform: string;
  server_url: string;
  redirect_url: string;
  client_id: string;
  client_secret: string; // sealed
  created_at: number;
}

export type PostStatus = 'draft' | 'scheduled' | 'publishing' | 'published' | 'partial' | 'failed';
export type TargetStatus = 'pending' | 'publishing' | 'published' | 'failed' | 'unpublished';
export type CommentStatus = 'pending' | 'publishing' | 'published' | 'failed';

export interface PostsTable {
  id: string;
  api_key_id: string;
  content: string | null;
  media_items: string; // JSON MediaItem[]
  status: PostStatus;
  scheduled_for: number | null;
  timezone: string;
  is_draft: number;
  tags: string; // JSON string[]
  /** JSON object of post-level platform settings by create-body field; null when there are none. */
  post_settings: string | null;
  created_at: number;
  updated_at: number;
  published_at: number | null;
  /** Raised by every change (PATCH with If-Match). */
  version: Generated<number>;
  /** The queue slot a queued post holds (epoch ms); unique per key. */
  queued_slot: number | null;
}

export interface PostTargetsTable {
  id: string;
  post_id: string;
  api_key_id: string;
  position: number;
  platform: string;
  account_id: string;
  custom_content: string | null;
  custom_media: string | null; // JSON
  platform_specific_data: string | null; // JSON
  status: TargetStatus;
  platform_post_id: string | null;
  platform_post_url: string | null;
  error: string | null;
  error_code: string | null;
  attempts: Generated<number>;
  /** The attempt that owns the target while it is publishing; write-backs are fenced on it. */
  attempt_id: string | null;
  attempt_started_at: number | null;
  /** When the owning attempt is presumed dead and its outcome must be reconciled. */
  lease_expires_at: number | null;
  /** When a pending target should be attempted (schedule, back-off, rate-limit reset). */
  next_attempt_at: number | null;
  checkpoint: string | null; // JSON
  /**
   * 0: nothing to reconcile. n > 0: an earlier attempt's outcome is unknown, so the next attempt asks the
   * platform before anything is sent; n - 1 earlier askings could not tell.
   */
  needs_reconcile: Generated<number>;
  /** 1 while the owning attempt holds one of its account's publishing-limit slots (publishing/limits.ts). */
  holds_limit_slot: Generated<number>;
  published_at: number | null;
  edit_count: Generated<number>;
  edit_pending: string | null;
  original_platform_post_id: string | null;
  /** The first comment (platformSpecificData.firstComment): null when there is none to post. */
  comment_status: CommentStatus | null;
  comment_id: string | null;
  comment_error: string | null;
  comment_error_code: string | null;
  comment_checkpoint: string | null; // JSON
  comment_attempt_id: string | null;
  comment_lease_expires_at: number | null;
  comment_next_attempt_at: number | null;
  comment_started_at: number | null;
  comment_attempts: Generated<number>;
  comment_needs_reconcile: Generated<number>;
  updated_at: number;
}

export interface IdempotencyKeysTable {
  api_key_id: string;
  key: string;
  request_hash: string;
  state: 'in_flight' | 'done';
  response_status: number | null;
  response_body: string | null;
  /** The post the first request created, so a crash after the insert replays instead of re-creating. */
  resource_id: string | null;
  /** The request that holds the key now; every later write is fenced on it. */
  claim_id: string;
  locked_until: number;
  created_at: number;
  expires_at: number;
}

export interface JobsTable {
  id: string;
  queue: string;
  payload: string; // JSON
  run_at: number;
  state: 'queued' | 'active';
  locked_until: number | null;
  attempts: Generated<number>;
  created_at: number;
}

export interface WebhookSettingsTable {
  api_key_id: string;
  url: string;
  events: string; // JSON string[]
  secret: string; // sealed
  disabled_at: number | null;
  disabled_reason: string | null;
  created_at: number;
  updated_at: number;
}

export interface WebhookEventsTable {
  id: string;
  api_key_id: string;
  event: string;
  /** The exact bytes sent (serialised once, signed as is). */
  body: string;
  created_at: number;
}

export interface WebhookDeliveriesTable {
  id: string;
  event_id: string;
  api_key_id: string;
  event: string;
  url: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: Generated<number>;
  next_attempt_at: number | null;
  last_status_code: number | null;
  last_error: string | null;
  last_duration_ms: number | null;
  created_at: number;
  updated_at: number;
  delivered_at: number | null;
  /** The attempt that holds the delivery while it is being sent; the result is written fenced on it. */
  attempt_id: Generated<string | null>;
  lease_expires_at: Generated<number | null>;
}

export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  attempt: number;
  /** 1 when asked for by POST /v1/webhooks/deliveries/{id}/redeliver. */
  redelivery: number;
  url: string;
  started_at: number;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

/** A file of the media library (API.md section 10). */
export interface MediaTable {
  id: string;
  api_key_id: string;
  type: 'image' | 'video' | 'document';
  content_type: string;
  bytes: number;
  sha256: string;
  width: number | null;
  height: number | null;
  duration_ms: number | null;
  frame_rate: number | null;
  video_codec: string | null;
  audio_codec: string | null;
  pages: number | null;
  /** JSON MediaFacts: everything the probe found, for the platforms' rules. */
  facts: string;
  alt_text: string | null;
  filename: string;
  /** The unguessable part of the public URL. */
  token: string;
  store_key: string;
  /** The original and its renditions: what counts against the key's quota. */
  stored_bytes: number;
  created_at: number;
  last_used_at: number;
}

/** A version of a library image made to fit one platform's rules (made once, reused by every post). */
export interface MediaRenditionsTable {
  media_id: string;
  rule_key: string;
  store_key: string;
  content_type: string;
  bytes: number;
  width: number;
  height: number;
  sha256: string;
  created_at: number;
}

/** Which posts name which library media (kept by create, PATCH and delete). */
export interface MediaUsesTable {
  media_id: string;
  post_id: string;
}

/** A dashboard session: the SHA-256 hash of its id, the key it stands for, when it was last used. */
export interface DashboardSessionsTable {
  id_hash: string;
  api_key_id: string;
  created_at: number;
  last_seen_at: number;
}

export interface Database {
  media: MediaTable;
  media_renditions: MediaRenditionsTable;
  media_uses: MediaUsesTable;
  api_keys: ApiKeysTable;
  accounts: AccountsTable;
  oauth_states: OAuthStatesTable;
  platform_apps: PlatformAppsTable;
  queues: QueuesTable;
  posts: PostsTable;
  post_targets: PostTargetsTable;
  idempotency_keys: IdempotencyKeysTable;
  jobs: JobsTable;
  webhook_settings: WebhookSettingsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  dashboard_sessions: DashboardSessionsTable;
}

export type ApiKeyRow = Selectable<ApiKeysTable>;
export type AccountRow = Selectable<AccountsTable>;
export type PlatformAppRow = Selectable<PlatformAppsTable>;
export type PostRow = Selectable<PostsTable>;
export type NewPost = Insertable<PostsTable>;
export type TargetRow = Selectable<PostTargetsTable>;
export type NewTarget = Insertable<PostTargetsTable>;
export type TargetUpdate = Updateable<PostTargetsTable>;
export type MediaRow = Selectable<MediaTable>;
export type MediaRenditionRow = Selectable<MediaRenditionsTable>;

/**
 * What a write function receives: its transaction, without the doors out of it. It cannot open another
 * transaction or take a connection of its own; code that only reads accepts a DbTx too, so a data-access
 * function typed with it runs inside a write or on the read instance alike.
 */
export type DbTx = Omit<Kysely<Database>, 'transaction' | 'connection' | 'startTransaction' | 'destroy'>;

