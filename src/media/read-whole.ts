// A stored object read whole into memory, for the adapters that upload bytes to a platform (X, LinkedIn,
// YouTube, Bluesky, Mastodon, Pinterest, TikTok). Publishing library media reads it here rather than
// downloading Herald's own public or presigned URL: no trip out to the public address and back (which may
// resolve to a private one that the outbound guard refuses), the same size cap as a download.
import type { MediaStore } from './store.ts';

export type WholeRead =
  | { ok: true; bytes: Buffer }
  | { ok: false; reason: 'too_large' | 'not_found' | 'unavailable'; message: string };

export async function readWhole(store: Pick<MediaStore, 'get'>, key: string, maxBytes: number): Promise<WholeRead> {
  const got = await store.get(key);
  if (!got.ok) return { ok: false, reason: got.reason === 'not_found' ? 'not_found' : 'unavailable', message: got.message };
  if (got.size > maxBytes) {
    got.body.destroy();
    return { ok: false, reason: 'too_large', message: `it is ${got.size} bytes, more than the ${maxBytes} this upload takes` };
  }
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of got.body) {
      total += (chunk as Buffer).byteLength;
      // The size was checked above; an object that grows while it is read (never, for Herald's own) stops here.
      if (total > maxBytes) {
        got.body.destroy();
        return { ok: false, reason: 'too_large', message: `it is more than the ${maxBytes} bytes this upload takes` };
      }
      chunks.push(chunk as Buffer);
    }
  } catch (err) {
    return { ok: false, reason: 'unavailable', message: `the media store failed while reading it: ${(err as Error).message}` };
  }
  return { ok: true, bytes: Buffer.concat(chunks, total) };
}
