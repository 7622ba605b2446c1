// Media bytes for a Pin, fetched through Herald's outbound guard and recognised from their first bytes:
// what Pinterest would refuse is refused here, before anything is sent.
import type { AdapterDeps } from '../deps.ts';
import { failure, type MediaItem, type PlatformFailure } from '../types.ts';
import { IMAGE_RULES, VIDEO_RULES } from './info.ts';

export type ImageType = (typeof IMAGE_RULES.urlContentTypes)[number];
export type VideoType = (typeof VIDEO_RULES.containers)[number];

function ascii(bytes: Uint8Array, start: number, length: number): string {
  let s = '';
  for (let i = start; i < start + length && i < bytes.length; i++) s += String.fromCharCode(bytes[i]!);
  return s;
}

export function sniffImage(b: Uint8Array): ImageType | undefined {
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (ascii(b, 0, 8) === '\x89PNG\r\n\x1a\n') return 'image/png';
  if (ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a') return 'image/gif';
  if (ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'WEBP') return 'image/webp';
  if (ascii(b, 0, 2) === 'BM') return 'image/bmp';
  if (ascii(b, 0, 4) === 'II*\0' || ascii(b, 0, 4) === 'MM\0*') return 'image/tiff';
  return undefined;
}

/** MP4 and QuickTime both start with an ftyp box; `qt  ` brands QuickTime. */
export function sniffVideo(b: Uint8Array): VideoType | undefined {
  if (b.length < 12 || ascii(b, 4, 4) !== 'ftyp') return undefined;
  return ascii(b, 8, 4) === 'qt  ' ? 'video/quicktime' : 'video/mp4';
}

/** A URL as it may appear in a message: query strings can carry signatures (presigned library URLs). */
export function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return 'the media URL';
  }
}

export interface LoadedImage {
  item: MediaItem;
  bytes: Uint8Array;
  contentType: ImageType;
}

async function loadImage(deps: AdapterDeps, item: MediaItem, index: number): Promise<LoadedImage | PlatformFailure> {
  const fetched = await deps.media.fetch(item, { maxBytes: IMAGE_RULES.maxBytes });
  const where = `image ${index + 1} (${displayUrl(item.url)})`;
  if (!fetched.ok) return failure(fetched.transient ? 'platform_unavailable' : 'media_rejected', `could not fetch ${where}: ${fetched.message}`);
  const contentType = sniffImage(fetched.bytes);
  if (!contentType) return failure('media_rejected', `${where} is not a JPEG, PNG, GIF, WebP, BMP or TIFF image, the formats Pinterest takes`);
  return { item, bytes: fetched.bytes, contentType };
}

export async function loadImages(deps: AdapterDeps, items: MediaItem[]): Promise<LoadedImage[] | PlatformFailure> {
  const loaded = await Promise.all(items.map((item, i) => loadImage(deps, item, i)));
  // A transient failure wins over a permanent one only when nothing is wrong with the media itself.
  const rejected = loaded.find((l): l is PlatformFailure => 'ok' in l && l.category === 'media_rejected');
  const other = loaded.find((l): l is PlatformFailure => 'ok' in l);
  if (rejected ?? other) return (rejected ?? other)!;
  return loaded as LoadedImage[];
}

/** Whether these images can go as bytes (image_base64): JPEG or PNG, and small enough together. */
export function fitsBase64(images: LoadedImage[], maxTotalBytes: number): boolean {
  const total = images.reduce((n, i) => n + i.bytes.byteLength, 0);
  return total <= maxTotalBytes && images.every((i) => (IMAGE_RULES.base64ContentTypes as readonly string[]).includes(i.contentType));
}

export interface LoadedVideo {
  bytes: Uint8Array;
  contentType: VideoType;
}

export async function loadVideo(deps: AdapterDeps, item: MediaItem, maxBytes: number): Promise<LoadedVideo | PlatformFailure> {
  const fetched = await deps.media.fetch(item, { maxBytes });
  const where = `the video (${displayUrl(item.url)})`;
  if (!fetched.ok) return failure(fetched.transient ? 'platform_unavailable' : 'media_rejected', `could not fetch ${where}: ${fetched.message}`);
  const contentType = sniffVideo(fetched.bytes);
  if (!contentType) return failure('media_rejected', `${where} is not an MP4 or MOV video, the formats Pinterest takes`);
  return { bytes: fetched.bytes, contentType };
}
