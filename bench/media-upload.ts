// node bench/media-upload.ts: the disk store's put (SHA-256 while streaming, size limit, temporary file and
// rename) against a plain fs.createWriteStream of the same bytes. Target: put at least 50 % of the plain
// write's throughput. Each way runs with and without fsync (the store syncs before committing by default;
// the plain write never does, so both are shown on equal terms).
//   BENCH_UPLOAD_MB  bytes per run, in MiB (default 1024)
//   BENCH_RUNS       runs of each way, interleaved, best kept (default 5)
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createDiskStore } from '../src/media/disk-store.ts';

const MIB = 1024 * 1024;
const total = Number(process.env.BENCH_UPLOAD_MB ?? 1024) * MIB;
const runs = Number(process.env.BENCH_RUNS ?? 5);
const CHUNK = 64 * 1024; // the size of the chunks an HTTP request body arrives in

/** The same bytes every time, made on the fly (a fresh buffer per chunk, as a socket delivers them). */
function body(): Readable {
  let produced = 0;
  return new Readable({
    highWaterMark: CHUNK,
    read() {
      if (produced >= total) return this.push(null);
      this.push(Buffer.allocUnsafe(CHUNK).fill(produced / CHUNK));
      produced += CHUNK;
    },
  });
}

type Way = { label: string; run: (i: number) => Promise<void>; best: number };

/** Runs the ways interleaved (A B C D, A B C D, …) so that a busy moment on a shared machine hits all of them. */
async function race(ways: Way[]): Promise<void> {
  for (let i = 0; i < runs; i++) {
    for (const way of ways) {
      const started = performance.now();
      await way.run(i);
      way.best = Math.min(way.best, (performance.now() - started) / 1000);
    }
  }
  for (const way of ways) console.log(`${way.label.padEnd(36)} ${mbps(way).toFixed(0).padStart(6)} MB/s (best of ${runs}, ${way.best.toFixed(2)} s)`);
}

const mbps = (way: Way) => total / 1e6 / way.best;

const dir = await mkdtemp(join(tmpdir(), 'herald-bench-upload-'));
try {
  console.log(`${total / MIB} MiB per run in ${CHUNK / 1024} KiB chunks, to ${dir}`);
  const noSync = createDiskStore({ root: join(dir, 'store-nosync'), fsync: false });
  const synced = createDiskStore({ root: join(dir, 'store-sync') });
  const plain: Way = {
    label: 'plain createWriteStream',
    best: Infinity,
    run: async (i) => {
      const path = join(dir, `plain-${i}`);
      await pipeline(body(), createWriteStream(path));
      await rm(path);
    },
  };
  const plainSync: Way = {
    label: 'plain createWriteStream + fsync',
    best: Infinity,
    run: async (i) => {
      const path = join(dir, `plain-sync-${i}`);
      await pipeline(body(), createWriteStream(path, { flush: true }));
      await rm(path);
    },
  };
  const put = (store: typeof noSync) => async (i: number) => {
    const r = await store.put(`med_${i}/original`, body(), { contentType: 'video/mp4', maxBytes: 2 * total });
    if (!r.ok) throw new Error(r.message);
    await store.delete(`med_${i}/original`);
  };
  const store: Way = { label: 'disk store put (fsync off)', best: Infinity, run: put(noSync) };
  const storeSync: Way = { label: 'disk store put (fsync on, default)', best: Infinity, run: put(synced) };
  await race([plain, store, plainSync, storeSync]);
  const ratio = (mbps(store) / mbps(plain)) * 100;
  const ratioSync = (mbps(storeSync) / mbps(plainSync)) * 100;
  console.log(`disk store put: ${ratio.toFixed(0)} % of the plain write without fsync, ${ratioSync.toFixed(0)} % with fsync; target ≥ 50 %: ${Math.min(ratio, ratioSync) >= 50 ? 'met' : 'NOT met'}`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
