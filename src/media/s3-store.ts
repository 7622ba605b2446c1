// Media in an S3 bucket (AWS or an S3-compatible store), for several Herald processes on several machines.
// A put streams through lib-storage's Upload: parts of `partSize` go up as they fill (at most `queueSize`
// in flight, so memory is partSize × queueSize whatever the file's size), and the object exists only once
// CompleteMultipartUpload runs; a failed, aborted or oversized put aborts the multipart upload instead,
// so nothing is left (a small file is one PutObject, sent only once the whole body is in hand).
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { assertValidKey, type MediaStore, type StoreFailure } from './store.ts';
import { StreamMeter, TooLargeError } from './stream-meter.ts';

export interface S3StoreOptions {
  bucket: string;
  region: string;
  /** For S3-compatible stores (MinIO, R2, Ceph, …); absent for AWS. */
  endpoint?: string;
  /** Absent: the SDK's default chain (environment, instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** Path-style URLs (endpoint/bucket/key), which most S3-compatible stores need. */
  forcePathStyle?: boolean;
  /** Prepended to every key, so that one bucket can hold several things. */
  prefix?: string;
  /** Where localPath downloads an object for probing. */
  tmpDir: string;
  /** Multipart part size (≥ 5 MiB, S3's minimum) and parts in flight. */
  partSize?: number;
  queueSize?: number;
  connectTimeoutMs?: number;
  /** Per request: an idle socket this long is a failure. */
  requestTimeoutMs?: number;
  maxAttempts?: number;
  /**
   * 'when_required': send checksums only where S3 requires them. The SDK's default since early 2025
   * ('when_supported') adds CRC32 trailers that several S3-compatible stores reject; the default here is
   * 'when_required' when an endpoint is set and 'when_supported' for AWS. Herald's own SHA-256 covers
   * integrity either way.
   */
  checksums?: 'when_supported' | 'when_required';
}

