// Everything the Meta emulator remembers: sandbox users with their Pages and linked Instagram accounts,
// and the objects Graph would hold (posts, photos, videos, stories, IG containers, IG media, comments on
// both). Deleted objects are simply gone, as Graph shows them.
import { createHash } from 'node:crypto';
import type { PersistLimits } from '../kit/emulator.ts';
import { newest } from '../kit/persistence.ts';
import type { PulledMedia } from '../kit/pull.ts';

export interface IgAccount {
  id: string;
  username: string;
  name: string;
  pageId: string;
  userId: string;
}

export interface Page {
  id: string;
  name: string;
  /** Real Pages often have no username; every second sandbox Page goes without one. */
  username?: string;
  userId: string;
  ig: IgAccount;
}

export interface SandboxUser {
  id: string;
  name: string;
  pages: Page[];
  /** How many of the Pages the latest consent granted. */
  granted: number;
}

export interface FbPost {
  id: string;
  pageId: string;
  message: string;
  link?: string;
  createdAt: number;
  kind: 'post' | 'photo' | 'video';
  photoIds: string[];
  videoId?: string;
}

export interface FbPhoto {
  id: string;
  pageId: string;
  url: string;
  published: boolean;
  /** An unpublished photo can be attached to one post or story. */
  used: boolean;
  postId?: string;
  /** alt_text_custom, when the upload gave one. */
  altText?: string;
  createdAt: number;
}

export interface FbVideo {
  id: string;
  pageId: string;
  kind: 'video' | 'reel' | 'story';
  description?: string;
  fileUrl?: string;
  uploaded: boolean;
  /** Processing ends at this time (set once the bytes are there). */
  readyAt?: number;
  /** The file is not a video (or could not be fetched): processing ends in an error. */
  broken: boolean;
  /** Why processing fails, when it does for another reason than the file not being a video. */
  failure?: string;
  /** Bytes received through rupload so far, and the size the upload announced (file_size). */
  receivedBytes?: number;
  fileSize?: number;
  published: boolean;
  /** When a reel or story was made public (the Reels cap counts these). */
  publishedAt?: number;
  createdAt: number;
}

export interface FbStory {
  postId: string;
  pageId: string;
  mediaId: string;
  mediaType: 'photo' | 'video';
  createdAt: number;
}

export type IgMediaType = 'IMAGE' | 'VIDEO' | 'REELS' | 'STORIES' | 'CAROUSEL';

export interface IgContainer {
  id: string;
  igId: string;
  mediaType: IgMediaType;
  imageUrl?: string;
  videoUrl?: string;
  caption: string;
  children: string[];
  isCarouselItem: boolean;
  collaborators: string[];
  shareToFeed?: boolean;
  createdAt: number;
  readyAt: number;
  /** Why processing fails (the `status` text of an ERROR container). */
  error?: string;
  mediaId?: string;
  altText?: string;
  /** What Meta downloaded from the URL (only URLs of the sandbox's media origins are downloaded). */
  pulled?: PulledMedia;
}

export interface IgMedia {
  id: string;
  igId: string;
  containerId: string;
  caption: string;
  mediaType: 'IMAGE' | 'VIDEO' | 'CAROUSEL_ALBUM';
  productType: 'FEED' | 'REELS' | 'STORY';
  shortcode: string;
  createdAt: number;
  /** Set false by POST /{ig-media-id} comment_enabled=false: the media takes no comments. */
  commentEnabled?: boolean;
}

/** A comment on a Page's post, photo or video, made as the Page. */
export interface FbComment {
  id: string;
  /** The commented object: a Page Post id, a photo id or a video id. */
  objectId: string;
  pageId: string;
  message: string;
  createdAt: number;
}

export interface IgComment {
  id: string;
  mediaId: string;
  text: string;
  createdAt: number;
}

function digits(seed: string, length: number): string {
  const n = BigInt(`0x${createHash('sha256').update(seed).digest('hex')}`);
  return (n % 10n ** BigInt(length)).toString().padStart(length, '0');
}

function handle(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9_.]+/g, '_').slice(0, 20) || 'sandbox';
}

/** What is saved of the Meta emulator's own state (kit/persistence.ts). Pages and IG accounts ride with their user. */
export interface MetaSnapshot {
  users: SandboxUser[];
  posts: FbPost[];
  photos: FbPhoto[];
  videos: FbVideo[];
  stories: FbStory[];
  containers: IgContainer[];
  media: IgMedia[];
  comments: IgComment[];
  /** Absent in state saved before Facebook comments existed. */
  fbComments?: FbComment[];
  lastStatus: [string, number][];
  counter: string;
}

const DAY_MS = 24 * 60 * 60_000;

const SHORTCODE_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';

