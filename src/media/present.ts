// Rows → the media object of API.md section 10, and the public addresses of a file and its renditions.
import type { MediaRenditionRow, MediaRow } from '../db/schema.ts';
import { isoTime } from '../lib/iso-time.ts';
import type { MediaOut } from './schemas.ts';

const EXTENSION: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/heic': 'heic',
  'image/heif': 'heif',
  'video/mp4': 'mp4',
  'video/quicktime': 'mov',
  'application/pdf': 'pdf',
};

export function extensionOf(contentType: string): string {
  return EXTENSION[contentType] ?? 'bin';
}

/**
 * The file name shown in the public URL: the caller's name cut to safe characters, with the extension of
 * what the bytes are (a PNG named photo.jpg is served as photo.png: platforms judge a file by its name too).
 */
export function publicFilename(requested: string | undefined, id: string, contentType: string): string {
  const base = (requested ?? '')
    .split(/[\\/]/)
    .pop()!
    .replace(/\.[A-Za-z0-9]{1,5}$/, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .replace(/-+$/, '')
    .slice(0, 100);
  return `${base || id}.${extensionOf(contentType)}`;
}

export interface PublicUrls {
  /** HERALD_PUBLIC_URL (or where Herald listens), read when needed. */
  base(): string;
}

export const originalPath = (m: Pick<MediaRow, 'token' | 'filename'>) => `/media/${m.token}/${m.filename}`;
export const renditionName = (r: Pick<MediaRenditionRow, 'rule_key' | 'content_type'>) => `${r.rule_key}.${extensionOf(r.content_type)}`;
export const renditionPath = (m: Pick<MediaRow, 'token'>, r: Pick<MediaRenditionRow, 'rule_key' | 'content_type'>) => `/media/${m.token}/fit/${renditionName(r)}`;

export function presentMedia(m: MediaRow, publicBase: string): MediaOut {
  return {
    id: m.id,
    type: m.type,
    contentType: m.content_type,
    bytes: Number(m.bytes),
    sha256: m.sha256,
    width: m.width,
    height: m.height,
    durationMs: m.duration_ms === null ? null : Number(m.duration_ms),
    frameRate: m.frame_rate,
    videoCodec: m.video_codec,
    audioCodec: m.audio_codec,
    pages: m.pages,
    altText: m.alt_text,
    url: `${publicBase}${originalPath(m)}`,
    createdAt: isoTime(Number(m.created_at)),
  };
}
