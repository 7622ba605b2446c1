// What a platform accepts, as data, and two pure functions over it: checkMedia lists every rule a file
// breaks, in words that name the limit and the file's own value; planFit decides what to publish instead:
// the file as it is, a rendition that fits (images only), or nothing (the violations). The rule values
// belong to the platforms: each platform's `media-rules.ts` holds its own, with their sources.
import type { DocumentFormat, ImageFacts, ImageFormat, MediaFacts, MediaKind, VideoContainer } from './facts.ts';
import { cropBox, describeRatio, formatRatio, inRange, nearestBound, padBox, scaleWithin, type AspectRange } from './geometry.ts';
import { formatBytes, formatDuration, formatList, formatNumber } from './rules-text.ts';

export type { AspectRange, Ratio } from './geometry.ts';

export interface ImageRules {
  formats: readonly ImageFormat[];
  maxBytes?: number;
  minWidth?: number;
  minHeight?: number;
  maxWidth?: number;
  maxHeight?: number;
  maxLongestSide?: number;
  maxPixels?: number;
  aspectRatio?: AspectRange;
  /** Animated GIFs or WebPs: absent means the platform takes still images only. Unset limits fall back to the still ones. */
  animated?: { maxBytes?: number; maxFrames?: number; maxWidth?: number; maxHeight?: number };
  /**
   * The longest side of a rendition, when one is made anyway (to change the format or meet a byte limit).
   * Not a limit: the platform scales larger images itself (Instagram to 1440 px wide).
   */
  renditionLongestSide?: number;
}

export interface VideoRules {
  containers: readonly VideoContainer[];
  minBytes?: number;
  maxBytes?: number;
  minDurationMs?: number;
  maxDurationMs?: number;
  minWidth?: number;
  minHeight?: number;
  maxWidth?: number;
  maxHeight?: number;
  maxPixels?: number;
  aspectRatio?: AspectRange;
  minFrameRate?: number;
  maxFrameRate?: number;
  /** ffprobe codec names ('h264', 'hevc', 'vp9'); absent means any. */
  videoCodecs?: readonly string[];
  /** ffprobe codec names ('aac'); a silent video always passes. */
  audioCodecs?: readonly string[];
}

export interface DocumentRules {
  formats: readonly DocumentFormat[];
  maxBytes?: number;
  maxPages?: number;
}

export interface MediaRules {
  /** The platform's display name, as messages use it ("Instagram accepts …"). */
  platform: string;
  image?: ImageRules;
  video?: VideoRules;
  document?: DocumentRules;
}

export type ViolationRule =
  | 'kind' | 'format' | 'animation' | 'frames' | 'bytes' | 'width' | 'height' | 'longest_side' | 'pixels' | 'aspect_ratio'
  | 'duration' | 'frame_rate' | 'video_codec' | 'audio_codec' | 'pages' | 'rendition';

export interface MediaViolation {
  rule: ViolationRule;
  /** A sentence naming the platform's limit and the file's value. */
  message: string;
}

const FORMAT_NAME: Record<string, string> = { jpeg: 'JPEG', png: 'PNG', webp: 'WebP', gif: 'GIF', heic: 'HEIC', mp4: 'MP4', quicktime: 'QuickTime (MOV)', pdf: 'PDF' };
const formatName = (f: string) => FORMAT_NAME[f] ?? f;

type Check = (v: MediaViolation) => void;

