// What the TikTok emulator knows about each publish: its upload, its processing state machine
// (PROCESSING_UPLOAD / PROCESSING_DOWNLOAD → PUBLISH_COMPLETE or FAILED) and, once live, the post in
// the ledger. State follows the injected clock; a timer settles posts nobody polls (real clock only).
import { randomBytes } from 'node:crypto';
import type { Ledger } from '../kit/ledger.ts';
import { newest } from '../kit/persistence.ts';
import type { PulledMedia, PullResult } from '../kit/pull.ts';
import type { ChunkRules } from '../../platforms/tiktok/info.ts';
import { envelope } from './envelope.ts';

export interface TikTokSandboxSettings {
  /** Upload/download processing time before the post is complete or failed. */
  processingMs: number;
  /** After PUBLISH_COMPLETE, how long moderation keeps publicaly_available_post_id empty. */
  moderationMs: number;
  /** Unaudited app: SELF_ONLY only, private accounts only, 5 posting users per 24 h. */
  unaudited: boolean;
  /** PULL_FROM_URL sources must start with one of these (TikTok's verified domains); null: the sandbox's own host. */
  verifiedUrlPrefixes: string[] | null;
  chunkRules: ChunkRules;
  /** video/init and content/init requests per minute per token. */
  initsPerMinute: number;
  /** creator_info/query requests per minute per token (TikTok: 20). */
  creatorInfoPerMinute: number;
  /** status/fetch requests per minute per token (TikTok: 30). */
  statusFetchesPerMinute: number;
  /** Direct Posts a creator may start per rolling 24 hours before spam_risk_too_many_posts. */
  dailyPostCap: number;
}

export type PublishState = 'PROCESSING_UPLOAD' | 'PROCESSING_DOWNLOAD' | 'PUBLISH_COMPLETE' | 'FAILED' | 'SEND_TO_USER_INBOX';

export interface PublishRecord {
  id: string;
  openId: string;
  kind: 'video' | 'photo';
  source: 'FILE_UPLOAD' | 'PULL_FROM_URL';
  mode: 'DIRECT_POST' | 'MEDIA_UPLOAD';
  postInfo: Record<string, unknown>;
  createdAt: number;
  videoSize?: number;
  chunkSize?: number;
  chunkCount?: number;
  uploadToken?: string;
  receivedBytes: number;
  chunksReceived: number;
  /** First bytes of the upload, to check the container. */
  head?: Buffer;
  videoUrl?: string;
  photoImages?: string[];
  /** What TikTok downloaded of each photo (null: not a URL the sandbox downloads; ok false: the download failed). */
  pulled?: (PullResult | null)[];
  /** When processing ends; null while the upload is incomplete. */
  readyAt: number | null;
  outcome?: { status: 'PUBLISH_COMPLETE' | 'FAILED' | 'SEND_TO_USER_INBOX'; failReason: string; postId?: string; idVisibleAt?: number };
}

export type NewPublish = Omit<PublishRecord, 'id' | 'createdAt' | 'receivedBytes' | 'chunksReceived' | 'readyAt' | 'uploadToken'>;

export const UPLOAD_URL_TTL_MS = 60 * 60_000;

/** A publish as saved to disk: the first bytes of an upload in base64. */
export type SavedPublish = Omit<PublishRecord, 'head'> & { head?: string };

export interface PublishesSnapshot {
  records: SavedPublish[];
  postSeq: string;
}

const DAY_MS = 24 * 60 * 60_000;

function isVideoContainer(head: Buffer | undefined): boolean {
  if (!head) return false;
  if (head.subarray(4, 8).toString('latin1') === 'ftyp') return true;
  return head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3;
}

/** Photo posts take JPEG and WebP only: a URL naming another format fails the format check. */
function isUnsupportedPhotoUrl(url: string): boolean {
  try {
    return /\.(png|gif|bmp|tiff?|heic|mp4|mov|webm)$/i.test(new URL(url).pathname);
  } catch {
    return true;
  }
}

/** A pulled video whose URL names an image file fails the format check. */
function isImageUrl(url: string | undefined): boolean {
  try {
    return /\.(jpe?g|png|gif|webp|bmp|tiff?|heic)$/i.test(new URL(url ?? '').pathname);
  } catch {
    return true;
  }
}

/** TikTok's largest video file. */
export const MAX_VIDEO_BYTES = 4 * 1024 * 1024 * 1024;

export class PublishStore {
  readonly #ledger: Ledger;
  readonly #now: () => number;
  readonly #settings: TikTokSandboxSettings;
  #records = new Map<string, PublishRecord>();
  #timers = new Set<NodeJS.Timeout>();
  #postSeq = 0n;

  constructor(ledger: Ledger, now: () => number, settings: TikTokSandboxSettings) {
    this.#ledger = ledger;
    this.#now = now;
    this.#settings = settings;
  }

