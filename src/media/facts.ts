// What Herald knows about a stored media file, as the probe found it. Rules are checked against these facts
// and renditions report them for what they make; nothing here trusts a declared type or a file name.

export type MediaKind = 'image' | 'video' | 'document';
export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'gif' | 'heic';
export type VideoContainer = 'mp4' | 'quicktime';
export type DocumentFormat = 'pdf';

export interface ImageFacts {
  kind: 'image';
  format: ImageFormat;
  contentType: string;
  bytes: number;
  /** As displayed: EXIF orientation 5–8 (a quarter turn) already swaps the stored sides. */
  width: number;
  height: number;
  /** Frames of an animated GIF or WebP, 1 for a still image. */
  frames: number;
  /** The EXIF orientation tag (1–8) a rendition must apply; 1 when absent. */
  orientation: number;
  hasAlpha: boolean;
}

export interface VideoFacts {
  kind: 'video';
  container: VideoContainer;
  contentType: string;
  bytes: number;
  /** As displayed: a 90° or 270° rotation already swaps the coded sides. */
  width: number;
  height: number;
  durationMs: number;
  /** Frames per second (average rate), e.g. 29.97; null when the file does not say. */
  frameRate: number | null;
  /** ffprobe's codec names, e.g. 'h264', 'hevc', 'aac'; audioCodec null for a silent video. */
  videoCodec: string;
  audioCodec: string | null;
  /** Clockwise display rotation in degrees (0, 90, 180, 270). */
  rotation: number;
}

export interface DocumentFacts {
  kind: 'document';
  format: DocumentFormat;
  contentType: string;
  bytes: number;
  pages: number;
}

export type MediaFacts = ImageFacts | VideoFacts | DocumentFacts;

/** Why a probe found no facts; each reason maps to one answer of the upload routes. */
export type ProbeFailure =
  /** Not a format Herald accepts (→ 415 UNSUPPORTED_MEDIA_TYPE). */
  | { ok: false; reason: 'unsupported'; message: string }
  /** Recognised, but truncated, corrupt or impossible to process (→ 400 MEDIA_UNREADABLE). */
  | { ok: false; reason: 'unreadable'; message: string }
  /** The probe ran out of time: a pathological file, or a machine under load. */
  | { ok: false; reason: 'timeout'; message: string }
  /** ffprobe is not installed or not runnable: the operator's problem, not the file's. */
  | { ok: false; reason: 'prober_missing'; message: string };

export type ProbeResult = { ok: true; facts: MediaFacts } | ProbeFailure;