function checkSize(add: Check, p: string, noun: string, w: number, h: number, r: Omit<ImageRules, 'formats'> | VideoRules): void {
  const dims = `${w}×${h}`;
  if (r.minWidth && w < r.minWidth) add({ rule: 'width', message: `${p} needs ${noun} at least ${r.minWidth} px wide; this one is ${dims}` });
  if (r.minHeight && h < r.minHeight) add({ rule: 'height', message: `${p} needs ${noun} at least ${r.minHeight} px high; this one is ${dims}` });
  if (r.maxWidth && w > r.maxWidth) add({ rule: 'width', message: `${p} accepts ${noun} at most ${r.maxWidth} px wide; this one is ${dims}` });
  if (r.maxHeight && h > r.maxHeight) add({ rule: 'height', message: `${p} accepts ${noun} at most ${r.maxHeight} px high; this one is ${dims}` });
  if ('maxLongestSide' in r && r.maxLongestSide && Math.max(w, h) > r.maxLongestSide) {
    add({ rule: 'longest_side', message: `${p} accepts ${noun} up to ${r.maxLongestSide} px on the longest side; this one is ${dims}` });
  }
  if (r.maxPixels && w * h > r.maxPixels) {
    add({ rule: 'pixels', message: `${p} accepts ${noun} up to ${formatNumber(r.maxPixels)} pixels; this one has ${formatNumber(w * h)} (${dims})` });
  }
  if (r.aspectRatio && !inRange(w, h, r.aspectRatio)) {
    const range = r.aspectRatio;
    add({ rule: 'aspect_ratio', message: `${p} accepts aspect ratios between ${formatRatio(range.min)} and ${formatRatio(range.max)}; this ${noun.replace(/s$/, '')} is ${describeRatio(w, h)} (${dims})` });
  }
}

function checkBytes(add: Check, p: string, noun: string, bytes: number, max?: number, min?: number): void {
  if (max !== undefined && bytes > max) add({ rule: 'bytes', message: `${p} accepts ${noun} up to ${formatBytes(max)}; this one is ${formatBytes(bytes, true)}` });
  if (min !== undefined && bytes < min) add({ rule: 'bytes', message: `${p} needs ${noun} of at least ${formatBytes(min)}; this one is ${formatBytes(bytes, true)}` });
}

export function checkMedia(facts: MediaFacts, rules: MediaRules): MediaViolation[] {
  const out: MediaViolation[] = [];
  const add: Check = (v) => out.push(v);
  const p = rules.platform;
  if (facts.kind === 'image') {
    const r = rules.image;
    if (!r) return [{ rule: 'kind', message: `${p} does not accept images` }];
    if (!r.formats.includes(facts.format)) add({ rule: 'format', message: `${p} accepts ${formatList(r.formats.map(formatName))} images; this one is ${formatName(facts.format)}` });
    const animated = facts.frames > 1;
    if (animated && !r.animated) add({ rule: 'animation', message: `${p} does not accept animated images; this one has ${facts.frames} frames` });
    const limits = animated && r.animated ? { ...r, ...definedOnly(r.animated) } : r;
    if (animated && r.animated?.maxFrames && facts.frames > r.animated.maxFrames) {
      add({ rule: 'frames', message: `${p} accepts animations of up to ${r.animated.maxFrames} frames; this one has ${facts.frames}` });
    }
    checkBytes(add, p, animated ? 'animated images' : 'images', facts.bytes, limits.maxBytes);
    checkSize(add, p, 'images', facts.width, facts.height, limits);
  } else if (facts.kind === 'video') {
    const r = rules.video;
    if (!r) return [{ rule: 'kind', message: `${p} does not accept videos` }];
    if (!r.containers.includes(facts.container)) add({ rule: 'format', message: `${p} accepts ${formatList(r.containers.map(formatName))} videos; this one is ${formatName(facts.container)}` });
    checkBytes(add, p, 'videos', facts.bytes, r.maxBytes, r.minBytes);
    const d = facts.durationMs;
    if (r.minDurationMs !== undefined && d < r.minDurationMs) add({ rule: 'duration', message: `${p} needs videos of at least ${formatDuration(r.minDurationMs)}; this one lasts ${formatDuration(d)}` });
    if (r.maxDurationMs !== undefined && d > r.maxDurationMs) add({ rule: 'duration', message: `${p} accepts videos of up to ${formatDuration(r.maxDurationMs)}; this one lasts ${formatDuration(d)}` });
    checkSize(add, p, 'videos', facts.width, facts.height, r);
    const fps = facts.frameRate;
    if (fps !== null && ((r.minFrameRate && fps < r.minFrameRate - 0.01) || (r.maxFrameRate && fps > r.maxFrameRate + 0.01))) {
      const range = r.minFrameRate && r.maxFrameRate ? `between ${r.minFrameRate} and ${r.maxFrameRate}` : r.minFrameRate ? `of at least ${r.minFrameRate}` : `of at most ${r.maxFrameRate}`;
      add({ rule: 'frame_rate', message: `${p} accepts frame rates ${range} fps; this video has ${fps} fps` });
    }
    if (r.videoCodecs && !r.videoCodecs.includes(facts.videoCodec)) {
      add({ rule: 'video_codec', message: `${p} accepts video encoded as ${formatList(r.videoCodecs.map(codecName))}; this one is ${codecName(facts.videoCodec)}` });
    }
    if (r.audioCodecs && facts.audioCodec !== null && !r.audioCodecs.includes(facts.audioCodec)) {
      add({ rule: 'audio_codec', message: `${p} accepts audio encoded as ${formatList(r.audioCodecs.map(codecName))}; this video's audio is ${codecName(facts.audioCodec)}` });
    }
  } else {
    const r = rules.document;
    if (!r) return [{ rule: 'kind', message: `${p} does not accept documents` }];
    if (!r.formats.includes(facts.format)) add({ rule: 'format', message: `${p} accepts ${formatList(r.formats.map(formatName))} documents; this one is ${formatName(facts.format)}` });
    checkBytes(add, p, 'documents', facts.bytes, r.maxBytes);
    if (r.maxPages && facts.pages > r.maxPages) add({ rule: 'pages', message: `${p} accepts documents of up to ${r.maxPages} pages; this one has ${facts.pages}` });
  }
  return out;
}

