// Issue 13's figures, each beside a baseline of the same run:
//   upload   1 GiB through POST /v1/media (HTTP, streamed to the disk store, SHA-256, probe) against a plain
//            fs.createWriteStream of the same chunks; Herald's resident memory sampled throughout.
//            Targets: ≥ 50 % of the plain write's throughput, RSS rising < 64 MB.
//   rendition a 12-megapixel JPEG to its Instagram rendition: sharp alone (makeRendition, one libvips
//            thread), and the whole publishNow request that makes it, less the same request when the
//            rendition already exists. Target: < 150 ms.
//   create   POST /v1/posts (scheduled, 3 targets) with 4 library images against the same with 4 URL media,
//            in interleaved turns, with Herald's CPU per request (bench/media-create.ts). Target: ≥ 90 %.
//   BENCH_UPLOAD_MB (default 1024), BENCH_SECONDS (each create turn, default 5), BENCH_CREATE_ROUNDS (default
//   4), BENCH_RUNS (renditions, default 7)
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import sharp from 'sharp';
import { makeRendition } from '../src/media/renditions.ts';
import { INSTAGRAM_MEDIA_RULES } from '../src/platforms/instagram/media-rules.ts';
import { planFit } from '../src/media/rules.ts';
import { probeImageFacts } from './media-fixture.ts';
import { benchDatabase, connect, createKey, memoryMb, percentile, startHerald } from './lib.ts';
import { compareCreates, type CreateComparison } from './media-create.ts';

const MIB = 1024 * 1024;
const CHUNK = 64 * 1024;

export interface MediaFigures {
  upload: { bytes: number; plainMBps: number; plainSyncMBps: number; uploadMBps: number; share: number; shareSync: number; rssBeforeMb: number; rssPeakMb: number; rssRiseMb: number };
  rendition: { sharpMs: number; sharpCpuMs: number; requestMs: number; reusedRequestMs: number; addedMs: number };
  create: CreateComparison;
}

function chunks(total: number, first: Buffer): Readable {
  let produced = 0;
  return new Readable({
    highWaterMark: CHUNK,
    read() {
      if (produced >= total) return this.push(null);
      const chunk = produced === 0 ? Buffer.concat([first, Buffer.alloc(CHUNK - first.length, 1)]) : Buffer.allocUnsafe(Math.min(CHUNK, total - produced)).fill(produced / CHUNK);
      produced += chunk.length;
      this.push(chunk);
    },
  });
}

function upload(url: string, key: string, total: number, first: Buffer): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const u = new URL(`${url}/v1/media`);
    const req = request({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'image/jpeg', 'content-length': String(total) } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    chunks(total, first).pipe(req);
  });
}

async function photo(path: string, width: number, height: number): Promise<void> {
  const pixels = Buffer.alloc(width * height * 3);
  let seed = 12345;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const grain = (seed >> 16) % 24;
      const i = (y * width + x) * 3;
      pixels[i] = ((x * 255) / width) * 0.8 + grain;
      pixels[i + 1] = ((y * 255) / height) * 0.8 + grain;
      pixels[i + 2] = 128 + 100 * Math.sin(x / 90) * Math.cos(y / 70) * 0.9 + grain / 2;
    }
  }
  await sharp(pixels, { raw: { width, height, channels: 3 } }).jpeg({ quality: 92 }).toFile(path);
}

