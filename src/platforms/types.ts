// The one contract between Herald's engine and the platforms. Adapters speak each platform's real HTTP
// protocol; everything the engine needs to know comes back as data (outcomes), never as thrown errors.
// Only bugs throw — and StaleAttemptError, raised by saveCheckpoint when another attempt has taken over.
// Platform names and descriptors live in registry.ts, which imports this file (never the other way).

/** Why a platform call failed, in the engine's terms. */
export type FailureCategory =
  | 'auth_expired' // token invalid or expired: refresh once, then the account needs reconnecting
  | 'permission_missing' // a scope or role is missing: reconnect with the permission
  | 'content_rejected' // the platform refused the text or options (duplicate, too long, policy)
  | 'media_rejected' // the platform refused a media file (format, size, could not fetch)
  | 'rate_limited' // throttled; retryAt says when the platform allows the next call
  | 'quota_exceeded' // a daily or plan quota is used up; retryAt when known
  | 'platform_unavailable' // 5xx, connection refused, outage: retry later
  | 'outcome_unknown'; // the request may or may not have taken effect: reconcile before any re-send

export const FAILURE_CATEGORIES: readonly FailureCategory[] = [
  'auth_expired',
  'permission_missing',
  'content_rejected',
  'media_rejected',
  'rate_limited',
  'quota_exceeded',
  'platform_unavailable',
  'outcome_unknown',
];

export interface PlatformFailure {
  ok: false;
  category: FailureCategory;
  /** Short human text built from the platform's own error (never contains a token). */
  message: string;
  /** Epoch ms at which the platform allows another attempt (rate_limited, quota_exceeded). */
  retryAt?: number;
  /** The platform's own code, for logs and metrics, e.g. "190/463" or "access_token_invalid". */
  platformCode?: string;
  /** HTTP status the platform answered with, when it answered. */
  httpStatus?: number;
}

export type Outcome<T extends object> = ({ ok: true } & T) | PlatformFailure;

/**
 * A 404 names a route or resource the host does not have: a wrong API URL setting (or, with split roles,
 * a worker calling a sandbox that is not there), a deleted post. Whatever its body says, it is never an
 * expired token: that would mark the account for reconnecting when nothing is wrong with it. Every
 * adapter's error mapping passes its category through this.
 */
export function notAuthOn404(status: number, category: FailureCategory): FailureCategory {
  return status === 404 && category === 'auth_expired' ? 'platform_unavailable' : category;
}

export function failure(
  category: FailureCategory,
  message: string,
  extra: Omit<PlatformFailure, 'ok' | 'category' | 'message'> = {},
): PlatformFailure {
  return { ok: false, category, message, ...extra };
}

// ---------------------------------------------------------------------------------------------
// Accounts and tokens

/** Tokens as the platform granted them. Times are epoch ms; null means "does not expire". */
export interface TokenGrant {
  accessToken: string;
  /** Absent when the platform gave none; the engine then keeps a refresh token it already has. */
  refreshToken?: string;
  expiresAt: number | null;
  refreshExpiresAt?: number | null;
  /** Granted scopes/permissions as the platform reports them. */
  scopes: string[];
}

/** Platform-specific, JSON-serialisable facts about an account (subscription, page ids, creator options). */
export type AccountMeta = Record<string, unknown>;

/** One account connected by an OAuth grant. A Facebook grant yields one per Page. */
export interface ConnectedAccount {
  accountId: string; // the platform's own id, always a string
  username: string;
  displayName?: string;
  avatarUrl?: string;
  grant: TokenGrant;
  meta: AccountMeta;
}

/**
 * Herald's app on a server the user named (a Mastodon instance): registered there once per server and
 * redirect URL, then used for that server's authorizations, tokens and revokes.
 */
export interface ServerApp {
  /** The server's base URL, e.g. https://mastodon.social. */
  url: string;
  clientId: string;
  clientSecret: string;
}

/** What the engine hands back to an adapter to act as an account (tokens already decrypted). */
export interface AccountCredentials {
  accountId: string;
  username: string;
  accessToken: string;
  refreshToken: string | null;
  expiresAt: number | null;
  scopes: string[];
  meta: AccountMeta;
  /** For accounts on user-named servers: Herald's app there (its meta names it as `serverAppId`). */
  server?: ServerApp;
}

// ---------------------------------------------------------------------------------------------
// Publishing

/** `document` (a PDF) comes only from the media library, for platforms that publish documents. */
export type MediaType = 'image' | 'video' | 'document';
export interface MediaItem {
  type: MediaType;
  /** Where the bytes are: the caller's URL, or for library media Herald's own public (or presigned) URL. */
  url: string;
  /** Sent to every platform that takes alt text. */
  altText?: string;
  /** Library media (med_…): probed at upload, so its facts are known; the bytes are at `url`. */
  mediaId?: string;
  /**
   * Library media at publish time: where Herald's media store keeps the bytes that `url` serves. Adapters
   * that upload bytes pass the whole item to `deps.media.fetch`, which reads them from the store instead of
   * downloading Herald's own URL. Set by the publish path only; never part of the API.
   */
  stored?: StoredMedia;
}

