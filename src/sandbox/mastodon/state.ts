// What the Mastodon emulator (one instance) knows: registered apps, users, media attachments, statuses
// with their edit history, scheduled statuses and Idempotency-Keys. Ids are snowflakes like the real
// server's (milliseconds << 16 | sequence), strings in every answer.
import { createHash, randomBytes } from 'node:crypto';
import { DEFAULT_MEDIA_LIMITS, DEFAULT_STATUS_LIMITS } from '../../platforms/mastodon/info.ts';

export interface Window {
  limit: number;
  /** Seconds; windows are fixed and aligned to the epoch, as rack-attack's are. */
  periodS: number;
}

/** config/initializers/rack_attack.rb and app/lib/rate_limiter.rb (platforms.md §11.9). */
export interface RateLimits {
  perToken: Window;
  perUser: Window;
  unauthenticated: Window;
  media: Window;
  deletes: Window;
  paging: Window;
  /** The `statuses` family: statuses created per account. */
  statuses: Window;
}

export const DEFAULT_RATE_LIMITS: RateLimits = {
  perToken: { limit: 300, periodS: 300 },
  perUser: { limit: 1500, periodS: 300 },
  unauthenticated: { limit: 300, periodS: 300 },
  media: { limit: 30, periodS: 1800 },
  deletes: { limit: 30, periodS: 1800 },
  paging: { limit: 300, periodS: 900 },
  statuses: { limit: 300, periodS: 3 * 3600 },
};

export interface MastodonSandboxSettings {
  /** The instance's domain (handles, URLs, accountIds); null: the host it is addressed by. */
  domain: string | null;
  version: string;
  maxCharacters: number;
  maxMediaAttachments: number;
  charactersReservedPerUrl: number;
  imageSizeLimit: number;
  videoSizeLimit: number;
  descriptionLimit: number;
  /** How long video and GIF processing takes. */
  processingMs: number;
  /** Media processing ends in failure (the thumbnail error). */
  failProcessing: boolean;
  /** How long a create holds its Idempotency-Key lock (a concurrent duplicate then gets 503). */
  createDelayMs: number;
  rateLimits: RateLimits;
}

export function defaultSettings(): MastodonSandboxSettings {
  return {
    domain: null,
    version: '4.3.0',
    maxCharacters: DEFAULT_STATUS_LIMITS.maxCharacters,
    maxMediaAttachments: DEFAULT_STATUS_LIMITS.maxMediaAttachments,
    charactersReservedPerUrl: DEFAULT_STATUS_LIMITS.charactersReservedPerUrl,
    imageSizeLimit: DEFAULT_MEDIA_LIMITS.imageSizeLimit,
    videoSizeLimit: DEFAULT_MEDIA_LIMITS.videoSizeLimit,
    descriptionLimit: DEFAULT_MEDIA_LIMITS.descriptionLimit,
    processingMs: 50,
    failProcessing: false,
    createDelayMs: 0,
    rateLimits: structuredClone(DEFAULT_RATE_LIMITS),
  };
}

export interface App {
  id: string;
  name: string;
  website: string | null;
  scopes: string[];
  redirectUris: string[];
  clientId: string;
  clientSecret: string;
}

export interface User {
  id: string;
  username: string;
  displayName: string;
  createdAt: number;
}

export type MediaKind = 'image' | 'gifv' | 'video';

export interface Media {
  id: string;
  accountId: string;
  kind: MediaKind;
  mime: string;
  bytes: number;
  description: string | null;
  focus: string | null;
  createdAt: number;
  readyAt: number;
  failed: boolean;
  statusId: string | null;
  scheduledId: string | null;
  deleted: boolean;
}

export interface Snapshot {
  at: number;
  text: string;
  spoilerText: string;
  sensitive: boolean;
  mediaIds: string[];
}

export interface Status {
  id: string;
  accountId: string;
  text: string;
  spoilerText: string;
  sensitive: boolean;
  visibility: string;
  language: string | null;
  inReplyToId: string | null;
  inReplyToAccountId: string | null;
  mediaIds: string[];
  createdAt: number;
  editedAt: number | null;
  edits: Snapshot[];
  deleted: boolean;
  appClientId: string | null;
}

export interface Scheduled {
  id: string;
  accountId: string;
  scheduledAt: number;
  params: Record<string, unknown>;
  mediaIds: string[];
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export class MastodonState {
  readonly now: () => number;
  apps = new Map<string, App>();
  appsByClientId = new Map<string, App>();
  users = new Map<string, User>();
  media = new Map<string, Media>();
  statuses = new Map<string, Status>();
  scheduled = new Map<string, Scheduled>();
  /** `accountId:key` → the status a create with that key made, until expiry. */
  idempotency = new Map<string, { statusId: string; expiresAt: number }>();
  /** Keys whose create is running right now. */
  locks = new Set<string>();
  /** user|client|scopes → the token a new consent reuses (Doorkeeper's reuse_access_token). */
  reusableTokens = new Map<string, string>();
  /** Codes issued with a PKCE challenge. */
  codesWithChallenge = new Set<string>();
  #lastId = 0n;

  constructor(now: () => number) {
    this.now = now;
  }

  /** A snowflake id: creation time in ms, shifted, plus a sequence; always increasing. */
  nextId(at = this.now()): string {
    let id = (BigInt(Math.max(0, Math.floor(at))) << 16n) | BigInt(randomBytes(1)[0]!);
    if (id <= this.#lastId) id = this.#lastId + 1n;
    this.#lastId = id;
    return id.toString();
  }

  /** A stable user per sandbox name: the same name gives the same id and username. */
  userFor(name: string): User {
    const h = digest(`mastodon:${name}`);
    const id = (100_000_000_000_000_000n + (BigInt(`0x${h.slice(0, 15)}`) % 900_000_000_000_000_000n)).toString();
    const existing = this.users.get(id);
    if (existing) return existing;
    const username = name.toLowerCase().replace(/[^a-z0-9_]/g, '_').slice(0, 30) || 'sandbox';
    const user: User = { id, username, displayName: name, createdAt: this.now() };
    this.users.set(id, user);
    return user;
  }

  registerApp(input: Omit<App, 'id' | 'clientId' | 'clientSecret'>): App {
    const app: App = { ...input, id: String(this.apps.size + 1), clientId: randomBytes(32).toString('base64url').slice(0, 43), clientSecret: randomBytes(32).toString('base64url').slice(0, 43) };
    this.apps.set(app.id, app);
    this.appsByClientId.set(app.clientId, app);
    return app;
  }

  /** Statuses of an account as `viewer` may see them, newest first. */
  statusesOf(accountId: string, viewer: string | null): Status[] {
    return [...this.statuses.values()]
      .filter((s) => s.accountId === accountId && !s.deleted && this.visibleTo(s, viewer))
      .sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1));
  }

  visibleTo(s: Status, viewer: string | null): boolean {
    if (s.deleted) return false;
    if (s.visibility === 'public' || s.visibility === 'unlisted') return true;
    return viewer === s.accountId;
  }

  reset(): void {
    this.apps.clear();
    this.appsByClientId.clear();
    this.users.clear();
    this.media.clear();
    this.statuses.clear();
    this.scheduled.clear();
    this.idempotency.clear();
    this.locks.clear();
    this.reusableTokens.clear();
    this.codesWithChallenge.clear();
  }
}
