// The pixel size of an image or video from its first bytes, for the `aspectRatio` of Bluesky embeds
// (clients lay posts out before the image loads). Pure: PNG IHDR, JPEG SOF (with EXIF orientation, which
// turns the displayed picture), WebP VP8/VP8L/VP8X, GIF screen descriptor, and an MP4's first video track
// header (tkhd). Anything else: null, and the caller decides.

export type ImageFormat = 'image/png' | 'image/jpeg' | 'image/webp' | 'image/gif';

export interface PixelSize {
  width: number;
  height: number;
}

export interface ImageInfo extends PixelSize {
  format: ImageFormat;
}

const u16be = (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!;
const u16le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8);
const u32be = (b: Uint8Array, i: number) => ((b[i]! << 24) >>> 0) + (b[i + 1]! << 16) + (b[i + 2]! << 8) + b[i + 3]!;
const u24le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16);
const ascii = (b: Uint8Array, i: number, n: number) => String.fromCharCode(...b.subarray(i, i + n));

function sized(format: ImageFormat, width: number, height: number): ImageInfo | null {
  return width > 0 && height > 0 ? { format, width, height } : null;
}

function png(b: Uint8Array): ImageInfo | null {
  if (b.length < 24 || ascii(b, 12, 4) !== 'IHDR') return null;
  return sized('image/png', u32be(b, 16), u32be(b, 20));
}

function gif(b: Uint8Array): ImageInfo | null {
  if (b.length < 10) return null;
  return sized('image/gif', u16le(b, 6), u16le(b, 8));
}

function webp(b: Uint8Array): ImageInfo | null {
  if (b.length < 30) return null;
  const chunk = ascii(b, 12, 4);
  if (chunk === 'VP8X') return sized('image/webp', u24le(b, 24) + 1, u24le(b, 27) + 1);
  if (chunk === 'VP8L') {
    if (b[20] !== 0x2f) return null;
    const bits = b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24);
    return sized('image/webp', (bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  if (chunk === 'VP8 ') {
    // Frame tag (3 bytes), start code 9d 01 2a, then 14-bit width and height.
    if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return null;
    return sized('image/webp', u16le(b, 26) & 0x3fff, u16le(b, 28) & 0x3fff);
  }
  return null;
}

/** EXIF orientation from an APP1 segment's TIFF header; 1 when absent or unreadable. */
function exifOrientation(b: Uint8Array, start: number, end: number): number {
  if (ascii(b, start, 6) !== 'Exif\0\0') return 1;
  const tiff = start + 6;
  const little = ascii(b, tiff, 2) === 'II';
  const r16 = (i: number) => (little ? u16le(b, i) : u16be(b, i));
  const r32 = (i: number) => (little ? (b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)) >>> 0 : u32be(b, i));
  const ifd = tiff + r32(tiff + 4);
  if (ifd + 2 > end) return 1;
  const entries = r16(ifd);
  for (let k = 0; k < entries; k++) {
    const e = ifd + 2 + k * 12;
    if (e + 12 > end) return 1;
    if (r16(e) === 0x0112) return r16(e + 8);
  }
  return 1;
}

function jpeg(b: Uint8Array): ImageInfo | null {
  let i = 2;
  let orientation = 1;
  while (i + 4 <= b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i++;
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      i += 2;
      continue;
    }
    const length = u16be(b, i + 2);
    if (length < 2) return null;
    if (marker === 0xe1) orientation = exifOrientation(b, i + 4, Math.min(b.length, i + 2 + length));
    // SOF0–SOF15 except DHT (c4), JPG (c8) and DAC (cc).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (i + 9 > b.length) return null;
      const height = u16be(b, i + 5);
      const width = u16be(b, i + 7);
      // Orientations 5–8 turn the picture a quarter: its displayed sides are the stored ones swapped.
      return orientation >= 5 && orientation <= 8 ? sized('image/jpeg', height, width) : sized('image/jpeg', width, height);
    }
    i += 2 + length;
  }
  return null;
}

/** The format (by magic bytes) and displayed pixel size of an image, or null. */
export function readImageInfo(bytes: Uint8Array): ImageInfo | null {
  const b = bytes;
  if (b.length >= 8 && b[0] === 0x89 && ascii(b, 1, 3) === 'PNG') return png(b);
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return jpeg(b);
  if (b.length >= 12 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'WEBP') return webp(b);
  if (b.length >= 6 && (ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a')) return gif(b);
  return null;
}

/** True when the bytes start like an ISO base media file (MP4: an `ftyp` box first). */
export function isMp4(bytes: Uint8Array): boolean {
  return bytes.length >= 12 && ascii(bytes, 4, 4) === 'ftyp';
}

const CONTAINERS = new Set(['moov', 'trak', 'mdia', 'minf', 'stbl', 'edts']);

/** The presentation size of an MP4's first track with one (tkhd width/height, 16.16 fixed point). */
export function readMp4Size(bytes: Uint8Array): PixelSize | null {
  const walk = (start: number, end: number, depth: number): PixelSize | null => {
    let i = start;
    while (i + 8 <= end && depth < 6) {
      let size = u32be(bytes, i);
      const type = ascii(bytes, i + 4, 4);
      let header = 8;
      if (size === 1) {
        if (i + 16 > end) return null;
        size = u32be(bytes, i + 8) * 2 ** 32 + u32be(bytes, i + 12);
        header = 16;
      } else if (size === 0) {
        size = end - i;
      }
      if (size < header || i + size > end) return null;
      if (type === 'tkhd') {
        const version = bytes[i + header]!;
        const at = i + header + (version === 1 ? 88 : 76);
        if (at + 8 <= i + size) {
          const width = Math.round(u32be(bytes, at) / 65536);
          const height = Math.round(u32be(bytes, at + 4) / 65536);
          if (width > 0 && height > 0) return { width, height };
        }
      } else if (CONTAINERS.has(type)) {
        const found = walk(i + header, i + size, depth + 1);
        if (found) return found;
      }
      i += size;
    }
    return null;
  };
  return walk(0, bytes.length, 0);
}