export interface StoredMedia {
  key: string;
  contentType: string;
}

/**
 * State an adapter saves before an irreversible step (container id, publish id, ids of thread items
 * already posted), so that a later attempt can resume or reconcile instead of posting again.
 */
export type Checkpoint = Record<string, unknown>;

export class StaleAttemptError extends Error {
  constructor() {
    super('this publish attempt was superseded by a newer one');
    this.name = 'StaleAttemptError';
  }
}

export interface PublishRequest {
  account: AccountCredentials;
  /** The text this target publishes (customContent over content); '' when there is none. */
  content: string;
  /** The media this target publishes (customMedia over mediaItems), in order. */
  media: MediaItem[];
  /**
   * Platform options, already merged: post-level tiktokSettings/facebookSettings overridden by the
   * target's platformSpecificData. Validated at create time by the schemas in <platform>/settings.ts.
   */
  settings: Record<string, unknown>;
  /** What an earlier attempt of this target saved, or null on a first attempt. */
  checkpoint: Checkpoint | null;
  /**
   * Persists state before an irreversible step. Rejects with StaleAttemptError when this attempt no
   * longer owns the target; let that propagate.
   */
  saveCheckpoint(checkpoint: Checkpoint): Promise<void>;
  /** When the current attempt began (epoch ms); reconcile uses it to bound its search. */
  attemptStartedAt: number;
  signal?: AbortSignal;
}

export type PublishOutcome = Outcome<{ platformPostId: string; platformPostUrl: string }>;

/**
 * The answer to "did the earlier attempt publish?". `found: false` means the platform shows no post
 * from that attempt, so publishing again is safe; 'unknown' means it cannot be told.
 */
export type ReconcileOutcome =
  | { ok: true; found: true; platformPostId: string; platformPostUrl: string }
  | { ok: true; found: false }
  | { ok: true; found: 'unknown'; message: string }
  | PlatformFailure;

export interface EditRequest {
  account: AccountCredentials;
  platformPostId: string;
  content: string;
}

/** Limits a platform puts on editing, as data (X: paid subscription, 1 hour, 5 edits). */
export interface EditLimits {
  /** How long after publishing a post may be edited; null when the platform sets no window. */
  windowMs: number | null;
  /** How many times a post may be edited; null when unlimited. */
  maxEdits: number | null;
  /** An account condition the platform requires, as the 422 code and message when it does not hold. */
  accountRule?(meta: AccountMeta): { code: string; message: string } | null;
}

/**
 * Optional capability: changing the text of a published post. An edit is a platform write like a
 * publish: `find` answers whether an edit whose answer was lost was made, before anything is re-sent.
 */
export interface EditCapability {
  limits: EditLimits;
  /** Rules the new text must meet (checked before the platform is asked). */
  validate(content: string, account: { meta: AccountMeta }): RuleViolation[];
  /** Sends the edit; the answer carries the post's id after the edit (X gives every version a new one). */
  send(request: EditRequest): Promise<PublishOutcome>;
  find(request: EditRequest): Promise<ReconcileOutcome>;
}

/** Deleting a published post from the platform. */
export interface UnpublishRequest {
  account: AccountCredentials;
  platformPostId: string;
  /** What publishing saved (ids of thread items, media), for platforms that delete those too. */
  checkpoint: Checkpoint | null;
  /**
   * The first comment Herald posted under the post, or null. Where a reply is a post of its own that
   * outlives its parent (X, Threads, Mastodon, Bluesky) the adapter deletes it too, before the post; where
   * comments go with the post (Facebook, LinkedIn, YouTube) it is ignored.
   */
  platformCommentId?: string | null;
}

/** A reply or comment posted under a published post by the same account (the first comment). */
export interface CommentRequest {
  account: AccountCredentials;
  platformPostId: string;
  content: string;
  /** The target's merged platform settings (visibility and the like). */
  settings: Record<string, unknown>;
  /** What an earlier attempt of this comment saved, or null; save before the irreversible call. */
  checkpoint: Checkpoint | null;
  saveCheckpoint(checkpoint: Checkpoint): Promise<void>;
  attemptStartedAt: number;
  signal?: AbortSignal;
}

export type CommentOutcome = Outcome<{ platformCommentId: string }>;

/** Whether a comment whose answer was lost was posted; like ReconcileOutcome. */
export type FindCommentOutcome =
  | { ok: true; found: true; platformCommentId: string }
  | { ok: true; found: false }
  | { ok: true; found: 'unknown'; message: string }
  | PlatformFailure;

/**
 * Optional capability: the first comment. Posted once the target is published; never fails or re-posts
 * the target. Like a publish it is checkpointed and reconciled, never sent twice blindly.
 */
