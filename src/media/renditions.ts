// Makes the rendition planFit asked for: the picture turned upright (EXIF orientation), centre-cropped,
// letterboxed in white or just scaled to exactly width×height, with every metadata block dropped (sharp
// keeps none unless told: no EXIF, so no GPS position and no stale orientation), converted to sRGB, and
// encoded as JPEG or PNG under the byte limit. The original is only read.
//
// Speed: the source is decoded once. sharp reads a JPEG with shrink-on-load (libjpeg decodes at 1/2, 1/4
// or 1/8 scale when the target is that much smaller), so a 12-megapixel photo is never decoded in full for a
// 1440 px rendition. The scaled pixels are kept raw, and only the encode is repeated when a byte limit needs
// a lower quality (and, failing that, a smaller size).
import { writeFile } from 'node:fs/promises';
import sharp from 'sharp';
import type { ImageFacts } from './facts.ts';
import { scaleWithin } from './geometry.ts';
import type { RenditionSpec } from './rules.ts';

// Each source is rendered once per publish: libvips' operation cache would only hold memory (see probe-image.ts).
sharp.cache(false);

export type RenditionResult =
  | { ok: true; facts: ImageFacts; quality: number | null }
  /** unsupported_input: a format this libvips cannot decode (HEIC); unreadable: a damaged source; cannot_fit: no quality or size fits maxBytes. */
  | { ok: false; reason: 'unsupported_input' | 'unreadable' | 'cannot_fit' | 'timeout'; message: string };

export interface RenditionOptions {
  /** JPEG qualities tried in turn until the file fits maxBytes. */
  qualities?: readonly number[];
  /** Shrinks (each to this fraction of the last size) tried after the lowest quality still does not fit. */
  shrinkStep?: number;
  maxShrinks?: number;
  timeoutMs?: number;
  maxInputPixels?: number;
}

const DEFAULTS: Required<RenditionOptions> = { qualities: [88, 80, 72, 64, 56], shrinkStep: 0.8, maxShrinks: 8, timeoutMs: 30_000, maxInputPixels: 268_402_689 };
const WHITE = { r: 255, g: 255, b: 255, alpha: 1 };

interface Raw {
  data: Buffer;
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
}

function failure(err: unknown, timeoutMs: number): RenditionResult {
  const message = String((err as Error)?.message ?? err).split('\n').filter((l) => !/bad seek/.test(l)).join(' ');
  if (/compression format has not been built in|no decoder|not a known file format|unsupported image format/i.test(message)) {
    return { ok: false, reason: 'unsupported_input', message: `this server cannot decode the image: ${message.slice(0, 200)}` };
  }
  if (/timeout/i.test(message)) return { ok: false, reason: 'timeout', message: `the rendition took longer than ${timeoutMs} ms` };
  return { ok: false, reason: 'unreadable', message: `the image cannot be decoded: ${message.slice(0, 200)}` };
}

/** Decodes, orients, crops or pads, and scales the source to width×height, as raw pixels. */
async function render(inputPath: string, spec: RenditionSpec, width: number, height: number, o: Required<RenditionOptions>): Promise<Raw> {
  let img = sharp(inputPath, { failOn: 'truncated', limitInputPixels: o.maxInputPixels })
    .autoOrient()
    .timeout({ seconds: Math.max(1, Math.ceil(o.timeoutMs / 1000)) });
  if (spec.mode === 'pad') img = img.resize(width, height, { fit: 'contain', background: WHITE, position: 'centre' });
  else if (spec.mode === 'crop') img = img.resize(width, height, { fit: 'cover', position: 'centre' });
  else img = img.resize(width, height, { fit: 'fill' });
  // JPEG has no transparency: what was see-through becomes white, as on a page.
  if (spec.format === 'jpeg') img = img.flatten({ background: WHITE });
  img = img.toColourspace('srgb');
  const { data, info } = await img.raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

async function encode(raw: Raw, format: 'jpeg' | 'png', quality: number, palette: boolean): Promise<Buffer> {
  const img = sharp(raw.data, { raw: { width: raw.width, height: raw.height, channels: raw.channels } });
  // 4:2:0 chroma and no progressive scan: what platforms' own encoders produce, and the fastest to encode.
  if (format === 'jpeg') return img.jpeg({ quality, chromaSubsampling: '4:2:0', mozjpeg: false }).toBuffer();
  return img.png({ compressionLevel: 6, palette, quality: palette ? quality : 100 }).toBuffer();
}

export async function makeRendition(inputPath: string, spec: RenditionSpec, outputPath: string, options: RenditionOptions = {}): Promise<RenditionResult> {
  const o: Required<RenditionOptions> = { ...DEFAULTS, ...options };
  let size = { width: spec.width, height: spec.height };
  let raw: Raw;
  try {
    raw = await render(inputPath, spec, size.width, size.height, o);
  } catch (err) {
    return failure(err, o.timeoutMs);
  }
  // PNG: lossless first, then a 256-colour palette (lossy, much smaller), then smaller sizes.
  const attempts: { quality: number; palette: boolean }[] =
    spec.format === 'jpeg' ? o.qualities.map((quality) => ({ quality, palette: false })) : [{ quality: 100, palette: false }, { quality: 90, palette: true }];
  for (let shrink = 0; shrink <= o.maxShrinks; shrink++) {
    for (const attempt of attempts) {
      const bytes = await encode(raw, spec.format, attempt.quality, attempt.palette);
      if (spec.maxBytes === undefined || bytes.length <= spec.maxBytes) {
        await writeFile(outputPath, bytes, { mode: 0o600 });
        return {
          ok: true,
          quality: spec.format === 'jpeg' || attempt.palette ? attempt.quality : null,
          facts: {
            kind: 'image',
            format: spec.format,
            contentType: spec.format === 'jpeg' ? 'image/jpeg' : 'image/png',
            bytes: bytes.length,
            width: raw.width,
            height: raw.height,
            frames: 1,
            orientation: 1,
            hasAlpha: raw.channels === 4 || raw.channels === 2,
          },
        };
      }
    }
    const next = scaleWithin(size.width, size.height, {}, spec.aspectRatio, o.shrinkStep);
    if (next.width === size.width && next.height === size.height) break;
    size = next;
    try {
      // From the source again, not from the scaled pixels: one resampling, not two.
      raw = await render(inputPath, spec, size.width, size.height, o);
    } catch (err) {
      return failure(err, o.timeoutMs);
    }
  }
  return { ok: false, reason: 'cannot_fit', message: `no version of the image fits in ${spec.maxBytes} bytes` };
}