export interface S3Store extends MediaStore {
  readonly kind: 's3';
  close(): void;
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNABORTED', 'UND_ERR_SOCKET']);
const TRANSIENT_NAMES = new Set(['TimeoutError', 'RequestTimeout', 'RequestTimeoutException', 'NetworkingError', 'SlowDown', 'ServiceUnavailable', 'InternalError', 'ThrottlingException']);

interface SdkError {
  name?: string;
  code?: string;
  $metadata?: { httpStatusCode?: number };
  cause?: unknown;
}

function status(err: unknown): number | undefined {
  return (err as SdkError)?.$metadata?.httpStatusCode;
}

/** S3 5xx, throttling, time-outs and connection failures: the store is failing for now. */
function isTransient(err: unknown): boolean {
  for (let e = err as SdkError | undefined, depth = 0; e && depth < 4; depth++, e = e.cause as SdkError | undefined) {
    const s = status(e);
    if ((s !== undefined && s >= 500) || s === 429 || s === 503) return true;
    if (e.name && TRANSIENT_NAMES.has(e.name)) return true;
    if (e.code && NETWORK_CODES.has(e.code)) return true;
  }
  return false;
}

function isNotFound(err: unknown): boolean {
  const e = err as SdkError;
  return status(err) === 404 || e?.name === 'NotFound' || e?.name === 'NoSuchKey';
}

function unavailable(err: unknown): StoreFailure & { reason: 'unavailable' } {
  const e = err as SdkError;
  const detail = status(err) ? `HTTP ${status(err)}` : (e?.code ?? e?.name ?? 'error');
  return { ok: false, reason: 'unavailable', message: `the media store (S3) failed (${detail})` };
}

function notFound(key: string): StoreFailure & { reason: 'not_found' } {
  return { ok: false, reason: 'not_found', message: `no media stored at ${key}` };
}

export function createS3Store(options: S3StoreOptions): S3Store {
  const checksums = options.checksums ?? (options.endpoint ? 'when_required' : 'when_supported');
  const checksumSetting = checksums === 'when_required' ? 'WHEN_REQUIRED' : 'WHEN_SUPPORTED';
  const client = new S3Client({
    region: options.region,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    ...(options.credentials ? { credentials: options.credentials } : {}),
    forcePathStyle: options.forcePathStyle ?? false,
    maxAttempts: options.maxAttempts ?? 3,
    requestChecksumCalculation: checksumSetting,
    responseChecksumValidation: checksumSetting,
    // socketTimeout is the idle time-out that fails the request. (The SDK's requestTimeout only logs a
    // warning unless throwOnRequestTimeout is set, and bounds the whole request, which a large part on a
    // slow link may rightly exceed: with it, a store that stopped answering held every upload for ever.)
    requestHandler: { connectionTimeout: options.connectTimeoutMs ?? 5_000, socketTimeout: options.requestTimeoutMs ?? 60_000 },
  });
  const Bucket = options.bucket;
  const objectKey = (key: string) => {
    assertValidKey(key);
    return `${options.prefix ?? ''}${key}`;
  };

  /** Runs an S3 call; transient failures become 'unavailable', anything else propagates. */
  async function call<T, F>(run: () => Promise<T>, onMissing: () => F): Promise<T | F | (StoreFailure & { reason: 'unavailable' })> {
    try {
      return await run();
    } catch (err) {
      if (isNotFound(err)) return onMissing();
      if (isTransient(err)) return unavailable(err);
      throw err;
    }
  }

  async function headOf(key: string) {
    const Key = objectKey(key);
    return call(async () => {
      const res = await client.send(new HeadObjectCommand({ Bucket, Key }));
      return { ok: true as const, size: res.ContentLength ?? 0, contentType: res.ContentType ?? 'application/octet-stream' };
    }, () => notFound(key));
  }

  return {
    kind: 's3',

    async put(key, body, { contentType, maxBytes, signal }) {
      const Key = objectKey(key);
      const meter = new StreamMeter(maxBytes);
      let sourceFailed = false;
      body.once('error', () => {
        sourceFailed = true;
      });
      const upload = new Upload({
        client,
        params: { Bucket, Key, Body: meter, ContentType: contentType },
        partSize: Math.max(options.partSize ?? 8 * 1024 * 1024, 5 * 1024 * 1024),
        queueSize: options.queueSize ?? 2,
        leavePartsOnError: false, // abort the multipart upload on failure: no orphan parts billed forever
      });
      const onAbort = () => void upload.abort().catch(() => {});
      signal?.addEventListener('abort', onAbort, { once: true });
      const feeding = pipeline(body, meter, signal ? { signal } : {}).then(
        () => null,
        (err: unknown) => err,
      );
      let failure: unknown = null;
      try {
        await upload.done();
      } catch (err) {
        failure = err;
        // The uploader stopped reading: end the feeding pipeline too (it would wait for a reader forever).
        meter.destroy(err instanceof Error ? err : new Error(String(err)));
      } finally {
        signal?.removeEventListener('abort', onAbort);
      }
      const fed = await feeding;
      if (!failure && !fed) return { ok: true, bytes: meter.bytes, sha256: meter.sha256() };
      // upload.done() rejects with the uploader's own error; the reason is often the feeding side's.
      if (fed instanceof TooLargeError || failure instanceof TooLargeError) {
        return { ok: false, reason: 'too_large', message: `the file is larger than ${maxBytes} bytes`, limit: maxBytes };
      }
      // S3 failing first: ending the feeding pipeline (above) fails the source too, which is not an abort.
      if (failure && isTransient(failure)) return unavailable(failure);
      if (sourceFailed || signal?.aborted) return { ok: false, reason: 'aborted', message: 'the upload was cut off before it ended' };
      const err = failure ?? fed;
      if (isTransient(err)) return unavailable(err);
      const name = (err as Error | undefined)?.name;
      if (name === 'AbortError' || (err as SdkError | undefined)?.code === 'ERR_STREAM_PREMATURE_CLOSE') {
        return { ok: false, reason: 'aborted', message: 'the upload was cut off before it ended' };
      }
      throw err;
    },

    async get(key, { range } = {}) {
      const Key = objectKey(key);
      if (range && (!Number.isSafeInteger(range.start) || range.start < 0 || (range.end !== undefined && range.end < range.start))) {
        throw new TypeError(`invalid byte range ${JSON.stringify(range)}`);
      }
      const Range = range ? `bytes=${range.start}-${range.end ?? ''}` : undefined;
      try {
        const res = await client.send(new GetObjectCommand({ Bucket, Key, Range }));
        const total = /\/(\d+)$/.exec(res.ContentRange ?? '')?.[1];
        const size = total !== undefined ? Number(total) : (res.ContentLength ?? 0);
        const served = /^bytes (\d+)-(\d+)\//.exec(res.ContentRange ?? '');
        return {
          ok: true,
          body: res.Body as Readable,
          size,
          contentType: res.ContentType ?? 'application/octet-stream',
          range: range && served ? { start: Number(served[1]), end: Number(served[2]) } : range ? { start: 0, end: size - 1 } : null,
        };
      } catch (err) {
        if (isNotFound(err)) return notFound(key);
        if (status(err) === 416 || (err as SdkError).name === 'InvalidRange') {
          const head = await headOf(key);
          if (!head.ok) return head;
          return { ok: false, reason: 'range_not_satisfiable', message: `the range starts at byte ${range?.start}; the object has ${head.size} bytes`, size: head.size };
        }
        if (isTransient(err)) return unavailable(err);
        throw err;
      }
    },

    head: headOf,

    async delete(key) {
      const Key = objectKey(key);
      return call(async () => {
        await client.send(new DeleteObjectCommand({ Bucket, Key }));
        return { ok: true as const };
      }, () => ({ ok: true as const }));
    },

    async localPath(key) {
      const Key = objectKey(key);
      const path = join(options.tmpDir, `herald-s3-${randomBytes(12).toString('hex')}`);
      try {
        const res = await client.send(new GetObjectCommand({ Bucket, Key }));
        await pipeline(res.Body as Readable, createWriteStream(path, { flags: 'wx', mode: 0o600 }));
        return { ok: true, path, release: () => unlink(path).catch(() => {}) };
      } catch (err) {
        await unlink(path).catch(() => {});
        if (isNotFound(err)) return notFound(key);
        if (isTransient(err) || ['ENOSPC', 'EIO', 'EDQUOT'].includes((err as SdkError).code ?? '')) return unavailable(err);
        throw err;
      }
    },

    presignGet(key, ttlSeconds) {
      // Signed locally (SigV4 query string): no request to S3, so nothing here can be unavailable.
      return getSignedUrl(client, new GetObjectCommand({ Bucket, Key: objectKey(key) }), { expiresIn: ttlSeconds });
    },

    close() {
      client.destroy();
    },
  };
}