export interface CommentCapability {
  send(request: CommentRequest): Promise<CommentOutcome>;
  find(request: CommentRequest): Promise<FindCommentOutcome>;
}

// ---------------------------------------------------------------------------------------------
// Create-time validation

export interface TargetContent {
  content: string;
  media: MediaItem[];
  settings: Record<string, unknown>;
}

/**
 * A rule a target breaks. `field` is relative to the target: 'content', 'media', 'media[2]',
 * 'media[2].type', or 'settings.<name>'. The posts service turns it into the API's param path.
 */
export interface RuleViolation {
  field: string;
  message: string;
}

// ---------------------------------------------------------------------------------------------
// Static facts, kept as data beside each adapter

export interface RateWindow {
  max: number;
  windowMs: number;
}

/**
 * How accounts connect: `oauth` (the browser flow with Herald's app), `server_oauth` (the same on a server
 * the user names, where Herald registers an app first: GET /v1/connect/{platform}?instance=…), or
 * `password` (an app password sent to POST /v1/connect/{platform}, no browser step).
 */
export type ConnectKind = 'oauth' | 'server_oauth' | 'password';

export interface PlatformInfo {
  /** The platform's name (the registry's key). */
  platform: string;
  displayName: string;
  /** Default `oauth`. */
  connect?: ConnectKind;
  usesPkce: boolean;
  /** Scopes requested on authorize. */
  scopes: string[];
  /** Scopes publishing needs; health reports those not granted. */
  requiredScopes: string[];
  /** Refresh this long before the access token expires; null when tokens are not refreshed ahead. */
  refreshAheadMs: number | null;
  /**
   * How an expiring access token is renewed without the user: with the refresh token (default), by
   * exchanging the access token itself while it is valid (Threads), or not at all (a Facebook user
   * token: the user must connect again). What cannot be renewed is announced by account.expiring.
   */
  renewal?: 'refresh_token' | 'access_token' | 'none';
  /** Per-account publishing limits the engine respects by waiting, not failing. */
  publishLimits: RateWindow[];
  supportsRevoke: boolean;
  /**
   * Accounts whose meta gives the same key share one platform grant (a Facebook user's Pages and
   * Instagram accounts): revoking it cuts off all of them, so it is revoked only with the last one.
   */
  grantKey?(meta: AccountMeta): string | undefined;
}

export interface HealthReport {
  permissions: string[];
  expiresAt?: number | null;
  /** Facts learned while checking (e.g. X subscription type) to store on the account. */
  meta?: AccountMeta;
  /** Publishing quota when the platform reports one. */
  quota?: { used: number; total: number };
}

// ---------------------------------------------------------------------------------------------
// The adapter

export interface PlatformAdapter {
  readonly info: PlatformInfo;

  /**
   * The consent URL the user is sent to. codeChallenge is an S256 challenge when info.usesPkce; `server`
   * is Herald's app on the user's server (server_oauth).
   */
  authorizeUrl(input: { state: string; redirectUri: string; codeChallenge?: string; server?: ServerApp }): string;

  /** Code → tokens → identity (long-lived exchange included). Returns every account the grant connects. */
  connect(input: { code: string; redirectUri: string; codeVerifier?: string; server?: ServerApp }): Promise<
    Outcome<{ accounts: ConnectedAccount[] }>
  >;

  /** server_oauth: registers Herald as an app on the server (once per server and redirect URL). */
  registerApp?(input: { serverUrl: string; redirectUri: string }): Promise<Outcome<{ clientId: string; clientSecret: string }>>;

  /**
   * password: connects with an identifier and an app password on a server (no browser step). A wrong
   * identifier or password is a failure with category auth_expired.
   */
  connectWithPassword?(input: { identifier: string; password: string; serverUrl: string }): Promise<Outcome<{ accounts: ConnectedAccount[] }>>;

  /** New tokens for an account. A failure with auth_expired means the account must reconnect. */
  refresh(account: AccountCredentials): Promise<Outcome<{ grant: TokenGrant }>>;

  /** Revokes the grant at the platform where the platform has a revoke call. */
  revoke(account: AccountCredentials): Promise<Outcome<{ revoked: boolean }>>;

  /** Live check of the token: granted permissions and expiry. */
  health(account: AccountCredentials): Promise<Outcome<HealthReport>>;

  publish(request: PublishRequest): Promise<PublishOutcome>;

  /** Called when an earlier attempt's outcome is unknown, before anything is re-sent. */
  reconcile(request: PublishRequest): Promise<ReconcileOutcome>;

  /** Optional capability: editing a published post. */
  edit?: EditCapability;

  /**
   * Optional capability: deleting a published post from the platform. A post the platform no longer has
   * counts as deleted (ok). Platforms whose API cannot delete leave it out (UNPUBLISH_NOT_SUPPORTED).
   */
  unpublish?(request: UnpublishRequest): Promise<Outcome<{ deleted: true }>>;

  /** Optional capability: the first comment (platformSpecificData.firstComment). */
  comment?: CommentCapability;
}
