// Media on the local disk, under one root folder (HERALD_DATA_DIR/media by default). Files are 0600 and
// folders 0700: they are the users' uploads, for Herald's eyes only (the public URL serves them).
//
// A put writes to a temporary name beside the final one (`<key>~tmp-<random>`, never a valid key), syncs
// it, and renames it into place: the rename is the commit, so a reader sees the whole file or no file, and
// a failed put removes its temporary file. A crash mid-put can leave one behind; removeStaleTemporaries
// sweeps them at start-up.
//
// No sidecar holds the content type: get and head recognise it from the file's first bytes, as the upload
// did (every stored file is a recognised format), so one rename commits a put.
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdir, open, readdir, rename, rmdir, stat, unlink, type FileHandle } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileSink } from './file-sink.ts';
import { sniff, SNIFF_BYTES } from './sniff.ts';
import { assertValidKey, resolveRange, type MediaStore, type StoreFailure } from './store.ts';
import { Meter, TooLargeError } from './stream-meter.ts';

export interface DiskStoreOptions {
  root: string;
  /**
   * fsync each file before the rename that commits it (default true): after a power cut the database may
   * point at a committed upload, and its bytes must be there.
   */
  fsync?: boolean;
}

export interface DiskStore extends MediaStore {
  readonly kind: 'disk';
  /** Deletes temporary files of puts a crash interrupted, older than `olderThanMs`; returns how many. */
  removeStaleTemporaries(olderThanMs: number, now?: number): Promise<number>;
}

const TMP_MARK = '~tmp-';

// Conditions of the storage, not of Herald's code: the disk is full, failing, read-only, or the process
// is out of descriptors for now.
const UNAVAILABLE_CODES = new Set(['ENOSPC', 'EDQUOT', 'EIO', 'EROFS', 'EMFILE', 'ENFILE', 'EAGAIN', 'EBUSY', 'ETIMEDOUT', 'ESTALE']);

function code(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}

function unavailable(err: unknown): StoreFailure & { reason: 'unavailable' } {
  return { ok: false, reason: 'unavailable', message: `the media disk failed (${code(err)})` };
}

function notFound(key: string): StoreFailure & { reason: 'not_found' } {
  return { ok: false, reason: 'not_found', message: `no media stored at ${key}` };
}

/** Runs a disk operation; storage conditions become 'unavailable', anything else propagates. */
async function onDisk<T>(operation: () => Promise<T>): Promise<T | (StoreFailure & { reason: 'unavailable' })> {
  try {
    return await operation();
  } catch (err) {
    if (UNAVAILABLE_CODES.has(code(err) ?? '')) return unavailable(err);
    throw err;
  }
}

async function contentTypeOf(file: FileHandle): Promise<string> {
  const head = Buffer.alloc(SNIFF_BYTES);
  const { bytesRead } = await file.read(head, 0, SNIFF_BYTES, 0);
  return sniff(head.subarray(0, bytesRead))?.contentType ?? 'application/octet-stream';
}

