// Where media bytes live: one interface, two stores (disk-store.ts, s3-store.ts). A put streams: the
// SHA-256 and the byte count are computed as the bytes pass, the size limit is enforced mid-stream, and the
// object becomes visible only once complete, so a failed, aborted or oversized upload leaves nothing behind.
//
// Failures that are the input's or the storage's are data (the route turns them into 413, 503 with
// Retry-After, 404, 416); a misconfiguration or a bug (permissions, bad credentials, a malformed key)
// throws, so it is logged as the 500 it is.
import type { Readable } from 'node:stream';

export type StoreFailure =
  /** The body went past maxBytes; nothing was kept (→ 413 PAYLOAD_TOO_LARGE). */
  | { ok: false; reason: 'too_large'; message: string; limit: number }
  /** The body stream failed or was aborted (the client went away); nothing was kept. */
  | { ok: false; reason: 'aborted'; message: string }
  /** The storage is failing for now: disk full, I/O error, S3 5xx or time-out (→ 503 STORAGE_UNAVAILABLE). */
  | { ok: false; reason: 'unavailable'; message: string }
  | { ok: false; reason: 'not_found'; message: string }
  /** The range starts past the end (→ 416 with `Content-Range: bytes *\/size`). */
  | { ok: false; reason: 'range_not_satisfiable'; message: string; size: number };

type Failure<R extends StoreFailure['reason']> = Extract<StoreFailure, { reason: R }>;

export interface PutOptions {
  contentType: string;
  maxBytes: number;
  signal?: AbortSignal;
}

export type PutResult = { ok: true; bytes: number; sha256: string } | Failure<'too_large' | 'aborted' | 'unavailable'>;

/** Inclusive byte positions, as in an HTTP Range header; `end` past the last byte is cut to it. */
export interface ByteRange {
  start: number;
  end?: number;
}

export interface StoredObject {
  /** The whole object's size. */
  size: number;
  contentType: string;
}

export type GetResult =
  | ({ ok: true; body: Readable; range: { start: number; end: number } | null } & StoredObject)
  | Failure<'not_found' | 'range_not_satisfiable' | 'unavailable'>;

export type HeadResult = ({ ok: true } & StoredObject) | Failure<'not_found' | 'unavailable'>;

export type DeleteResult = { ok: true } | Failure<'unavailable'>;

/** A file on this machine holding the object's bytes, for sharp and ffprobe; release() when done. */
export type LocalPathResult = { ok: true; path: string; release(): Promise<void> } | Failure<'not_found' | 'unavailable'>;

export interface MediaStore {
  readonly kind: 'disk' | 's3';
  put(key: string, body: Readable, options: PutOptions): Promise<PutResult>;
  get(key: string, options?: { range?: ByteRange }): Promise<GetResult>;
  head(key: string): Promise<HeadResult>;
  /** Deleting a missing key succeeds: a retried delete is not an error. */
  delete(key: string): Promise<DeleteResult>;
  localPath(key: string): Promise<LocalPathResult>;
  /** A URL anyone holding it can GET for ttlSeconds (S3 only; the disk store is served by Herald itself). */
  presignGet?(key: string, ttlSeconds: number): Promise<string>;
}

/**
 * Keys are Herald's own (`med_…/original`, `med_…/instagram.jpg`): segments of letters, digits, '.', '_'
 * and '-', each starting with a letter or digit (so never '.' or '..'), joined by '/'. A key outside that is
 * a bug in the caller, so it throws rather than returning a failure.
 */
const KEY = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}(\/[A-Za-z0-9][A-Za-z0-9._-]{0,127}){0,7}$/;

export function assertValidKey(key: string): void {
  if (typeof key !== 'string' || !KEY.test(key)) throw new TypeError(`invalid media store key: ${JSON.stringify(String(key).slice(0, 80))}`);
}

export function resolveRange(range: ByteRange | undefined, size: number): { start: number; end: number } | null | Failure<'range_not_satisfiable'> {
  if (!range) return null;
  if (!Number.isSafeInteger(range.start) || range.start < 0 || (range.end !== undefined && (!Number.isSafeInteger(range.end) || range.end < range.start))) {
    throw new TypeError(`invalid byte range ${JSON.stringify(range)}`);
  }
  if (range.start >= size) return { ok: false, reason: 'range_not_satisfiable', message: `the range starts at byte ${range.start}; the object has ${size} bytes`, size };
  return { start: range.start, end: Math.min(range.end ?? size - 1, size - 1) };
}

/**
 * An HTTP Range header (RFC 9110 section 14.1.2) against an object of `size` bytes: one range
 * (`bytes=0-99`, `bytes=100-`, `bytes=-500`), 'unsatisfiable', or null for no header, several ranges or a
 * malformed one (which a server may ignore, answering 200 with the whole object).
 */
export function parseRangeHeader(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? '');
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? undefined : Number(m[2]);
  if (end !== undefined && end < start) return null;
  if (start >= size) return 'unsatisfiable';
  // A last byte at or past the end (even past any safe integer) means the end of the object.
  return end === undefined ? { start } : { start, end: Math.min(end, size - 1) };
}
