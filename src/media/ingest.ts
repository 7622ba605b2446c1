// Taking a file in (upload or import): the first bytes decide what it is, the rest streams to the store
// with its SHA-256 and size counted on the way, then the stored file is probed. Nothing is held whole in
// memory, and nothing is left behind on any failure: the store keeps nothing of a failed put, and a file
// that stored but does not probe is deleted before the answer.
import { Readable } from 'node:stream';
import type { ApiError } from '../contract/errors.ts';
import { mediaErrors } from './errors.ts';
import type { MediaFacts } from './facts.ts';
import type { Prober } from './probe.ts';
import { sniff, SNIFF_BYTES, type Sniffed } from './sniff.ts';
import type { MediaStore } from './store.ts';

export type IngestResult =
  | { ok: true; sniffed: Sniffed; bytes: number; sha256: string; facts: MediaFacts }
  /** The source failed or was cut off (the client went away, an import stopped): nothing was kept. */
  | { ok: false; aborted: true; message: string }
  | { ok: false; aborted: false; error: ApiError };

/**
 * Reads up to `n` bytes from the front of a stream and puts them back (unshift), so the same stream can be
 * stored whole after a look at its head, with no stage in between to slow the copy. A stream that ended
 * within those bytes is replaced by one holding them.
 */
export function peek(source: Readable, n: number): Promise<{ head: Buffer; rest: Readable }> {
  return new Promise((resolve, reject) => {
    // A source that ended or failed before this look (a multipart part cut off while the quota was read)
    // will emit nothing more: waiting for its events would wait for ever.
    if (source.readableEnded) return resolve({ head: Buffer.alloc(0), rest: Readable.from([]) });
    if (source.destroyed || source.errored) return reject(source.errored ?? new Error('the stream closed before it ended'));
    const chunks: Buffer[] = [];
    let length = 0;
    let settled = false;
    const finish = (ended: boolean) => {
      if (settled) return;
      settled = true;
      source.off('readable', onReadable);
      source.off('end', onEnd);
      source.off('error', onError);
      source.off('close', onClose);
      const head = Buffer.concat(chunks, length);
      if (ended) return resolve({ head, rest: Readable.from(head.length > 0 ? [head] : []) });
      if (head.length > 0) source.unshift(head);
      resolve({ head: head.subarray(0, n), rest: source });
    };
    const onReadable = () => {
      let chunk: Buffer | null;
      while (length < n && (chunk = source.read() as Buffer | null) !== null) {
        const b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
        chunks.push(b);
        length += b.length;
      }
      if (length >= n) finish(false);
    };
    const onEnd = () => finish(true);
    const onError = (err: Error) => {
      if (settled) return;
      settled = true;
      reject(err);
    };
    // A source destroyed before it ended (the client went away) is an error here.
    const onClose = () => {
      if (!source.readableEnded) onError(new Error('the stream closed before it ended'));
    };
    source.on('readable', onReadable);
    source.once('end', onEnd);
    source.once('error', onError);
    source.once('close', onClose);
  });
}

export async function ingest(deps: { store: MediaStore; prober: Prober }, key: string, source: Readable, maxBytes: number): Promise<IngestResult> {
  let head: Buffer;
  let rest: Readable;
  try {
    ({ head, rest } = await peek(source, SNIFF_BYTES));
  } catch (err) {
    return { ok: false, aborted: true, message: `the upload was cut off before it ended (${(err as Error).message})` };
  }
  if (head.length === 0) {
    rest.destroy();
    return { ok: false, aborted: false, error: mediaErrors.unreadable('the file is empty (0 bytes)') };
  }
  const sniffed = sniff(head);
  if (!sniffed) {
    rest.destroy();
    return { ok: false, aborted: false, error: mediaErrors.unsupported('the file is not a JPEG, PNG, WebP, GIF, HEIC, MP4, QuickTime or PDF file (recognised from its bytes, whatever its declared type)') };
  }
  const put = await deps.store.put(key, rest, { contentType: sniffed.contentType, maxBytes });
  if (!put.ok) {
    if (put.reason === 'too_large') return { ok: false, aborted: false, error: mediaErrors.tooLarge(maxBytes) };
    if (put.reason === 'unavailable') return { ok: false, aborted: false, error: mediaErrors.storageUnavailable(put.message) };
    return { ok: false, aborted: true, message: put.message };
  }
  const local = await deps.store.localPath(key);
  if (!local.ok) {
    await deps.store.delete(key);
    return { ok: false, aborted: false, error: mediaErrors.storageUnavailable(local.message) };
  }
  let probed;
  try {
    probed = await deps.prober.probe(local.path);
  } finally {
    await local.release();
  }
  if (!probed.ok) {
    await deps.store.delete(key);
    const error =
      probed.reason === 'unsupported'
        ? mediaErrors.unsupported(probed.message)
        : probed.reason === 'unreadable'
          ? mediaErrors.unreadable(`the file is ${sniffed.contentType} but cannot be read: ${probed.message}`)
          : mediaErrors.probeUnavailable(probed.message);
    return { ok: false, aborted: false, error };
  }
  return { ok: true, sniffed, bytes: put.bytes, sha256: put.sha256, facts: probed.facts };
}