async function postJson(url: string, key: string, path: string, body: unknown) {
  const res = await fetch(`${url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
}

export async function benchMedia(): Promise<MediaFigures> {
  const total = Number(process.env.BENCH_UPLOAD_MB ?? 1024) * MIB;
  const createSeconds = Number(process.env.BENCH_SECONDS ?? 5);
  const createRounds = Number(process.env.BENCH_CREATE_ROUNDS ?? 4);
  const runs = Number(process.env.BENCH_RUNS ?? 7);
  const dir = await mkdtemp(join(tmpdir(), 'herald-bench-media-'));
  const database = await benchDatabase();
  const env = { ...database.env, HERALD_SANDBOX: 'true', HERALD_ALLOW_PRIVATE_NETWORKS: 'true', HERALD_MEDIA_MAX_BYTES: String(2 * total) };
  try {
    const small = join(dir, 'small.jpg');
    await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 10, g: 20, b: 30 } } }).jpeg().toFile(small);
    const first = await sharp(small).toBuffer();

    // --- upload: the plain write (with and without fsync, which the store does before committing) and the
    // upload through Herald, interleaved, best of `rounds` each: a busy moment on a shared machine hits all.
    const rounds = Number(process.env.BENCH_UPLOAD_ROUNDS ?? 3);
    const key = createKey(env);
    const herald = await startHerald(env);
    try {
      let plainSeconds = Infinity;
      let plainSyncSeconds = Infinity;
      let uploadSeconds = Infinity;
      const before = await memoryMb(herald.url);
      let peak = before.rss;
      for (let round = 0; round < rounds; round++) {
        const plainPath = join(dir, 'plain.bin');
        let t = performance.now();
        await pipeline(chunks(total, first), createWriteStream(plainPath));
        plainSeconds = Math.min(plainSeconds, (performance.now() - t) / 1000);
        await rm(plainPath);
        t = performance.now();
        await pipeline(chunks(total, first), createWriteStream(plainPath, { flush: true }));
        plainSyncSeconds = Math.min(plainSyncSeconds, (performance.now() - t) / 1000);
        await rm(plainPath);
        const sampler = setInterval(() => void memoryMb(herald.url).then((m) => (peak = Math.max(peak, m.rss)), () => {}), 100);
        t = performance.now();
        const up = await upload(herald.url, key, total, first);
        uploadSeconds = Math.min(uploadSeconds, (performance.now() - t) / 1000);
        clearInterval(sampler);
        if (up.status !== 201) throw new Error(`upload answered ${up.status}: ${up.body}`);
        await fetch(`${herald.url}/v1/media/${JSON.parse(up.body).id}`, { method: 'DELETE', headers: { authorization: `Bearer ${key}` } });
      }
      const plainMBps = total / 1e6 / plainSeconds;
      const plainSyncMBps = total / 1e6 / plainSyncSeconds;
      const uploadMBps = total / 1e6 / uploadSeconds;
      const uploadFigures = { bytes: total, plainMBps, plainSyncMBps, uploadMBps, share: uploadMBps / plainMBps, shareSync: uploadMBps / plainSyncMBps, rssBeforeMb: before.rss, rssPeakMb: peak, rssRiseMb: peak - before.rss };

      // --- rendition: a 12 MP panorama JPEG (6000×2000) cropped and scaled for Instagram.
      const pano = join(dir, 'pano.jpg');
      await photo(pano, 6000, 2000);
      const plan = planFit(await probeImageFacts(pano), INSTAGRAM_MEDIA_RULES, 'crop');
      if (plan.action !== 'rendition') throw new Error(`expected a rendition, got ${plan.action}`);
      sharp.concurrency(1);
      const sharpTimes: number[] = [];
      const cpuTimes: number[] = [];
      for (let i = 0; i < runs + 2; i++) {
        const cpu = process.cpuUsage();
        const started = performance.now();
        const r = await makeRendition(pano, plan.spec, join(dir, `r${i}.jpg`));
        if (!r.ok) throw new Error(r.message);
        if (i >= 2) {
          sharpTimes.push(performance.now() - started);
          const used = process.cpuUsage(cpu);
          cpuTimes.push((used.user + used.system) / 1000);
        }
      }
      const [ig] = await connect(herald.url, key, 'instagram', { sandbox_pages: '1' });
      const panoBytes = await readFile(pano);
      const requestTimes: number[] = [];
      const reusedTimes: number[] = [];
      for (let i = 0; i < runs; i++) {
        const res = await fetch(`${herald.url}/v1/media`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'image/jpeg' }, body: panoBytes });
        const m = (await res.json()) as { id: string };
        for (const times of [requestTimes, reusedTimes]) {
          const started = performance.now();
          const post = await postJson(herald.url, key, '/v1/posts', { publishNow: true, content: `pano ${i} ${times === requestTimes}`, mediaItems: [{ mediaId: m.id }], platforms: [{ platform: 'instagram', accountId: ig, platformSpecificData: { mediaFit: 'crop' } }] });
          times.push(performance.now() - started);
          if (post.body.status !== 'published') throw new Error(JSON.stringify(post.body));
        }
      }
      const requestMs = percentile(requestTimes, 50);
      const reusedRequestMs = percentile(reusedTimes, 50);
      const renditionFigures = { sharpMs: percentile(sharpTimes, 50), sharpCpuMs: percentile(cpuTimes, 50), requestMs, reusedRequestMs, addedMs: requestMs - reusedRequestMs };

      // --- create: 4 library images vs 4 URL images, 3 targets, scheduled; interleaved turns, with the CPU
      // Herald spends per request (bench/media-create.ts).
      const create = await compareCreates({ url: herald.url, key, pid: herald.child.pid!, rounds: createRounds, seconds: createSeconds });
      return { upload: uploadFigures, rendition: renditionFigures, create };
    } finally {
      await herald.stop();
    }
  } finally {
    await database.drop();
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const f = await benchMedia();
  console.log(JSON.stringify(f, null, 2));
}