async function openIfExists(path: string): Promise<FileHandle | null> {
  try {
    return await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (err) {
    if (code(err) === 'ENOENT' || code(err) === 'ENOTDIR') return null;
    throw err;
  }
}

export function createDiskStore(options: DiskStoreOptions): DiskStore {
  const root = options.root;
  const fsync = options.fsync ?? true;
  const pathOf = (key: string) => {
    assertValidKey(key);
    return join(root, key);
  };

  return {
    kind: 'disk',

    async put(key, body, { maxBytes, signal }) {
      const final = pathOf(key);
      const temporary = `${final}${TMP_MARK}${randomBytes(8).toString('hex')}`;
      let sourceFailed = false;
      body.once('error', () => {
        sourceFailed = true;
      });
      const meter = new Meter(maxBytes);
      try {
        await mkdir(dirname(final), { recursive: true, mode: 0o700 });
        // The sink syncs as the bytes arrive and once more (fsync) before it finishes, so the rename below
        // commits bytes that are on the disk.
        // It also counts and hashes the bytes (the limit checked before each write), with no stage between.
        const out = new FileSink(await open(temporary, 'wx', 0o600), { sync: fsync, meter });
        await pipeline(body, out, signal ? { signal } : {});
        await rename(temporary, final);
        return { ok: true, bytes: meter.bytes, sha256: meter.sha256() };
      } catch (err) {
        await unlink(temporary).catch(() => {});
        if (err instanceof TooLargeError) return { ok: false, reason: 'too_large', message: `the file is larger than ${maxBytes} bytes`, limit: maxBytes };
        if (UNAVAILABLE_CODES.has(code(err) ?? '')) return unavailable(err);
        const name = (err as Error)?.name;
        if (sourceFailed || signal?.aborted || name === 'AbortError' || code(err) === 'ERR_STREAM_PREMATURE_CLOSE') {
          return { ok: false, reason: 'aborted', message: 'the upload was cut off before it ended' };
        }
        throw err;
      }
    },

    async get(key, { range } = {}) {
      const path = pathOf(key);
      return onDisk(async () => {
        const file = await openIfExists(path);
        if (!file) return notFound(key);
        try {
          const { size } = await file.stat();
          const resolved = resolveRange(range, size);
          if (resolved && 'ok' in resolved) {
            await file.close();
            return resolved;
          }
          const contentType = await contentTypeOf(file);
          if (size === 0) {
            await file.close();
            return { ok: true as const, body: Readable.from([]), size, contentType, range: resolved };
          }
          // The stream owns the descriptor from here (autoClose); an unlink meanwhile does not cut it short.
          const body = file.createReadStream({ start: resolved?.start ?? 0, end: resolved?.end ?? size - 1, highWaterMark: 256 * 1024 });
          return { ok: true as const, body, size, contentType, range: resolved };
        } catch (err) {
          await file.close().catch(() => {});
          throw err;
        }
      });
    },

    async head(key) {
      const path = pathOf(key);
      return onDisk(async () => {
        const file = await openIfExists(path);
        if (!file) return notFound(key);
        try {
          const { size } = await file.stat();
          return { ok: true as const, size, contentType: await contentTypeOf(file) };
        } finally {
          await file.close();
        }
      });
    },

    async delete(key) {
      const path = pathOf(key);
      return onDisk(async () => {
        try {
          await unlink(path);
        } catch (err) {
          if (code(err) !== 'ENOENT' && code(err) !== 'ENOTDIR') throw err;
        }
        // Remove folders the delete emptied, up to the root (a media's folder goes with its last file).
        for (let dir = dirname(path); dir.startsWith(root + sep) && dir !== root; dir = dirname(dir)) {
          try {
            await rmdir(dir);
          } catch {
            break; // not empty, or gone already
          }
        }
        return { ok: true as const };
      });
    },

    async localPath(key) {
      const path = pathOf(key);
      return onDisk(async () => {
        try {
          if (!(await stat(path)).isFile()) return notFound(key);
        } catch (err) {
          if (code(err) === 'ENOENT' || code(err) === 'ENOTDIR') return notFound(key);
          throw err;
        }
        return { ok: true as const, path, release: async () => {} };
      });
    },

    async removeStaleTemporaries(olderThanMs, now = Date.now()) {
      let removed = 0;
      const walk = async (dir: string): Promise<void> => {
        let entries;
        try {
          entries = await readdir(dir, { withFileTypes: true });
        } catch (err) {
          if (code(err) === 'ENOENT') return;
          throw err;
        }
        for (const entry of entries) {
          const path = join(dir, entry.name);
          if (entry.isDirectory()) await walk(path);
          else if (entry.name.includes(TMP_MARK) && now - (await stat(path)).mtimeMs > olderThanMs) {
            await unlink(path).catch(() => {});
            removed++;
          }
        }
      };
      await walk(root);
      return removed;
    },
  };
}