  create(input: NewPublish): PublishRecord {
    const prefix = input.kind === 'photo' ? 'p_pub_url' : input.source === 'FILE_UPLOAD' ? 'v_pub_file' : 'v_pub_url';
    const id = `${prefix}~v2-1.${BigInt(`0x${randomBytes(8).toString('hex')}`).toString()}`;
    const rec: PublishRecord = { ...input, id, createdAt: this.#now(), receivedBytes: 0, chunksReceived: 0, readyAt: null };
    if (input.source === 'FILE_UPLOAD') rec.uploadToken = randomBytes(16).toString('hex');
    this.#records.set(id, rec);
    // Pulled media is "downloaded" straight away; uploads wait for their last chunk.
    if (input.source === 'PULL_FROM_URL') this.#startProcessing(rec);
    return rec;
  }

  /** Direct Posts (video or photo) a creator started since `since`. */
  directPostsSince(openId: string, since: number): number {
    let n = 0;
    for (const rec of this.#records.values()) if (rec.openId === openId && rec.mode === 'DIRECT_POST' && rec.createdAt > since) n++;
    return n;
  }

  get(id: string): PublishRecord | undefined {
    const rec = this.#records.get(id);
    if (rec) this.settle(rec);
    return rec;
  }

  /** Takes one chunk; answers 206 for intermediate chunks and 201 once the file is complete. */
  receiveChunk(rec: PublishRecord, contentRange: string | undefined, body: unknown, contentType: string): { status: 201 | 206 } | { status: number; code: string; message: string } {
    const bad = (message: string, code = 'invalid_params', status = 400) => ({ status, code, message });
    if (this.#now() - rec.createdAt > UPLOAD_URL_TTL_MS) return bad('the upload URL has expired', 'invalid_params', 403);
    if (rec.readyAt !== null) return bad('the upload is already complete');
    if (!/^video\/(mp4|quicktime|webm)$/.test(contentType)) return bad('Content-Type must be video/mp4, video/quicktime or video/webm', 'invalid_file_upload');
    if (!Buffer.isBuffer(body)) return bad('the request carries no video bytes', 'invalid_file_upload');
    const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(contentRange ?? '');
    if (!m) return bad('Content-Range must read "bytes FIRST-LAST/TOTAL"');
    const [first, last, total] = [Number(m[1]), Number(m[2]), Number(m[3])];
    const size = rec.videoSize!;
    const chunk = rec.chunkSize!;
    const count = rec.chunkCount!;
    if (total !== size) return bad(`Content-Range total ${total} differs from video_size ${size}`);
    if (first !== rec.receivedBytes) return bad(`chunks must be sent in order: expected first byte ${rec.receivedBytes}, got ${first}`);
    if (last < first || last - first + 1 !== body.length) return bad(`Content-Range covers ${last - first + 1} bytes but the body has ${body.length}`);
    const index = rec.chunksReceived;
    const expected = index === count - 1 ? size - (count - 1) * chunk : chunk;
    if (body.length !== expected) return bad(`chunk ${index + 1} of ${count} must be ${expected} bytes, got ${body.length}`);

    if (index === 0) rec.head = Buffer.from(body.subarray(0, 16));
    rec.receivedBytes += body.length;
    rec.chunksReceived += 1;
    if (rec.chunksReceived < count) return { status: 206 };
    this.#startProcessing(rec);
    return { status: 201 };
  }

  #startProcessing(rec: PublishRecord): void {
    rec.readyAt = this.#now() + this.#settings.processingMs;
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      this.settle(rec);
    }, this.#settings.processingMs + 1);
    timer.unref();
    this.#timers.add(timer);
  }

  #nextPostId(): string {
    // TikTok item ids are 19-digit int64s, far beyond 2^53: clients must not read them as numbers.
    this.#postSeq += 1n;
    return (7_300_000_000_000_000_000n + this.#postSeq * 1_000_003n + BigInt(randomBytes(2).readUInt16BE())).toString();
  }

  /** Moves a publish to its end state once processing time has passed; records a live post. */
  settle(rec: PublishRecord): void {
    const now = this.#now();
    if (rec.outcome || rec.readyAt === null || now < rec.readyAt) return;
    let failReason = '';
    if (rec.kind === 'video' && rec.source === 'FILE_UPLOAD' && !isVideoContainer(rec.head)) failReason = 'file_format_check_failed';
    const pulled = rec.pulled ?? [];
    if (rec.kind === 'video' && rec.source === 'PULL_FROM_URL' && isImageUrl(rec.videoUrl)) failReason = 'file_format_check_failed';
    if (pulled.some((p) => p && !p.ok)) failReason = 'photo_pull_failed';
    // A photo is judged by its bytes when they were downloaded, else by its URL.
    else if (rec.kind === 'photo' && rec.photoImages?.some((u, i) => (pulled[i]?.ok ? !/^image\/(jpeg|webp)$/.test((pulled[i] as { media: PulledMedia }).media.contentType) : isUnsupportedPhotoUrl(u)))) failReason = 'file_format_check_failed';
    if (failReason) {
      rec.outcome = { status: 'FAILED', failReason };
      return;
    }
    if (rec.mode === 'MEDIA_UPLOAD') {
      rec.outcome = { status: 'SEND_TO_USER_INBOX', failReason: '' };
      return;
    }
    const postId = this.#nextPostId();
    rec.outcome = { status: 'PUBLISH_COMPLETE', failReason: '', postId, idVisibleAt: now + this.#settings.moderationMs };
    const info = rec.postInfo;
    this.#ledger.record({
      id: postId,
      accountId: rec.openId,
      kind: rec.kind,
      text: String((rec.kind === 'video' ? info.title : info.description) ?? ''),
      media:
        rec.kind === 'video'
          ? [{ type: 'video', url: rec.videoUrl ?? `file_upload:${rec.id}` }]
          : (rec.photoImages ?? []).map((url, i) => {
              const p = pulled[i];
              return { type: 'image', url, ...(p?.ok ? p.media : {}) };
            }),
      createdAt: now,
      extra: { ...info, privacyLevel: info.privacy_level, publishId: rec.id, ...(rec.videoSize ? { videoSize: rec.videoSize } : {}) },
    });
  }