const CODEC_NAME: Record<string, string> = { h264: 'H.264', hevc: 'HEVC (H.265)', vp8: 'VP8', vp9: 'VP9', av1: 'AV1', aac: 'AAC', mp3: 'MP3', opus: 'Opus' };
const codecName = (c: string) => CODEC_NAME[c] ?? c;

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

// --- Fitting -------------------------------------------------------------------------------------------

export type MediaFit = 'auto' | 'crop' | 'pad' | 'none';

/** What renditions.ts makes: exactly width×height, the source mapped onto it by `mode`. */
export interface RenditionSpec {
  format: 'jpeg' | 'png';
  width: number;
  height: number;
  /** scale: the whole picture; crop: its centre at the target ratio; pad: the whole picture letterboxed in white. */
  mode: 'scale' | 'crop' | 'pad';
  /** Re-encode (and, failing that, shrink) until the file is at most this big. */
  maxBytes?: number;
  /** The ratio range a further shrink must stay inside. */
  aspectRatio?: AspectRange;
}

export type FitPlan =
  | { action: 'as_is' }
  | { action: 'rendition'; spec: RenditionSpec; fixes: MediaViolation[] }
  | { action: 'reject'; violations: MediaViolation[] };

/** Rules a rendition fixes: format, byte size, and sides or pixels too large (downscaling). */
const FIXABLE = new Set<ViolationRule>(['format', 'bytes', 'width', 'height', 'longest_side', 'pixels']);

export interface PlanOptions {
  /**
   * Formats renditions can decode. HEIC is not among them by default: the prebuilt libvips that sharp ships
   * has no HEVC decoder.
   */
  decodable?: readonly ImageFormat[];
}

const DEFAULT_DECODABLE: readonly ImageFormat[] = ['jpeg', 'png', 'webp', 'gif'];

/**
 * Decides how a file reaches a platform. Videos and documents are never changed, only checked. An image's
 * aspect ratio is never changed silently: outside the range it is rejected unless mediaFit is crop (centre
 * crop to the nearest allowed ratio) or pad (white letterbox to it). Animated images are never flattened.
 */
