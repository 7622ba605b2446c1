// Media processing as the emulator models it: after its bytes arrive (images, documents) or it is
// finalized (videos), a file is PROCESSING for a while, then AVAILABLE, or PROCESSING_FAILED when it
// breaks LinkedIn's rules (format, bytes, pixels, duration, pages: platforms.md 7.6 and 7.8).
import { DOCUMENT_RULES, IMAGE_RULES, VIDEO_RULES } from '../../platforms/linkedin/info.ts';
import { imageDimensions, mp4DurationSec, pdfPageCount, sniffFileType } from '../../platforms/linkedin/media-file.ts';
import type { MediaRecord } from './store.ts';

/** Why LinkedIn would fail to process this file, or null when it would not. */
export function processingFailure(rec: MediaRecord): string | null {
  const bytes = rec.bytes ?? Buffer.alloc(0);
  const type = sniffFileType(bytes);
  if (rec.kind === 'image') {
    if (!type || !(IMAGE_RULES.contentTypes as readonly string[]).includes(type)) return 'not a JPEG, PNG or GIF image';
    if (bytes.length > IMAGE_RULES.maxBytes) return `image of ${bytes.length} bytes exceeds ${IMAGE_RULES.maxBytes}`;
    const size = imageDimensions(bytes, type);
    if (size && size.width * size.height >= IMAGE_RULES.maxPixels) return `image of ${size.width}x${size.height} pixels`;
    return null;
  }
  if (rec.kind === 'document') {
    if (type !== 'application/pdf') return 'not a supported document';
    if (bytes.length > DOCUMENT_RULES.maxBytes) return `document of ${bytes.length} bytes exceeds ${DOCUMENT_RULES.maxBytes}`;
    const pages = pdfPageCount(bytes);
    if (pages !== null && pages > DOCUMENT_RULES.maxPages) return `document of ${pages} pages exceeds ${DOCUMENT_RULES.maxPages}`;
    return null;
  }
  if (type !== 'video/mp4') return 'not an MP4 video';
  if (bytes.length < VIDEO_RULES.minBytes) return `video of ${bytes.length} bytes is under ${VIDEO_RULES.minBytes}`;
  if (bytes.length > VIDEO_RULES.maxBytes) return `video of ${bytes.length} bytes exceeds ${VIDEO_RULES.maxBytes}`;
  const seconds = mp4DurationSec(bytes);
  if (seconds !== null && (seconds < VIDEO_RULES.minDurationSec || seconds > VIDEO_RULES.maxDurationSec)) return `video of ${seconds} s`;
  return null;
}

/** Moves a record out of PROCESSING once its time has come. */
export function settleMedia(rec: MediaRecord, now: number): void {
  if (rec.state !== 'PROCESSING' || rec.readyAt === undefined || now < rec.readyAt) return;
  const failure = processingFailure(rec);
  rec.state = failure ? 'PROCESSING_FAILED' : 'AVAILABLE';
  if (failure) rec.failure = failure;
  // Only the size is kept: a sandbox running for weeks must not hold every file it was sent.
  rec.size = rec.bytes?.length ?? 0;
  rec.bytes = undefined;
}

/** The bytes of a video from its parts, in order. */
export function joinParts(rec: MediaRecord): Buffer {
  return Buffer.concat((rec.parts ?? []).map((p) => p.data ?? Buffer.alloc(0)));
}