  state(rec: PublishRecord): PublishState {
    if (rec.outcome) return rec.outcome.status;
    return rec.source === 'FILE_UPLOAD' ? 'PROCESSING_UPLOAD' : 'PROCESSING_DOWNLOAD';
  }

  /** The status/fetch answer as raw JSON: the post id is written as an int64 literal, as TikTok does. */
  statusJson(rec: PublishRecord): string {
    this.settle(rec);
    const visible = rec.outcome?.postId && rec.outcome.idVisibleAt !== undefined && this.#now() >= rec.outcome.idVisibleAt;
    const data = {
      status: this.state(rec),
      fail_reason: rec.outcome?.failReason ?? '',
      publicaly_available_post_id: [] as number[],
      uploaded_bytes: rec.receivedBytes,
      downloaded_bytes: rec.source === 'PULL_FROM_URL' && rec.outcome ? 1 : 0,
    };
    const text = JSON.stringify(envelope(data));
    return visible ? text.replace('"publicaly_available_post_id":[]', `"publicaly_available_post_id":[${rec.outcome!.postId}]`) : text;
  }

  /** Every publish of the last 24 hours (the daily cap counts them), and the newest `max` of the older ones. */
  snapshot(max: number): PublishesSnapshot {
    const now = this.#now();
    for (const rec of this.#records.values()) this.settle(rec);
    const all = [...this.#records.values()];
    const recent = all.filter((r) => r.createdAt > now - DAY_MS);
    const older = newest(all.filter((r) => r.createdAt <= now - DAY_MS), Math.max(0, max - recent.length), (r) => r.createdAt);
    const keep = new Set([...recent, ...older]);
    return {
      records: all.filter((r) => keep.has(r)).map(({ head, ...r }) => (head ? { ...r, head: head.toString('base64') } : r)),
      postSeq: String(this.#postSeq),
    };
  }

  /** Takes saved publishes back; those still processing settle when next read. */
  restore(snap: PublishesSnapshot): void {
    this.reset();
    for (const { head, ...r } of snap.records) this.#records.set(r.id, head ? { ...r, head: Buffer.from(head, 'base64') } : r);
    this.#postSeq = BigInt(snap.postSeq);
  }

  reset(): void {
    for (const t of this.#timers) clearTimeout(t);
    this.#timers.clear();
    this.#records.clear();
  }
}

/** TikTok's chunk arithmetic (media transfer guide), checked on video/init. */
export function chunkPlanError(size: unknown, chunk: unknown, count: unknown, rules: ChunkRules): string | null {
  if (![size, chunk, count].every((v) => typeof v === 'number' && Number.isInteger(v) && v > 0)) {
    return 'video_size, chunk_size and total_chunk_count must be positive integers';
  }
  const [s, c, n] = [size as number, chunk as number, count as number];
  if (s > MAX_VIDEO_BYTES) return `video_size may be at most ${MAX_VIDEO_BYTES} bytes (4 GB)`;
  if (s < rules.minChunkBytes && c !== s) return `a video under ${rules.minChunkBytes} bytes must be sent whole (chunk_size = video_size)`;
  if (s >= rules.minChunkBytes && c < rules.minChunkBytes) return `chunk_size must be at least ${rules.minChunkBytes} bytes`;
  if (c > rules.maxChunkBytes) return `chunk_size must be at most ${rules.maxChunkBytes} bytes`;
  if (c > s) return 'chunk_size cannot exceed video_size';
  if (n !== Math.floor(s / c)) return `total_chunk_count must be floor(video_size / chunk_size) = ${Math.floor(s / c)}`;
  if (n > rules.maxChunks) return `at most ${rules.maxChunks} chunks`;
  if (s - (n - 1) * c > rules.maxFinalChunkBytes) return `the final chunk would exceed ${rules.maxFinalChunkBytes} bytes`;
  return null;
}
