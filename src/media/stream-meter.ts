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

export class StreamMeter extends Transform {
  bytes = 0;
  private readonly hash = createHash('sha256');
  private readonly limit: number;

  constructor(limit: number) {
    // 1 MiB of buffering: enough to keep the disk (or the S3 part uploader) busy while the next chunks
    // are hashed, small enough that memory stays flat whatever the file's size.
    super({ highWaterMark: 1024 * 1024 });
    this.limit = limit;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.limit) return done(new TooLargeError(this.limit));
    this.hash.update(chunk);
    done(null, chunk);
  }

  /** Lowercase hex; call once the stream has ended. */
  sha256(): string {
    return this.hash.digest('hex');
  }
}
