// What the YouTube emulator knows: upload sessions (bytes received, 256 KiB granularity, the one video a
// session can make), videos (uploaded → processed / failed asynchronously, publishAt), comments, and the
// ledger of what was really published, edited and deleted.
import { randomBytes } from 'node:crypto';
import type { Ledger } from '../kit/ledger.ts';

export interface Snippet {
  title: string;
  description: string;
  tags: string[];
  categoryId: string;
  defaultLanguage?: string;
  defaultAudioLanguage?: string;
}

export interface VideoStatus {
  privacyStatus: 'public' | 'unlisted' | 'private';
  selfDeclaredMadeForKids?: boolean;
  publishAt?: string;
  license: string;
  embeddable: boolean;
  publicStatsViewable: boolean;
  containsSyntheticMedia?: boolean;
}

export interface VideoRecord {
  id: string;
  channelId: string;
  snippet: Snippet;
  status: VideoStatus;
  /** The privacy asked for (an unaudited project's upload is locked private whatever was asked). */
  requestedPrivacy: string;
  publishedAt: number;
  bytes: number;
  head: Buffer;
  readyAt: number;
  deleted: boolean;
  edits: number;
  thumbnails: number;
}

export interface SessionRecord {
  id: string;
  userId: string;
  channelId: string;
  parts: string[];
  snippet: Snippet;
  status: VideoStatus;
  size: number;
  mimeType: string;
  notifySubscribers: boolean;
  received: number;
  head: Buffer;
  createdAt: number;
  videoId?: string;
}

export interface CommentRecord {
  id: string;
  videoId: string;
  channelId: string;
  authorChannelId: string;
  authorName: string;
  text: string;
  publishedAt: number;
}

const ID_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Video ids: 11 characters of base64url. */
export function videoId(): string {
  const bytes = randomBytes(11);
  let id = '';
  for (const b of bytes) id += ID_CHARS[b & 63];
  return id;
}

/** Comment (thread) ids look like Ugz…AaABAg. */
export function commentId(): string {
  return `Ugz${randomBytes(15).toString('base64url').slice(0, 19)}4AaABAg`;
}

function isVideoContainer(head: Buffer): boolean {
  const ascii = head.toString('latin1');
  if (ascii.slice(4, 8) === 'ftyp') return true;
  if (head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3) return true;
  if (ascii.startsWith('RIFF') && ascii.slice(8, 12) === 'AVI ') return true;
  if (ascii.startsWith('FLV')) return true;
  return head[0] === 0 && head[1] === 0 && head[2] === 1 && (head[3] === 0xba || head[3] === 0xb3);
}

export class YouTubeStore {
  readonly #ledger: Ledger;
  readonly #now: () => number;
  readonly #processingMs: () => number;
  sessions = new Map<string, SessionRecord>();
  videos = new Map<string, VideoRecord>();
  comments: CommentRecord[] = [];

  constructor(ledger: Ledger, now: () => number, processingMs: () => number) {
    this.#ledger = ledger;
    this.#now = now;
    this.#processingMs = processingMs;
  }

