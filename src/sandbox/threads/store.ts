// What the Threads emulator remembers: sandbox users, containers (with their processing states),
// published posts and when each token was issued.
import { createHash } from 'node:crypto';
import type { PersistLimits } from '../kit/emulator.ts';
import { newest } from '../kit/persistence.ts';

const HOUR_MS = 60 * 60_000;
export const DAY_MS = 24 * HOUR_MS;
/** Unpublished containers expire after 24 hours. */
export const CONTAINER_TTL_MS = DAY_MS;

export type ContainerType = 'TEXT' | 'IMAGE' | 'VIDEO' | 'CAROUSEL';
export type ContainerStatus = 'IN_PROGRESS' | 'FINISHED' | 'PUBLISHED' | 'ERROR' | 'EXPIRED';

export interface SandboxUser {
  id: string;
  username: string;
  name: string;
}

export interface Container {
  id: string;
  userId: string;
  type: ContainerType;
  text?: string;
  mediaUrl?: string;
  /** alt_text of an image or video container. */
  altText?: string;
  isCarouselItem: boolean;
  children: string[];
  replyToId?: string;
  replyControl?: string;
  topicTag?: string;
  createdAt: number;
  /** error_message the container will show once processed (sandbox_error on the media URL). */
  failWith?: string;
  publishedId?: string;
}

export interface Post {
  id: string;
  userId: string;
  containerId: string;
  mediaType: 'TEXT_POST' | 'IMAGE' | 'VIDEO' | 'CAROUSEL_ALBUM';
  text: string;
  media: { type: string; url: string }[];
  replyToId?: string;
  rootId: string;
  replyControl: string;
  topicTag?: string;
  createdAt: number;
  shortcode: string;
}

export interface TokenInfo {
  issuedAt: number;
  longLived: boolean;
}

/** What is saved of the Threads emulator's own state (kit/persistence.ts). */
export interface ThreadsSnapshot {
  users: SandboxUser[];
  containers: Container[];
  posts: Post[];
  tokens: [string, TokenInfo][];
  /** When each user deleted posts, for the daily delete limit (absent in state saved before deletes). */
  deletes?: [string, number[]][];
  next: string;
}

// Ids above 2^53, like Meta's, so that anything parsing them as numbers breaks in tests.
const ID_BASE = 17_841_000_000_000_000n;

export class ThreadsStore {
  users = new Map<string, SandboxUser>();
  containers = new Map<string, Container>();
  posts = new Map<string, Post>();
  tokens = new Map<string, TokenInfo>();
  /** When each user deleted a post (the last 24 hours matter). */
  deletes = new Map<string, number[]>();
  #next = 0n;

  nextId(): string {
    this.#next += 1n;
    return (ID_BASE + this.#next * 7n).toString();
  }

  /** A stable identity for a sandbox user name. */
  userFor(name: string): SandboxUser {
    const digest = createHash('sha256').update(`threads:${name}`).digest();
    const id = (25_000_000_000_000_000n + (digest.readBigUInt64BE(0) % 1_000_000_000_000_000n)).toString();
    const existing = this.users.get(id);
    if (existing) return existing;
    const user = { id, username: name, name: name.charAt(0).toUpperCase() + name.slice(1) };
    this.users.set(id, user);
    return user;
  }

  status(c: Container, now: number, processingMs: number): { status: ContainerStatus; errorMessage?: string } {
    if (c.publishedId) return { status: 'PUBLISHED' };
    if (now - c.createdAt >= CONTAINER_TTL_MS) return { status: 'EXPIRED' };
    if (c.type === 'CAROUSEL') {
      let inProgress = false;
      for (const childId of c.children) {
        const child = this.containers.get(childId);
        if (!child) return { status: 'ERROR', errorMessage: 'UNKNOWN' };
        const s = this.status(child, now, processingMs);
        if (s.status === 'ERROR' || s.status === 'EXPIRED') return { status: 'ERROR', errorMessage: s.errorMessage ?? 'UNKNOWN' };
        if (s.status === 'IN_PROGRESS') inProgress = true;
      }
      return { status: inProgress ? 'IN_PROGRESS' : 'FINISHED' };
    }
    if (c.type === 'TEXT') return { status: 'FINISHED' };
    if (now - c.createdAt < processingMs) return { status: 'IN_PROGRESS' };
    if (c.failWith) return { status: 'ERROR', errorMessage: c.failWith };
    return { status: 'FINISHED' };
  }

  /** Posts (or replies) this user published in the rolling 24 hours before now. */
  publishedInWindow(userId: string, now: number, replies: boolean): number {
    let n = 0;
    for (const p of this.posts.values()) {
      if (p.userId === userId && (p.replyToId !== undefined) === replies && p.createdAt > now - DAY_MS) n++;
    }
    return n;
  }

  /** Posts this user deleted in the rolling 24 hours before now. */
  deletedInWindow(userId: string, now: number): number {
    return (this.deletes.get(userId) ?? []).filter((at) => at > now - DAY_MS).length;
  }

  /** Removes a post; its container stays PUBLISHED, as on Threads. */
  deletePost(post: Post, now: number): void {
    this.posts.delete(post.id);
    this.deletes.set(post.userId, [...(this.deletes.get(post.userId) ?? []).filter((at) => at > now - DAY_MS), now]);
  }

  permalink(post: Post): string {
    const user = this.users.get(post.userId);
    return `https://www.threads.com/@${user?.username ?? 'unknown'}/post/${post.shortcode}`;
  }

  /** `liveTokens`: the tokens the OAuth server still keeps; what it dropped needs no issue time. */
  snapshot(now: number, limits: PersistLimits, liveTokens: (token: string) => boolean): ThreadsSnapshot {
    const posts = newest(this.posts.values(), limits.items, (p) => p.createdAt);
    // Unpublished containers expire after 24 hours; published ones (and their carousel items) stay with
    // their post, since reconciling reads a container's status.
    const needed = new Set<string>();
    for (const p of posts) {
      needed.add(p.containerId);
      for (const child of this.containers.get(p.containerId)?.children ?? []) needed.add(child);
    }
    const containers = newest(
      [...this.containers.values()].filter((c) => now - c.createdAt < CONTAINER_TTL_MS || needed.has(c.id)),
      limits.items * 2,
      (c) => c.createdAt,
    );
    return {
      users: [...this.users.values()],
      containers,
      posts,
      tokens: [...this.tokens].filter(([token]) => liveTokens(token)),
      deletes: [...this.deletes].map(([user, times]) => [user, times.filter((at) => at > now - DAY_MS)] as [string, number[]]).filter(([, times]) => times.length > 0),
      next: String(this.#next),
    };
  }

  restore(snap: ThreadsSnapshot): void {
    this.reset();
    for (const u of snap.users) this.users.set(u.id, u);
    for (const c of snap.containers) this.containers.set(c.id, c);
    for (const p of snap.posts) this.posts.set(p.id, p);
    this.tokens = new Map(snap.tokens);
    this.deletes = new Map(snap.deletes ?? []);
    this.#next = BigInt(snap.next);
  }

  reset(): void {
    this.users.clear();
    this.containers.clear();
    this.posts.clear();
    this.tokens.clear();
    this.deletes.clear();
  }
}

export function shortcodeFor(id: string): string {
  return createHash('sha1').update(id).digest('base64url').slice(0, 11);
}