export function planFit(facts: MediaFacts, rules: MediaRules, mediaFit: MediaFit, options: PlanOptions = {}): FitPlan {
  const violations = checkMedia(facts, rules);
  if (violations.length === 0) return { action: 'as_is' };
  if (mediaFit === 'none' || facts.kind !== 'image' || !rules.image) return { action: 'reject', violations };
  const r = rules.image;
  const aspect = violations.find((v) => v.rule === 'aspect_ratio');
  const reshape = aspect && (mediaFit === 'crop' || mediaFit === 'pad') ? mediaFit : null;
  const blocking = violations.filter((v) => !FIXABLE.has(v.rule) && !(v.rule === 'aspect_ratio' && reshape));
  if (blocking.length > 0) return { action: 'reject', violations: blocking };
  if (facts.frames > 1) return { action: 'reject', violations: [{ rule: 'animation', message: `${rules.platform} cannot take this animation as it is, and Herald does not re-encode animations` }, ...violations] };
  if (!(options.decodable ?? DEFAULT_DECODABLE).includes(facts.format)) {
    return { action: 'reject', violations: [...violations, { rule: 'rendition', message: `Herald cannot convert ${formatName(facts.format)} images on this server, so it cannot make a version that fits` }] };
  }
  return planImageRendition(facts, rules.platform, r, reshape, violations);
}

function planImageRendition(facts: ImageFacts, platform: string, r: ImageRules, reshape: 'crop' | 'pad' | null, fixes: MediaViolation[]): FitPlan {
  const canPng = r.formats.includes('png');
  const canJpeg = r.formats.includes('jpeg');
  if (!canJpeg && !canPng) return { action: 'reject', violations: [...fixes, { rule: 'rendition', message: `${platform} takes no format Herald can make (JPEG or PNG)` }] };
  // JPEG unless transparency would be lost and PNG is allowed (or JPEG is not).
  const format = !canJpeg || (facts.hasAlpha && canPng) ? 'png' : 'jpeg';
  let box = { width: facts.width, height: facts.height };
  const bound = reshape && r.aspectRatio ? nearestBound(facts.width, facts.height, r.aspectRatio) : null;
  if (bound) box = reshape === 'crop' ? cropBox(box.width, box.height, bound) : padBox(box.width, box.height, bound);
  const longest = Math.min(r.maxLongestSide ?? Infinity, r.renditionLongestSide ?? Infinity);
  const size = scaleWithin(box.width, box.height, { maxWidth: r.maxWidth, maxHeight: r.maxHeight, maxPixels: r.maxPixels, maxLongestSide: Number.isFinite(longest) ? longest : undefined }, r.aspectRatio);
  const tooSmall: MediaViolation[] = [];
  if (r.minWidth && size.width < r.minWidth) tooSmall.push({ rule: 'width', message: `${platform} needs images at least ${r.minWidth} px wide; fitted, this one would be ${size.width}×${size.height}` });
  if (r.minHeight && size.height < r.minHeight) tooSmall.push({ rule: 'height', message: `${platform} needs images at least ${r.minHeight} px high; fitted, this one would be ${size.width}×${size.height}` });
  if (tooSmall.length > 0) return { action: 'reject', violations: tooSmall };
  const spec: RenditionSpec = { format, width: size.width, height: size.height, mode: bound ? (reshape as 'crop' | 'pad') : 'scale' };
  if (r.maxBytes !== undefined) spec.maxBytes = r.maxBytes;
  if (r.aspectRatio) spec.aspectRatio = r.aspectRatio;
  return { action: 'rendition', spec, fixes };
}

/** Which kinds a platform takes at all (for messages and for the dashboard). */
export function acceptedKinds(rules: MediaRules): MediaKind[] {
  return (['image', 'video', 'document'] as const).filter((k) => rules[k] !== undefined).map((k) => k);
}
