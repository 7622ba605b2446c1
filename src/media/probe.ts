// Probes a stored file: what it is (from its bytes), and the facts platform rules are checked against.
// Bad input is never an exception: a truncated or corrupt file is `unreadable` with a reason a person can
// act on (→ 400 MEDIA_UNREADABLE). Only Herald's own faults throw. Every probe works on the file's path
// (sharp and ffprobe read what they need from it), so probing a 1 GiB video holds no more of it in memory
// than probing a thumbnail.
import { open } from 'node:fs/promises';
import type { ProbeFailure, ProbeResult } from './facts.ts';
import { walkTopLevelBoxes } from './iso-boxes.ts';
import { countPdfPages } from './pdf-pages.ts';
import { probeImage } from './probe-image.ts';
import { probeVideo, runFfprobe } from './probe-video.ts';
import { sniff, SNIFF_BYTES } from './sniff.ts';

export type { ProbeFailure, ProbeResult } from './facts.ts';

export interface ProberOptions {
  /** ffprobe's path or name on PATH; Herald's configuration defaults it to 'ffprobe'. */
  ffprobePath: string;
  /** Upper bound for one probe. */
  timeoutMs: number;
  /** Largest image (pixels of one frame) decoded; larger ones are unreadable. */
  maxImagePixels: number;
}

export interface Prober {
  probe(path: string): Promise<ProbeResult>;
  /** For start-up and /readyz: is ffprobe there, and which version. */
  checkFfprobe(): Promise<{ ok: true; version: string } | { ok: false; message: string }>;
}

function timeoutAfter(ms: number): { promise: Promise<ProbeFailure>; cancel: () => void } {
  let timer: NodeJS.Timeout | undefined;
  const promise = new Promise<ProbeFailure>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, reason: 'timeout', message: `probing took longer than ${ms} ms` }), ms);
  });
  return { promise, cancel: () => clearTimeout(timer) };
}

export function createProber(options: ProberOptions): Prober {
  async function probeUnbounded(path: string): Promise<ProbeResult> {
    const file = await open(path, 'r');
    try {
      const { size } = await file.stat();
      const head = Buffer.alloc(Math.min(SNIFF_BYTES, size));
      await file.read(head, 0, head.length, 0);
      const sniffed = sniff(head);
      if (!sniffed) return { ok: false, reason: 'unsupported', message: 'the file is not a JPEG, PNG, WebP, GIF, HEIC, MP4, QuickTime or PDF file' };
      if (sniffed.kind === 'document') {
        const pages = await countPdfPages(file, size);
        if (!pages.ok) return { ok: false, reason: 'unreadable', message: pages.message };
        return { ok: true, facts: { kind: 'document', format: 'pdf', contentType: sniffed.contentType, bytes: size, pages: pages.pages } };
      }
      // MP4, QuickTime and HEIC are ISO boxes: the box sizes tell whether the file was cut short.
      if (sniffed.kind === 'video' || sniffed.format === 'heic') {
        const walk = await walkTopLevelBoxes(file, size);
        if (walk.problem) return { ok: false, reason: 'unreadable', message: walk.problem };
      }
      if (sniffed.kind === 'video') return probeVideo(path, sniffed, size, options);
      return probeImage(path, sniffed, size, { maxPixels: options.maxImagePixels, timeoutMs: options.timeoutMs });
    } finally {
      await file.close();
    }
  }

  return {
    async probe(path) {
      // The image and video probes bound their own work (sharp's timeout, ffprobe is killed); this bound
      // covers the rest, so a caller always gets an answer in time.
      const limit = timeoutAfter(options.timeoutMs + 1000);
      try {
        return await Promise.race([probeUnbounded(path), limit.promise]);
      } finally {
        limit.cancel();
      }
    },
    async checkFfprobe() {
      const run = await runFfprobe(options.ffprobePath, ['-version'], options.timeoutMs);
      if (!run.ok) return { ok: false, message: run.message };
      return { ok: true, version: run.stdout.split('\n')[0]!.trim() };
    },
  };
}
