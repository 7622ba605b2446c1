// Media files for tests, made at test time with sharp, ffmpeg and pdf-lib, so no large binaries live in
// the repository. The one committed file is a 489-byte HEIC (test/fixtures/media), since neither sharp's
// prebuilt libvips nor Debian's ffmpeg 5 can write HEIC; it was made with Debian's libheif-examples:
// `heif-enc -q 20 -o tiny-64x48.heic tiny.png` from a 64×48 PNG.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';

const run = promisify(execFile);

export const HEIC_FIXTURE = new URL('../fixtures/media/tiny-64x48.heic', import.meta.url).pathname;

export interface MediaFixtures {
  dir: string;
  /** A path inside the fixture folder. */
  path(name: string): string;
  image(name: string, options: { width: number; height: number; format: 'jpeg' | 'png' | 'webp' | 'gif'; orientation?: number; alpha?: boolean; noise?: boolean }): Promise<string>;
  animatedGif(name: string, frames: number, width: number, height: number): Promise<string>;
  /** ffmpeg test pattern; `rotate` writes the display-rotation tag. */
  video(name: string, options: { width: number; height: number; seconds: number; fps?: number; codec?: 'h264' | 'hevc'; audio?: boolean; container?: 'mp4' | 'mov'; rotate?: number; faststart?: boolean }): Promise<string>;
  pdf(name: string, pages: number, options?: { objectStreams?: boolean }): Promise<string>;
  /** The first `bytes` bytes of a file, as a new file. */
  truncate(source: string, name: string, bytes: number): Promise<string>;
  cleanup(): Promise<void>;
}

/** Random-looking pixels compress badly, so an image's byte size can be pushed past a limit on purpose. */
function noisePixels(width: number, height: number, channels: number): Buffer {
  const out = Buffer.alloc(width * height * channels);
  let x = 0x9e3779b9;
  for (let i = 0; i < out.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

export async function ffmpegAvailable(): Promise<boolean> {
  try {
    await run('ffmpeg', ['-version']);
    return true;
  } catch {
    return false;
  }
}

export async function createMediaFixtures(): Promise<MediaFixtures> {
  const dir = await mkdtemp(join(tmpdir(), 'herald-media-'));
  const path = (name: string) => join(dir, name);
  return {
    dir,
    path,
    async image(name, { width, height, format, orientation, alpha, noise }) {
      const channels = alpha ? 4 : 3;
      const base = noise
        ? sharp(noisePixels(width, height, channels), { raw: { width, height, channels } })
        : sharp({ create: { width, height, channels, background: alpha ? { r: 30, g: 120, b: 200, alpha: 0.5 } : { r: 30, g: 120, b: 200 } } });
      let img = base[format]();
      if (orientation) img = img.withMetadata({ orientation });
      await img.toFile(path(name));
      return path(name);
    },
    async animatedGif(name, frames, width, height) {
      const pages = await Promise.all(
        Array.from({ length: frames }, (_, i) => sharp({ create: { width, height, channels: 3, background: { r: (i * 40) % 256, g: 80, b: 160 } } }).png().toBuffer()),
      );
      await sharp(pages, { join: { animated: true } }).gif().toFile(path(name));
      return path(name);
    },
    async video(name, { width, height, seconds, fps = 30, codec = 'h264', audio = true, container = 'mp4', rotate, faststart }) {
      const args = ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `testsrc=size=${width}x${height}:rate=${fps}`];
      if (audio) args.push('-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100');
      args.push('-t', String(seconds), '-pix_fmt', 'yuv420p');
      args.push(...(codec === 'hevc' ? ['-c:v', 'libx265', '-x265-params', 'log-level=error', '-tag:v', 'hvc1'] : ['-c:v', 'libx264', '-preset', 'ultrafast']));
      if (audio) args.push('-c:a', 'aac', '-shortest');
      if (faststart) args.push('-movflags', '+faststart');
      // ffmpeg 5 drops a rotate tag given while encoding; it keeps one given while copying streams.
      const encoded = rotate === undefined ? path(name) : path(`unrotated-${name}`);
      args.push('-f', container, encoded);
      await run('ffmpeg', args);
      if (rotate !== undefined) {
        await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-i', encoded, '-c', 'copy', '-metadata:s:v:0', `rotate=${rotate}`, '-f', container, path(name)]);
      }
      return path(name);
    },
    async pdf(name, pages, { objectStreams = true } = {}) {
      const doc = await PDFDocument.create();
      for (let i = 0; i < pages; i++) doc.addPage([300, 400]).drawText(`Page ${i + 1}`, { x: 40, y: 300 });
      await writeFile(path(name), await doc.save({ useObjectStreams: objectStreams }));
      return path(name);
    },
    async truncate(source, name, bytes) {
      await writeFile(path(name), (await readFile(source)).subarray(0, bytes));
      return path(name);
    },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}