  openSession(input: Omit<SessionRecord, 'id' | 'received' | 'head' | 'createdAt'>): SessionRecord {
    const rec: SessionRecord = { ...input, id: `AEnB2U${randomBytes(24).toString('base64url')}`, received: 0, head: Buffer.alloc(0), createdAt: this.#now() };
    this.sessions.set(rec.id, rec);
    return rec;
  }

  /** Takes a chunk that starts where the session stands; keeps whole granules of it unless it is the last. */
  receive(rec: SessionRecord, chunk: Buffer, granularity: number): void {
    if (rec.head.length < 16) rec.head = Buffer.concat([rec.head, chunk.subarray(0, 16 - rec.head.length)]);
    const final = rec.received + chunk.length === rec.size;
    rec.received += final ? chunk.length : Math.floor(chunk.length / granularity) * granularity;
  }

  /** The session's bytes are all there: the video exists from now on (one per session, ever). */
  complete(rec: SessionRecord, lockPrivate: boolean): VideoRecord {
    const now = this.#now();
    const status = { ...rec.status };
    if (lockPrivate) status.privacyStatus = 'private';
    const video: VideoRecord = {
      id: videoId(),
      channelId: rec.channelId,
      snippet: rec.snippet,
      status,
      requestedPrivacy: rec.status.privacyStatus,
      publishedAt: now,
      bytes: rec.size,
      head: rec.head,
      readyAt: now + this.#processingMs(),
      deleted: false,
      edits: 0,
      thumbnails: 0,
    };
    rec.videoId = video.id;
    this.videos.set(video.id, video);
    this.#ledger.record({
      id: video.id,
      accountId: rec.channelId,
      kind: 'video',
      text: rec.snippet.description,
      media: [{ type: 'video', url: `upload:${rec.id}` }],
      createdAt: now,
      extra: {
        title: rec.snippet.title,
        tags: rec.snippet.tags,
        categoryId: rec.snippet.categoryId,
        privacyStatus: status.privacyStatus,
        requestedPrivacy: rec.status.privacyStatus,
        madeForKids: rec.status.selfDeclaredMadeForKids,
        notifySubscribers: rec.notifySubscribers,
        bytes: rec.size,
        mimeType: rec.mimeType,
        sessionId: rec.id,
      },
    });
    return video;
  }

  /** A live video (not deleted), with its processing and publishAt brought up to date. */
  video(id: string): VideoRecord | undefined {
    const v = this.videos.get(id);
    if (!v || v.deleted) return undefined;
    const now = this.#now();
    if (v.status.publishAt && v.status.privacyStatus === 'private' && Date.parse(v.status.publishAt) <= now) {
      v.status = { ...v.status, privacyStatus: 'public' };
      delete v.status.publishAt;
    }
    return v;
  }

  /** uploadStatus, failureReason and processingStatus as the owner sees them now. */
  processing(v: VideoRecord): { uploadStatus: string; failureReason?: string; processingStatus: string } {
    if (this.#now() < v.readyAt) return { uploadStatus: 'uploaded', processingStatus: 'processing' };
    if (!isVideoContainer(v.head)) return { uploadStatus: 'failed', failureReason: 'invalidFile', processingStatus: 'failed' };
    return { uploadStatus: 'processed', processingStatus: 'succeeded' };
  }

  /** Live videos of a channel, newest first. */
  uploadsOf(channelId: string): VideoRecord[] {
    return [...this.videos.values()].filter((v) => v.channelId === channelId && this.video(v.id)).sort((a, b) => b.publishedAt - a.publishedAt);
  }

  uploadsSince(channelId: string, since: number): number {
    return [...this.videos.values()].filter((v) => v.channelId === channelId && v.publishedAt >= since).length;
  }

  update(v: VideoRecord, snippet: Snippet): void {
    const previous = v.snippet;
    v.snippet = snippet;
    v.edits += 1;
    this.#ledger.record({
      id: `${v.id}:edit:${v.edits}`,
      accountId: v.channelId,
      kind: 'edit',
      text: snippet.description,
      media: [],
      createdAt: this.#now(),
      extra: { videoId: v.id, title: snippet.title, categoryId: snippet.categoryId, tags: snippet.tags, previousTitle: previous.title, previousDescription: previous.description },
    });
  }

  delete(v: VideoRecord): void {
    v.deleted = true;
    this.comments = this.comments.filter((c) => c.videoId !== v.id);
    this.#ledger.record({ id: `${v.id}:delete`, accountId: v.channelId, kind: 'delete', text: '', media: [], createdAt: this.#now(), extra: { videoId: v.id } });
  }

  setThumbnail(v: VideoRecord, bytes: number, contentType: string): void {
    v.thumbnails += 1;
    this.#ledger.record({
      id: `${v.id}:thumbnail:${v.thumbnails}`,
      accountId: v.channelId,
      kind: 'thumbnail',
      text: '',
      media: [{ type: 'image', url: `thumbnail:${v.id}` }],
      createdAt: this.#now(),
      extra: { videoId: v.id, bytes, contentType },
    });
  }

  addComment(input: Omit<CommentRecord, 'id' | 'publishedAt'>): CommentRecord {
    const c: CommentRecord = { ...input, id: commentId(), publishedAt: this.#now() };
    this.comments.push(c);
    this.#ledger.record({ id: c.id, accountId: c.authorChannelId, kind: 'comment', text: c.text, media: [], createdAt: c.publishedAt, extra: { videoId: c.videoId } });
    return c;
  }

  reset(): void {
    this.sessions.clear();
    this.videos.clear();
    this.comments = [];
  }
}
