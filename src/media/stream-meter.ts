// The bytes of a put pass through this on their way to storage: it hashes and counts them, and fails the
// stream the moment the count passes the limit, so an oversized upload is cut off there instead of being
// stored first and measured after.
import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';

export class TooLargeError extends Error {
  readonly limit: number;
  constructor(limit: number) {
    super(`the body is larger than ${limit} bytes`);
    this.name = 'TooLargeError';
    this.limit = limit;
  }
}

/** The count and SHA-256 of the bytes of one put, and its limit: for a stage of its own or a store's sink. */
export class Meter {
  bytes = 0;
  private readonly hash = createHash('sha256');
  readonly limit: number;

  constructor(limit: number) {
    this.limit = limit;
  }

  /** Counts bytes about to be stored; throws TooLargeError (nothing of them to be stored) past the limit. */
  count(length: number): void {
    this.bytes += length;
    if (this.bytes > this.limit) throw new TooLargeError(this.limit);
  }

  update(chunk: Buffer): void {
    this.hash.update(chunk);
  }

  /** Lowercase hex; call once the last bytes are in. */
  sha256(): string {
    return this.hash.digest('hex');
  }
}

export class StreamMeter extends Transform {
  private readonly meter: Meter;

  constructor(limit: number) {
    // 1 MiB of buffering: enough to keep the disk (or the S3 part uploader) busy while the next chunks
    // are hashed, small enough that memory stays flat whatever the file's size.
    super({ highWaterMark: 1024 * 1024 });
    this.meter = new Meter(limit);
  }

  get bytes(): number {
    return this.meter.bytes;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    try {
      this.meter.count(chunk.length);
    } catch (err) {
      return done(err as Error);
    }
    this.meter.update(chunk);
    done(null, chunk);
  }

  /** Lowercase hex; call once the stream has ended. */
  sha256(): string {
    return this.meter.sha256();
  }
}
