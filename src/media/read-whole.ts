// A stored object read whole into memory, for the adapters that upload bytes to a platform (X, LinkedIn,
// YouTube, Bluesky, Mastodon, Pinterest, TikTok). Publishing library media reads it here rather than
// downloading Herald's own public or presigned URL: no trip out to the public address and back (which may
// resolve to a private one that the outbound guard refuses), the same size cap as a download. A post's
// targets publish at once, so one video goes to up to seven platforms together: the reader shares one copy
// of a file among the targets that hold it (a store key's bytes never change), instead of one each.
import type { MediaStore } from './store.ts';

export type WholeRead =
  | { ok: true; bytes: Buffer }
  | { ok: false; reason: 'too_large' | 'not_found' | 'unavailable'; message: string };

const tooLarge = (size: number, maxBytes: number): WholeRead => ({ ok: false, reason: 'too_large', message: `it is ${size} bytes, more than the ${maxBytes} this upload takes` });

export async function readWhole(store: Pick<MediaStore, 'get'>, key: string, maxBytes: number): Promise<WholeRead> {
  let got: Awaited<ReturnType<MediaStore['get']>>;
  try {
    got = await store.get(key);
  } catch (err) {
    // What the store throws (denied access, bad credentials: the operator's to fix) still fails only this
    // read: an adapter must not see an exception where it expects an outcome (it would count as a platform
    // call of unknown outcome). It is transient, so the target is tried again once the store is mended.
    return { ok: false, reason: 'unavailable', message: `the media store failed: ${(err as Error).message}` };
  }
  if (!got.ok) return { ok: false, reason: got.reason === 'not_found' ? 'not_found' : 'unavailable', message: got.message };
  if (got.size > maxBytes) {
    got.body.destroy();
    return tooLarge(got.size, maxBytes);
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

/**
 * readWhole, with one copy of a file's bytes per process while anyone holds them: a read of a key that is
 * being read waits for that read, and a read of a key whose bytes are still held (by an upload in progress)
 * gets the same bytes. Nothing is kept once no upload holds them (a weak reference). Callers never change
 * the bytes they get.
 */
export function createSharedReader(store: Pick<MediaStore, 'get'>): (key: string, maxBytes: number) => Promise<WholeRead> {
  const held = new Map<string, WeakRef<Buffer>>();
  const reading = new Map<string, { maxBytes: number; read: Promise<WholeRead> }>();
  const dropped = new FinalizationRegistry<string>((key) => {
    if (held.get(key)?.deref() === undefined) held.delete(key);
  });

  function start(key: string, maxBytes: number): Promise<WholeRead> {
    const read = readWhole(store, key, maxBytes).then((r) => {
      if (r.ok) {
        held.set(key, new WeakRef(r.bytes));
        dropped.register(r.bytes, key);
      }
      return r;
    });
    const entry = { maxBytes, read };
    reading.set(key, entry);
    void read
      .finally(() => {
        if (reading.get(key) === entry) reading.delete(key);
      })
      .catch(() => {});
    return read;
  }

  const capped = (r: WholeRead, maxBytes: number): WholeRead => (r.ok && r.bytes.byteLength > maxBytes ? tooLarge(r.bytes.byteLength, maxBytes) : r);

  return async (key, maxBytes) => {
    let failed: { maxBytes: number; read: Promise<WholeRead> } | undefined;
    for (;;) {
      const kept = held.get(key)?.deref();
      if (kept) return capped({ ok: true, bytes: kept }, maxBytes);
      const inFlight = reading.get(key);
      if (!inFlight || inFlight === failed) return capped(await start(key, maxBytes), maxBytes);
      const r = await inFlight.read;
      // Too large for the cap of the read waited for, but this caller takes more: look again (another
      // caller may have started the larger read meanwhile), else read for itself.
      if (!r.ok && r.reason === 'too_large' && maxBytes > inFlight.maxBytes) {
        failed = inFlight;
        continue;
      }
      return capped(r, maxBytes);
    }
  };
}
