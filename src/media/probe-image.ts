// Image facts from libvips (sharp), read from the file's path so that sharp streams it rather than Herald
// holding it. The header gives format and size; a decode of a small preview then proves the pixels are all
// there (a JPEG cut short still has a perfect header). The preview uses shrink-on-load, so checking a
// 12-megapixel JPEG decodes it at 1/8 scale.
import sharp, { type Metadata } from 'sharp';
import type { ImageFacts, ImageFormat, ProbeFailure } from './facts.ts';

// libvips keeps the last 100 operations (and up to 50 MB, 20 open files) in a cache for reuse. Herald reads
// each upload once and never again, so the cache only holds memory (10–20 MB less resident after 300
// probes, measured): off for the whole process (renditions.ts, the other user of sharp, does the same).
sharp.cache(false);

export interface ImageProbeOptions {
  /** Images with more pixels are refused before decoding (libvips' own default is 268 million). */
  maxPixels: number;
  timeoutMs: number;
}

const SHARP_FORMATS: Record<string, ImageFormat> = { jpeg: 'jpeg', png: 'png', webp: 'webp', gif: 'gif', heif: 'heic' };

// HEIC's pixels are HEVC, and the prebuilt libvips has no HEVC decoder (patents): its header is read, and
// its boxes walked for truncation (see iso-boxes.ts), but it is not decoded here.
const DECODABLE = new Set<ImageFormat>(['jpeg', 'png', 'webp', 'gif']);

/** EXIF orientations 5–8 turn the picture a quarter, so its displayed sides are the stored ones swapped. */
export const swapsSides = (orientation: number) => orientation >= 5 && orientation <= 8;

function firstLine(err: unknown): string {
  return String((err as Error)?.message ?? err).split('\n')[0]!.replace(/^[^:]*\.(jpe?g|png|webp|gif|heic|heif|tmp)[^:]*: /i, '');
}

export async function probeImage(
  path: string,
  expected: { format: ImageFormat; contentType: string },
  bytes: number,
  options: ImageProbeOptions,
): Promise<{ ok: true; facts: ImageFacts } | ProbeFailure> {
  let meta: Metadata;
  try {
    // limitInputPixels off for the header read: the limit is applied below with a message that says so.
    meta = await sharp(path, { limitInputPixels: false }).metadata();
  } catch (err) {
    return { ok: false, reason: 'unreadable', message: `the image cannot be read: ${firstLine(err)}` };
  }
  const format = SHARP_FORMATS[meta.format ?? ''];
  if (format !== expected.format) {
    return { ok: false, reason: 'unreadable', message: `the file starts like ${expected.format.toUpperCase()} but does not read as one` };
  }
  if (!meta.width || !meta.height) return { ok: false, reason: 'unreadable', message: 'the image has no size' };
  const frames = meta.pages ?? 1;
  const frameHeight = meta.pageHeight ?? meta.height;
  const pixels = meta.width * frameHeight;
  if (pixels > options.maxPixels) {
    return {
      ok: false,
      reason: 'unreadable',
      message: `the image is too large to process: ${meta.width}×${frameHeight} is ${Math.round(pixels / 1e6)} megapixels, the limit is ${Math.round(options.maxPixels / 1e6)}`,
    };
  }
  if (DECODABLE.has(format)) {
    const problem = await decodeProblem(path, options);
    if (problem) return problem;
  }
  const orientation = meta.orientation ?? 1;
  const swapped = swapsSides(orientation);
  return {
    ok: true,
    facts: {
      kind: 'image',
      format,
      contentType: expected.contentType,
      bytes,
      width: swapped ? frameHeight : meta.width,
      height: swapped ? meta.width : frameHeight,
      frames,
      orientation,
      hasAlpha: meta.hasAlpha ?? false,
    },
  };
}

async function decodeProblem(path: string, options: ImageProbeOptions): Promise<ProbeFailure | null> {
  // failOn 'truncated': a missing tail fails; the harmless warnings many cameras' JPEGs raise do not.
  // animated: every frame of a GIF or WebP is decoded, so a cut in frame 40 is found too.
  const pipeline = sharp(path, { failOn: 'truncated', limitInputPixels: options.maxPixels, animated: true })
    .resize(256, 256, { fit: 'inside', withoutEnlargement: true })
    .raw()
    .timeout({ seconds: Math.max(1, Math.ceil(options.timeoutMs / 1000)) });
  try {
    await pipeline.toBuffer();
    return null;
  } catch (err) {
    const message = firstLine(err);
    if (/timeout/i.test(message)) return { ok: false, reason: 'timeout', message: `decoding the image took longer than ${options.timeoutMs} ms` };
    return { ok: false, reason: 'unreadable', message: `the image is damaged or truncated: ${message}` };
  }
}
