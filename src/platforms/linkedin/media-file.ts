// What can be told about a file from its bytes before LinkedIn sees it: the format (LinkedIn takes
// JPEG, PNG and GIF images, MP4 videos, PDF documents), an image's pixel size, a video's duration and a
// PDF's page count where they can be read. Pure; the emulator applies the same reading.

import { ascii } from '../../lib/mp4.ts';
export { mp4DurationSec } from '../../lib/mp4.ts';

export type LinkedInFileType = 'image/jpeg' | 'image/png' | 'image/gif' | 'video/mp4' | 'application/pdf';

export function sniffFileType(bytes: Uint8Array): LinkedInFileType | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 8 && ascii(bytes, 0, 8) === '\x89PNG\r\n\x1a\n') return 'image/png';
  if (bytes.length >= 6 && (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a')) return 'image/gif';
  if (bytes.length >= 12 && ascii(bytes, 4, 4) === 'ftyp' && ascii(bytes, 8, 4) !== 'qt  ') return 'video/mp4';
  if (bytes.length >= 5 && ascii(bytes, 0, 5) === '%PDF-') return 'application/pdf';
  return undefined;
}

export interface Dimensions {
  width: number;
  height: number;
}

function jpegDimensions(b: Uint8Array): Dimensions | null {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1]!;
    // Fill bytes, then standalone markers carry no length.
    if (marker === 0xff) {
      i += 1;
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2;
      continue;
    }
    const length = (b[i + 2]! << 8) | b[i + 3]!;
    // SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC) hold the frame size.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: (b[i + 5]! << 8) | b[i + 6]!, width: (b[i + 7]! << 8) | b[i + 8]! };
    }
    i += 2 + length;
  }
  return null;
}

/** Pixel size from the file header, or null when it cannot be read. */
export function imageDimensions(bytes: Uint8Array, type: LinkedInFileType): Dimensions | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (type === 'image/png') return bytes.length >= 24 ? { width: view.getUint32(16), height: view.getUint32(20) } : null;
  if (type === 'image/gif') return bytes.length >= 10 ? { width: view.getUint16(6, true), height: view.getUint16(8, true) } : null;
  if (type === 'image/jpeg') return jpegDimensions(bytes);
  return null;
}

/**
 * Pages of a PDF as its uncompressed page objects count them (`/Type /Page`), or null when none can be
 * seen (object streams hide them). A lower bound, good enough to refuse a document that is too long.
 */
export function pdfPageCount(bytes: Uint8Array): number | null {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const pages = text.match(/\/Type\s*\/Page(?![A-Za-z])/g)?.length ?? 0;
  return pages > 0 ? pages : null;
}
