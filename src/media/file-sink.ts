// The disk store's writing end: a Writable on a FileHandle that writes the chunks it is given as they come
// (several at once with writev, no copy), and, when asked to sync, starts an fdatasync every `syncEvery`
// bytes while the upload goes on. The kernel then writes the file out during the upload instead of all at
// the end, so the final sync before the commit (the rename) finds little left to do. Durability is the
// same as one sync at the end: `final` syncs the whole file (fsync) before the stream finishes, so
// nothing is committed before its bytes are on the disk.
import type { FileHandle } from 'node:fs/promises';
import { Writable } from 'node:stream';
import type { Meter } from './stream-meter.ts';

export interface FileSinkOptions {
  /** fsync before finishing (and fdatasync along the way). */
  sync: boolean;
  /** Bytes between two background fdatasyncs (default 32 MiB). */
  syncEvery?: number;
  /** Bytes buffered before write() asks the source to wait (default 1 MiB). */
  highWaterMark?: number;
  /**
   * Counts and hashes the bytes: each batch is counted before it is written (past the limit, it is not,
   * and the stream fails with TooLargeError), and hashed while the disk writes it.
   */
  meter?: Meter;
}

const DEFAULT_SYNC_EVERY = 32 * 1024 * 1024;

export class FileSink extends Writable {
  bytes = 0;
  private readonly file: FileHandle;
  private readonly sync: boolean;
  private readonly syncEvery: number;
  private readonly meter: Meter | undefined;
  private syncedUpTo = 0;
  /** The background fdatasync under way, if any; its failure fails the next write or the end. */
  private syncing: Promise<void> | null = null;
  private syncError: Error | null = null;
  private fileClosed = false;

  constructor(file: FileHandle, options: FileSinkOptions) {
    super({ highWaterMark: options.highWaterMark ?? 1024 * 1024 });
    this.file = file;
    this.sync = options.sync;
    this.syncEvery = options.syncEvery ?? DEFAULT_SYNC_EVERY;
    this.meter = options.meter;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.writeAll([chunk]).then(() => done(), done);
  }

  override _writev(chunks: { chunk: Buffer }[], done: (error?: Error | null) => void): void {
    this.writeAll(chunks.map((c) => c.chunk)).then(() => done(), done);
  }

  private async writeAll(buffers: Buffer[]): Promise<void> {
    if (this.syncError) throw this.syncError;
    this.meter?.count(buffers.reduce((n, b) => n + b.length, 0));
    let pending = buffers;
    for (let first = true; ; first = false) {
      const total = pending.reduce((n, b) => n + b.length, 0);
      const writing = this.file.writev(pending);
      // Hashed here, on this thread, while a thread of the pool writes the same (unchanging) buffers.
      if (first && this.meter) for (const b of buffers) this.meter.update(b);
      const { bytesWritten } = await writing;
      this.bytes += bytesWritten;
      if (bytesWritten >= total) break;
      pending = rest(pending, bytesWritten);
    }
    if (this.sync && !this.syncing && this.bytes - this.syncedUpTo >= this.syncEvery) {
      const upTo = this.bytes;
      this.syncing = this.file.datasync().then(
        () => {
          this.syncedUpTo = upTo;
          this.syncing = null;
        },
        (err: Error) => {
          this.syncError = err;
          this.syncing = null;
        },
      );
    }
  }

  override _final(done: (error?: Error | null) => void): void {
    (async () => {
      await this.syncing;
      if (this.syncError) throw this.syncError;
      if (this.sync) await this.file.sync();
      this.fileClosed = true;
      await this.file.close();
    })().then(() => done(), done);
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    // Closed here when the stream failed or was cut off (a finished stream closed it in _final), once a
    // background sync under way has ended.
    if (this.fileClosed) return done(error);
    this.fileClosed = true;
    Promise.resolve(this.syncing)
      .then(() => this.file.close())
      .catch(() => {})
      .then(() => done(error));
  }
}

/** The buffers past the first `skip` bytes. */
function rest(buffers: Buffer[], skip: number): Buffer[] {
  const out: Buffer[] = [];
  for (const b of buffers) {
    if (skip >= b.length) {
      skip -= b.length;
      continue;
    }
    out.push(skip > 0 ? b.subarray(skip) : b);
    skip = 0;
  }
  return out;
}