export class MetaState {
  users = new Map<string, SandboxUser>();
  pages = new Map<string, Page>();
  igAccounts = new Map<string, IgAccount>();
  posts = new Map<string, FbPost>();
  photos = new Map<string, FbPhoto>();
  videos = new Map<string, FbVideo>();
  stories = new Map<string, FbStory>();
  containers = new Map<string, IgContainer>();
  media = new Map<string, IgMedia>();
  comments = new Map<string, IgComment>();
  fbComments = new Map<string, FbComment>();
  /** When each Page last posted each text ("pageId\ntext"), for Graph's duplicate-status rule. */
  lastStatus = new Map<string, number>();
  #counter = 0n;

  /** A fresh Graph-looking numeric id (object ids are unique across kinds, as on Graph). */
  nextId(prefix = '1'): string {
    this.#counter += 1n;
    return `${prefix}${(10n ** 14n + this.#counter).toString()}`;
  }

  shortcode(): string {
    let s = '';
    const n = this.#counter + 1n;
    for (let i = 0; i < 11; i++) s += SHORTCODE_CHARS[Number((n * 7919n + BigInt(i) * 104729n) % 64n)];
    return s;
  }

  /** The sandbox user behind a consent, with `pageCount` Pages each linked to an Instagram account. */
  ensureUser(name: string, pageCount: number): SandboxUser {
    const id = `10${digits(`user:${name}`, 13)}`;
    let user = this.users.get(id);
    if (!user) {
      user = { id, name, pages: [], granted: 0 };
      this.users.set(id, user);
    }
    for (let i = user.pages.length; i < pageCount; i++) {
      const pageId = `11${digits(`page:${name}:${i}`, 13)}`;
      const title = `${name.charAt(0).toUpperCase()}${name.slice(1)} Page ${i + 1}`;
      const ig: IgAccount = {
        id: `17841${digits(`ig:${name}:${i}`, 12)}`,
        username: `${handle(name)}_ig${i + 1}`,
        name: `${title} on Instagram`,
        pageId,
        userId: id,
      };
      const page: Page = { id: pageId, name: title, userId: id, ig, ...(i % 2 === 0 ? { username: `${handle(name)}.page${i + 1}` } : {}) };
      user.pages.push(page);
      this.pages.set(pageId, page);
      this.igAccounts.set(ig.id, ig);
    }
    user.granted = pageCount;
    return user;
  }

  /** Pages granted by the user's latest consent (a later consent may grant fewer). */
  grantedPages(userId: string): Page[] {
    const user = this.users.get(userId);
    return user ? user.pages.slice(0, user.granted) : [];
  }

  snapshot(now: number, limits: PersistLimits): MetaSnapshot {
    const n = limits.items;
    return {
      users: [...this.users.values()],
      posts: newest(this.posts.values(), n, (p) => p.createdAt),
      photos: newest(this.photos.values(), n, (p) => p.createdAt),
      videos: newest(this.videos.values(), n, (v) => v.createdAt),
      stories: newest(this.stories.values(), n, (st) => st.createdAt),
      // Containers not published within 24 hours have expired; published ones are read back for reconciling.
      containers: newest([...this.containers.values()].filter((c) => c.mediaId || c.createdAt > now - DAY_MS), n, (c) => c.createdAt),
      media: newest(this.media.values(), n, (m) => m.createdAt),
      comments: newest(this.comments.values(), n, (c) => c.createdAt),
      fbComments: newest(this.fbComments.values(), n, (c) => c.createdAt),
      // The duplicate-status rule looks back 10 minutes.
      lastStatus: [...this.lastStatus].filter(([, at]) => at > now - 10 * 60_000),
      counter: String(this.#counter),
    };
  }

  restore(snap: MetaSnapshot): void {
    this.clear();
    for (const user of snap.users) {
      this.users.set(user.id, user);
      for (const page of user.pages) {
        this.pages.set(page.id, page);
        this.igAccounts.set(page.ig.id, page.ig);
      }
    }
    const fill = <T>(map: Map<string, T>, items: T[], key: (t: T) => string) => {
      for (const item of items) map.set(key(item), item);
    };
    fill(this.posts, snap.posts, (p) => p.id);
    fill(this.photos, snap.photos, (p) => p.id);
    fill(this.videos, snap.videos, (v) => v.id);
    fill(this.stories, snap.stories, (st) => st.postId);
    fill(this.containers, snap.containers, (c) => c.id);
    fill(this.media, snap.media, (m) => m.id);
    fill(this.comments, snap.comments, (c) => c.id);
    fill(this.fbComments, snap.fbComments ?? [], (c) => c.id);
    this.lastStatus = new Map(snap.lastStatus);
    this.#counter = BigInt(snap.counter);
  }

  clear(): void {
    for (const m of [this.users, this.pages, this.igAccounts, this.posts, this.photos, this.videos, this.stories, this.containers, this.media, this.comments, this.fbComments, this.lastStatus]) {
      m.clear();
    }
    this.#counter = 0n;
  }
}

/** Graph's time format: 2026-11-22T10:00:00+0000. */
export function graphTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+0000');
}
