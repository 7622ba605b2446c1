// What Herald can tell about a file from its first bytes: which video container it is (named in
// X-Upload-Content-Type), and whether a thumbnail is the JPEG or PNG YouTube takes. Files that are plainly
// not video (an image, a PDF, a web page) are refused before anything is uploaded.

function ascii(bytes: Uint8Array, start: number, length: number): string {
  let s = '';
  for (let i = start; i < start + length && i < bytes.length; i++) s += String.fromCharCode(bytes[i]!);
  return s;
}

export type VideoSniff = { kind: 'video'; mimeType: string } | { kind: 'unknown' } | { kind: 'not_video'; what: string };

export function sniffVideo(bytes: Uint8Array): VideoSniff {
  if (bytes.length >= 12 && ascii(bytes, 4, 4) === 'ftyp') {
    const brand = ascii(bytes, 8, 4);
    if (brand === 'qt  ') return { kind: 'video', mimeType: 'video/quicktime' };
    if (brand.startsWith('3g')) return { kind: 'video', mimeType: 'video/3gpp' };
    if (/^(heic|heix|mif1|msf1|avif)/.test(brand)) return { kind: 'not_video', what: 'a HEIF/AVIF image' };
    return { kind: 'video', mimeType: 'video/mp4' };
  }
  if (bytes.length >= 4 && bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) return { kind: 'video', mimeType: 'video/webm' };
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'AVI ') return { kind: 'video', mimeType: 'video/x-msvideo' };
  if (ascii(bytes, 0, 3) === 'FLV') return { kind: 'video', mimeType: 'video/x-flv' };
  if (bytes.length >= 4 && bytes[0] === 0 && bytes[1] === 0 && bytes[2] === 1 && (bytes[3] === 0xba || bytes[3] === 0xb3)) return { kind: 'video', mimeType: 'video/mpeg' };
  const image = sniffImage(bytes);
  if (image) return { kind: 'not_video', what: `an image (${image})` };
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return { kind: 'not_video', what: 'an image (image/webp)' };
  if (ascii(bytes, 0, 3) === 'GIF') return { kind: 'not_video', what: 'an image (image/gif)' };
  if (ascii(bytes, 0, 5) === '%PDF-') return { kind: 'not_video', what: 'a PDF document' };
  const head = ascii(bytes, 0, 64).trimStart().toLowerCase();
  if (head.startsWith('<!doctype html') || head.startsWith('<html')) return { kind: 'not_video', what: 'a web page' };
  // WMV/ASF, MXF, ProRes in other wrappers…: YouTube takes many formats Herald does not name.
  return { kind: 'unknown' };
}

/** The thumbnail formats thumbnails.set takes (§8.5). */
export function sniffImage(bytes: Uint8Array): 'image/jpeg' | 'image/png' | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (ascii(bytes, 0, 8) === '\x89PNG\r\n\x1a\n') return 'image/png';
  return undefined;
}
