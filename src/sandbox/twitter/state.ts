// What the X emulator remembers: sandbox users, posts with their edit chains, uploaded media, and
// per-user rate-limit windows. Ids are numeric strings shaped like X's snowflakes (> 2^53).
import { createHash } from 'node:crypto';
import type { PersistLimits } from '../kit/emulator.ts';
import { newest } from '../kit/persistence.ts';

export const SUBSCRIPTIONS = ['None', 'Basic', 'Premium', 'PremiumPlus'] as const;
export type Subscription = (typeof SUBSCRIPTIONS)[number];

export interface SandboxUser {
  id: string;
  username: string;
  name: string;
  subscriptionType: Subscription;
  createdAt: number;
}

export interface StoredPost {
  id: string;
  authorId: string;
  text: string;
  mediaIds: string[];
  createdAt: number;
  inReplyTo?: string;
  inReplyToUserId?: string;
  conversationId: string;
  replySettings?: string;
  /** Id of the first version; edits share it. */
  originalId: string;
  /** Set on a version once it has been edited. */
  supersededBy?: string;
  deleted: boolean;
}

export type MediaKind = 'image' | 'gif' | 'video';

export interface StoredMedia {
  id: string;
  key: string;
  ownerId: string;
  mediaType: string;
  category: string;
  kind: MediaKind;
  totalBytes: number;
  chunks: Map<number, Uint8Array>;
  size?: number;
  finalizedAt?: number;
  /** Set when the bytes do not hold what media_type declared: processing ends in failure. */
  invalidReason?: string;
  /** SHA-256 of the finished upload, and its alt text (POST /2/media/metadata): the ledger shows both. */
  sha256?: string;
  altText?: string;
  expiresAt: number;
}

/** What is saved of the X emulator's own state (kit/persistence.ts). */
export interface TwitterSnapshot {
  users: SandboxUser[];
  posts: StoredPost[];
  /** Finalized, unexpired media; uploads in progress (their bytes) are not kept. */
  media: Omit<StoredMedia, 'chunks'>[];
  rate: [string, { start: number; count: number }][];
  lastMs: string;
  seq: string;
}

const TWITTER_EPOCH = 1288834974657n;
const DAY_MS = 24 * 60 * 60_000;
export const MEDIA_TTL_MS = 24 * 60 * 60_000;

export function isPaid(user: SandboxUser): boolean {
  return user.subscriptionType !== 'None';
}

export function userIdFor(name: string): string {
  const n = createHash('sha256').update(`x-sandbox-user:${name}`).digest().readBigUInt64BE(0);
  return String(1_000_000_000_000_000n + (n % 8_000_000_000_000_000_000n));
}

export function usernameFor(name: string): string {
  const clean = name.replace(/[^A-Za-z0-9_]/g, '_').slice(0, 15);
  return clean.length > 0 ? clean : 'sandbox';
}

export class TwitterState {
  users = new Map<string, SandboxUser>();
  posts = new Map<string, StoredPost>();
  media = new Map<string, StoredMedia>();
  // Indexes, so a long-running sandbox answers in constant time per post.
  #byAuthor = new Map<string, StoredPost[]>();
  #chains = new Map<string, StoredPost[]>();
  #rate = new Map<string, { start: number; count: number }>();
  #lastMs = 0n;
  #seq = 0n;

  /** A new snowflake-like id: milliseconds since X's epoch, then a sequence. */
  nextId(now: number): string {
    const ms = BigInt(now) - TWITTER_EPOCH;
    if (ms > this.#lastMs) {
      this.#lastMs = ms;
      this.#seq = 0n;
    } else if (++this.#seq >= 4096n) {
      // Same millisecond (or a clock set back): borrow the next one so ids stay unique and ordered.
      this.#lastMs += 1n;
      this.#seq = 0n;
    }
    return String((this.#lastMs << 22n) | this.#seq);
  }

  upsertUser(name: string, subscriptionType: Subscription, now: number): SandboxUser {
    const id = userIdFor(name);
    const existing = this.users.get(id);
    const user: SandboxUser = existing
      ? { ...existing, subscriptionType }
      : { id, username: usernameFor(name), name: name.charAt(0).toUpperCase() + name.slice(1), subscriptionType, createdAt: now };
    this.users.set(id, user);
    return user;
  }

  addPost(post: StoredPost): void {
    this.posts.set(post.id, post);
    const authored = this.#byAuthor.get(post.authorId) ?? [];
    authored.push(post);
    this.#byAuthor.set(post.authorId, authored);
    const chain = this.#chains.get(post.originalId) ?? [];
    chain.push(post);
    this.#chains.set(post.originalId, chain);
  }

  /** Visible posts of a user: latest versions only, deleted ones gone; newest first. */
  timeline(userId: string): StoredPost[] {
    return (this.#byAuthor.get(userId) ?? [])
      .filter((p) => !p.deleted && !p.supersededBy)
      .sort((a, b) => compareIds(b.id, a.id));
  }

  /** Every version of a post, oldest first. */
  versions(post: StoredPost): StoredPost[] {
    return [...(this.#chains.get(post.originalId) ?? [post])].sort((a, b) => compareIds(a.id, b.id));
  }

  /** Ids of every version of a post, oldest first. */
  editChain(post: StoredPost): string[] {
    return this.versions(post).map((p) => p.id);
  }

  /** Counts one call in a fixed window; reports the window as x-rate-limit-* would. */
  hit(key: string, limit: number, windowMs: number, now: number): { limit: number; remaining: number; resetSecs: number; exceeded: boolean } {
    let w = this.#rate.get(key);
    if (!w || now >= w.start + windowMs) {
      w = { start: now, count: 0 };
      this.#rate.set(key, w);
    }
    w.count += 1;
    return {
      limit,
      remaining: Math.max(0, limit - w.count),
      resetSecs: Math.ceil((w.start + windowMs) / 1000),
      exceeded: w.count > limit,
    };
  }

  snapshot(now: number, limits: PersistLimits): TwitterSnapshot {
    return {
      users: [...this.users.values()],
      posts: newest(this.posts.values(), limits.items, (p) => p.createdAt),
      media: newest(
        [...this.media.values()].filter((m) => m.finalizedAt !== undefined && m.expiresAt > now),
        limits.items,
        (m) => m.finalizedAt!,
      ).map(({ chunks: _chunks, ...m }) => m),
      // Every window is 15 minutes or 24 hours long: older ones have ended.
      rate: [...this.#rate].filter(([, w]) => w.start > now - DAY_MS),
      lastMs: String(this.#lastMs),
      seq: String(this.#seq),
    };
  }

  restore(snap: TwitterSnapshot): void {
    this.reset();
    for (const u of snap.users) this.users.set(u.id, u);
    for (const p of [...snap.posts].sort((a, b) => compareIds(a.id, b.id))) this.addPost(p);
    for (const m of snap.media) this.media.set(m.id, { ...m, chunks: new Map() });
    this.#rate = new Map(snap.rate);
    this.#lastMs = BigInt(snap.lastMs);
    this.#seq = BigInt(snap.seq);
  }

  reset(): void {
    this.users.clear();
    this.posts.clear();
    this.#byAuthor.clear();
    this.#chains.clear();
    this.media.clear();
    this.#rate.clear();
  }
}

export function compareIds(a: string, b: string): number {
  return a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0;
}
