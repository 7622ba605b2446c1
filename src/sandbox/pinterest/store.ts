// What the Pinterest emulator knows: Pins (each also in the ledger, with its media sizes and alt text;
// deletes are recorded too), video uploads with their state machine (registered → processing →
// succeeded | failed, following the injected clock), and bookmarks for paging.
import { randomBytes } from 'node:crypto';
import type { Ledger, LedgerEntry } from '../kit/ledger.ts';
import { sniffMediaType } from '../media.ts';
import { isoSeconds, type SandboxUser } from './users.ts';

export type PinMediaType = 'image' | 'multiple_images' | 'video';

export interface PinMedia {
  type: 'image' | 'video';
  /** The URL Pinterest downloaded, or base64:<type> for inline bytes, or video:<media id>. */
  source: string;
  bytes: number;
}

export interface PinRecord {
  id: string;
  ownerId: string;
  boardId: string;
  title: string | null;
  description: string | null;
  link: string | null;
  altText: string | null;
  mediaType: PinMediaType;
  sourceType: string;
  media: PinMedia[];
  mediaId?: string;
  createdAt: number;
  ledger: LedgerEntry;
}

export type UploadStatus = 'registered' | 'processing' | 'succeeded' | 'failed';

export interface UploadRecord {
  id: string;
  ownerId: string;
  key: string;
  policy: string;
  signature: string;
  expiresAt: number;
  createdAt: number;
  received?: { bytes: number; head: Buffer; at: number };
  outcome?: 'succeeded' | 'failed';
  usedByPin?: string;
}

export class PinterestStore {
  readonly users = new Map<string, SandboxUser>();
  readonly pins = new Map<string, PinRecord>();
  readonly uploads = new Map<string, UploadRecord>();
  /** Timestamps of org_write calls per user, for the per-minute limit. */
  readonly writes = new Map<string, number[]>();
  #seq = 0n;
  readonly #ledger: Ledger;
  readonly #now: () => number;
  readonly #processingMs: () => number;

  constructor(ledger: Ledger, now: () => number, processingMs: () => number) {
    this.#ledger = ledger;
    this.#now = now;
    this.#processingMs = processingMs;
  }

  /** Pin and media ids are 18–19 digit strings, beyond 2^53: clients must not read them as numbers. */
  nextId(): string {
    this.#seq += 1n;
    return (1_040_000_000_000_000_000n + this.#seq * 1_000_003n + BigInt(randomBytes(2).readUInt16BE())).toString();
  }

  boardOf(boardId: string) {
    for (const user of this.users.values()) {
      const board = user.boards.find((b) => b.id === boardId);
      if (board) return { board, owner: user };
    }
    return undefined;
  }

  addPin(input: Omit<PinRecord, 'id' | 'createdAt' | 'ledger'>): PinRecord {
    const id = this.nextId();
    const createdAt = this.#now();
    const ledger = this.#ledger.record({
      id,
      accountId: input.ownerId,
      kind: input.mediaType === 'multiple_images' ? 'carousel' : input.mediaType,
      text: input.description ?? '',
      media: input.media.map((m) => ({ type: m.type, url: m.source })),
      createdAt,
      extra: {
        boardId: input.boardId,
        title: input.title,
        link: input.link,
        altText: input.altText,
        sourceType: input.sourceType,
        mediaBytes: input.media.map((m) => m.bytes),
        ...(input.mediaId ? { mediaId: input.mediaId } : {}),
      },
    });
    const pin: PinRecord = { ...input, id, createdAt, ledger };
    this.pins.set(id, pin);
    return pin;
  }

  deletePin(pin: PinRecord): void {
    this.pins.delete(pin.id);
    const at = this.#now();
    pin.ledger.extra = { ...pin.ledger.extra, deletedAt: at };
    this.#ledger.record({ id: pin.id, accountId: pin.ownerId, kind: 'delete', text: '', media: [], createdAt: at, extra: { deleted: pin.id } });
  }

  /** Newest first (a board's default order). */
  pinsWhere(pred: (p: PinRecord) => boolean): PinRecord[] {
    return [...this.pins.values()].filter(pred).sort((a, b) => b.createdAt - a.createdAt || (BigInt(b.id) > BigInt(a.id) ? 1 : -1));
  }

  addUpload(input: Omit<UploadRecord, 'createdAt'>): UploadRecord {
    const rec: UploadRecord = { ...input, createdAt: this.#now() };
    this.uploads.set(rec.id, rec);
    return rec;
  }

  receiveUpload(rec: UploadRecord, bytes: Buffer): void {
    rec.received = { bytes: bytes.length, head: Buffer.from(bytes.subarray(0, 16)), at: this.#now() };
  }

  uploadStatus(rec: UploadRecord): UploadStatus {
    if (rec.outcome) return rec.outcome;
    if (!rec.received) return 'registered';
    if (this.#now() < rec.received.at + this.#processingMs()) return 'processing';
    // Pinterest's processing fails when the bytes are not a video.
    rec.outcome = sniffMediaType(rec.received.head) === 'video/mp4' ? 'succeeded' : 'failed';
    return rec.outcome;
  }

  reset(): void {
    this.users.clear();
    this.pins.clear();
    this.uploads.clear();
    this.writes.clear();
  }
}

/** Bookmarks are opaque to clients; here, the offset and what was listed, so one cannot be replayed elsewhere. */
export function encodeBookmark(list: string, offset: number): string {
  return Buffer.from(JSON.stringify({ l: list, o: offset })).toString('base64url');
}

export function decodeBookmark(list: string, bookmark: string | undefined): number | null {
  if (bookmark === undefined || bookmark === '') return 0;
  try {
    const v = JSON.parse(Buffer.from(bookmark, 'base64url').toString('utf8')) as { l?: unknown; o?: unknown };
    return v.l === list && typeof v.o === 'number' && Number.isInteger(v.o) && v.o >= 0 ? v.o : null;
  } catch {
    return null;
  }
}

export { isoSeconds };
