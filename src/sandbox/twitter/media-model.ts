// Uploaded media as X models it: declared type and category, chunks by segment index, and the
// processing state machine (pending → in_progress → succeeded | failed) that GIFs and videos go
// through after FINALIZE, timed by the emulator's processingMs.
import { sniffMediaType } from '../media.ts';
import type { MediaKind, StoredMedia } from './state.ts';

export const MEDIA_KINDS: Record<string, MediaKind> = {
  'image/jpeg': 'image',
  'image/pjpeg': 'image',
  'image/png': 'image',
  'image/webp': 'image',
  'image/bmp': 'image',
  'image/tiff': 'image',
  'image/gif': 'gif',
  'video/mp4': 'video',
  'video/webm': 'video',
  'video/mp2t': 'video',
  'video/quicktime': 'video',
};
/** Each media_category and the kinds of media it takes (a still GIF may go up as an image). */
const CATEGORY_KINDS: Record<string, readonly MediaKind[]> = {
  tweet_image: ['image', 'gif'],
  dm_image: ['image', 'gif'],
  tweet_gif: ['gif'],
  dm_gif: ['gif'],
  tweet_video: ['video'],
  amplify_video: ['video'],
  dm_video: ['video'],
};
export const MEDIA_CATEGORIES = new Set(Object.keys(CATEGORY_KINDS));
const ASYNC_CATEGORIES = new Set(['tweet_gif', 'tweet_video', 'amplify_video', 'dm_gif', 'dm_video']);

/** v1.1 documented 5 MB per APPEND; the emulator holds v2 to the same. */
export const MAX_CHUNK_BYTES = 5 * 1024 * 1024;
export const MAX_SEGMENT_INDEX = 999;
/** The emulator keeps uploads in memory, so it stops at 512 MB (X itself takes far more). */
export const MAX_TOTAL_BYTES = 512 * 1024 * 1024;
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** Animated GIFs: 15 MB. */
export const MAX_GIF_BYTES = 15 * 1024 * 1024;

/** Why a declared upload cannot be taken (category that does not fit the type, file too large), or undefined. */
export function declarationProblem(kind: MediaKind, category: string, totalBytes: number): { message: string; parameter: string } | undefined {
  if (!CATEGORY_KINDS[category]?.includes(kind)) return { message: `media_category [${category}] does not take ${kind} media.`, parameter: 'media_category' };
  const max = CATEGORY_KINDS[category]!.includes('video') ? MAX_TOTAL_BYTES : category.endsWith('_gif') ? MAX_GIF_BYTES : MAX_IMAGE_BYTES;
  if (totalBytes > max) return { message: `total_bytes [${totalBytes}] is over the ${max}-byte limit of ${category}.`, parameter: 'total_bytes' };
  return undefined;
}

export interface ProcessingInfo {
  state: 'pending' | 'in_progress' | 'succeeded' | 'failed';
  check_after_secs?: number;
  progress_percent?: number;
  error?: { code: number; name: string; message: string };
}

export function mediaKeyPrefix(kind: MediaKind, category: string): string {
  if (category === 'amplify_video') return '13_';
  return kind === 'image' ? '3_' : kind === 'gif' ? '16_' : '7_';
}

/** Why the bytes do not hold what was declared, or undefined when they do. */
export function contentMismatch(declaredType: string, bytes: Uint8Array): string | undefined {
  const sniffed = sniffMediaType(bytes);
  const family = declaredType.split('/')[0];
  if (!sniffed) return 'UnsupportedMedia';
  if (sniffed.split('/')[0] !== family) return 'InvalidContent';
  return undefined;
}

/** Where processing stands now; undefined for media that is ready without processing. */
export function processingInfo(m: StoredMedia, now: number, processingMs: number): ProcessingInfo | undefined {
  if (m.finalizedAt === undefined || !ASYNC_CATEGORIES.has(m.category)) return undefined;
  const elapsed = now - m.finalizedAt;
  if (elapsed < processingMs * 0.25) return { state: 'pending', check_after_secs: 1 };
  if (elapsed < processingMs) {
    return {
      state: 'in_progress',
      check_after_secs: Math.max(1, Math.ceil((processingMs - elapsed) / 1000)),
      progress_percent: Math.floor((elapsed / processingMs) * 100),
    };
  }
  if (m.invalidReason) {
    return {
      state: 'failed',
      progress_percent: 100,
      error: { code: 1, name: 'InvalidMedia', message: `Invalid or Unsupported media, Reason: ${m.invalidReason}.` },
    };
  }
  return { state: 'succeeded', progress_percent: 100 };
}
