// Pulling media the way platforms do (Instagram's and TikTok's servers GET the URL they are given), for the
// URLs an emulator is allowed to reach: Herald's own media origins, which the sandbox names (the built-in
// sandbox: Herald's own address; test servers: the Herald under test). Any other URL is judged, not
// fetched, so the sandbox never becomes a way to reach arbitrary hosts. What was pulled (its size, digest,
// type and pixel size) goes into the ledger, so a test can see the very bytes a platform received.
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { sniffMediaType } from '../media.ts';

export interface PulledMedia {
  bytes: number;
  sha256: string;
  contentType: string;
  width?: number;
  height?: number;
}

export type PullResult = { ok: true; media: PulledMedia } | { ok: false; message: string };

/** The most an emulator reads of one file (a platform's own limits are larger; a test's files are not). */
const MAX_PULL_BYTES = 1024 * 1024 * 1024;
/** Enough of the start of an image for its header (sides). */
const HEAD_BYTES = 256 * 1024;

export function pullable(url: string, origins: readonly string[]): boolean {
  try {
    return origins.includes(new URL(url).origin);
  } catch {
    return false;
  }
}

export async function pullMedia(url: string, timeoutMs = 30_000): Promise<PullResult> {
  let res: Response;
  try {
    res = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    return { ok: false, message: `the media could not be downloaded (${(err as Error).message})` };
  }
  if (res.status !== 200 || !res.body) {
    await res.body?.cancel().catch(() => {});
    return { ok: false, message: `the media URL answered HTTP ${res.status}` };
  }
  const hash = createHash('sha256');
  const head: Buffer[] = [];
  let headBytes = 0;
  let bytes = 0;
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.byteLength;
      if (bytes > MAX_PULL_BYTES) return { ok: false, message: 'the media is larger than the sandbox downloads' };
      hash.update(chunk);
      if (headBytes < HEAD_BYTES) {
        head.push(Buffer.from(chunk));
        headBytes += chunk.byteLength;
      }
    }
  } catch (err) {
    return { ok: false, message: `the download broke off (${(err as Error).message})` };
  }
  const first = Buffer.concat(head);
  const contentType = sniffMediaType(first) ?? res.headers.get('content-type') ?? 'application/octet-stream';
  const media: PulledMedia = { bytes, sha256: hash.digest('hex'), contentType };
  if (contentType.startsWith('image/')) {
    try {
      const meta = await sharp(first, { failOn: 'none' }).metadata();
      if (meta.width && meta.height) Object.assign(media, { width: meta.width, height: meta.height });
    } catch {
      // A header past the first bytes: the size stays unknown.
    }
  }
  return { ok: true, media };
}
