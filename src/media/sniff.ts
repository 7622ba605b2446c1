// Recognises a file's kind from its first bytes (magic numbers), never from the declared Content-Type or
// the file name: a PNG uploaded as photo.jpg is a PNG, and an HTML page sent as image/jpeg is nothing we
// accept. Only the formats API.md section 10 accepts are recognised; anything else is null (→ 415).
import type { ImageFormat, VideoContainer } from './facts.ts';

/** How many leading bytes sniff wants; fewer are fine when the file is shorter. */
export const SNIFF_BYTES = 512;

export type Sniffed =
  | { kind: 'image'; format: ImageFormat; contentType: string }
  | { kind: 'video'; container: VideoContainer; contentType: string }
  | { kind: 'document'; format: 'pdf'; contentType: 'application/pdf' };

const ascii = (b: Uint8Array, start: number, length: number): string => {
  if (start + length > b.length) return '';
  let out = '';
  for (let i = start; i < start + length; i++) out += String.fromCharCode(b[i]!);
  return out;
};

const startsWith = (b: Uint8Array, bytes: readonly number[], at = 0): boolean =>
  b.length >= at + bytes.length && bytes.every((v, i) => b[at + i] === v);

const u32 = (b: Uint8Array, at: number): number => ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;

// ISO base media (ftyp) brands. HEIF stills and sequences first: an iPhone photo says 'heic', a burst or
// Live Photo sequence 'hevc'/'msf1'. AVIF shares the container ('mif1' + 'avif') but is not accepted.
const HEIC_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'hevm', 'hevs']);
const HEIF_GENERIC_BRANDS = new Set(['mif1', 'msf1', 'mif2']);
const AVIF_BRANDS = new Set(['avif', 'avis']);
const MP4_BRANDS = new Set([
  'isom', 'iso2', 'iso3', 'iso4', 'iso5', 'iso6', 'iso7', 'iso8', 'iso9',
  'mp41', 'mp42', 'mp71', 'avc1', 'hvc1', 'hev1', 'dash', 'cmfc', 'M4V ', 'M4VH', 'M4VP', 'mmp4', 'MSNV', 'XAVC', 'f4v ',
]);
const QUICKTIME_BRAND = 'qt  ';
// Major brands of files that are not movies, though they list MP4 brands as compatible: audio (M4A, M4B),
// 3GPP phone video (not accepted), Canon raw photos.
const NOT_ACCEPTED_MAJOR = /^(M4A |M4B |M4P |F4A |F4B |3g..|crx )$/;
// Atoms a QuickTime movie without ftyp (older cameras and editors) may begin with.
const QUICKTIME_FIRST_ATOMS = new Set(['moov', 'mdat', 'wide', 'pnot']);
const QUICKTIME_PADDING_ATOMS = new Set(['free', 'skip']);

function ftypBrands(b: Uint8Array): string[] | null {
  if (ascii(b, 4, 4) !== 'ftyp') return null;
  const size = u32(b, 0);
  if (size < 16) return null;
  const end = Math.min(size, b.length);
  const brands = [ascii(b, 8, 4)]; // major brand; [12, 16) is the minor version
  for (let at = 16; at + 4 <= end; at += 4) brands.push(ascii(b, at, 4));
  return brands;
}

function sniffFtyp(brands: string[]): Sniffed | null {
  const [major] = brands;
  if (NOT_ACCEPTED_MAJOR.test(major!)) return null;
  if (brands.some((brand) => AVIF_BRANDS.has(brand)) && !brands.some((brand) => HEIC_BRANDS.has(brand))) return null;
  // The major brand decides; compatible brands only when the major one is not one we know.
  for (const brand of brands) {
    if (HEIC_BRANDS.has(brand)) return { kind: 'image', format: 'heic', contentType: 'image/heic' };
    if (HEIF_GENERIC_BRANDS.has(brand)) return { kind: 'image', format: 'heic', contentType: 'image/heif' };
    if (brand === QUICKTIME_BRAND) return { kind: 'video', container: 'quicktime', contentType: 'video/quicktime' };
    if (MP4_BRANDS.has(brand)) return { kind: 'video', container: 'mp4', contentType: 'video/mp4' };
  }
  return null; // 3GP, M4A audio, CR3 raw photos, ...
}

function isAtomType(type: string): boolean {
  return /^[a-z]{4}$/.test(type);
}

function sniffBareQuickTime(b: Uint8Array): Sniffed | null {
  let at = 0;
  // Skip at most a few padding atoms, then require a movie atom.
  for (let hops = 0; hops < 4 && at + 8 <= b.length; hops++) {
    const size = u32(b, at);
    const type = ascii(b, at + 4, 4);
    if (!isAtomType(type)) return null;
    if (QUICKTIME_FIRST_ATOMS.has(type)) return { kind: 'video', container: 'quicktime', contentType: 'video/quicktime' };
    if (!QUICKTIME_PADDING_ATOMS.has(type) || size < 8) return null;
    at += size;
  }
  return null;
}

export function sniff(head: Uint8Array): Sniffed | null {
  if (startsWith(head, [0xff, 0xd8, 0xff])) return { kind: 'image', format: 'jpeg', contentType: 'image/jpeg' };
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { kind: 'image', format: 'png', contentType: 'image/png' };
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 4) === 'WEBP') return { kind: 'image', format: 'webp', contentType: 'image/webp' };
  const gif = ascii(head, 0, 6);
  if (gif === 'GIF87a' || gif === 'GIF89a') return { kind: 'image', format: 'gif', contentType: 'image/gif' };
  // PDF 1.x and 2.0 start with the header line; a leading byte-order mark or junk is not accepted (the page
  // counter reads offsets from the start of the file, and so do strict readers).
  if (ascii(head, 0, 5) === '%PDF-') return { kind: 'document', format: 'pdf', contentType: 'application/pdf' };
  const brands = ftypBrands(head);
  if (brands) return sniffFtyp(brands);
  return sniffBareQuickTime(head);
}
