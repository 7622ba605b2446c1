// Aspect ratios and output sizes in whole pixels. Shared by planFit (which decides a rendition's size) and
// renditions (which may shrink further to meet a byte limit), so both round the same way: never past a
// limit, never outside the allowed ratio range.

/** width:height, e.g. {width: 4, height: 5} for 4:5 or {width: 1.91, height: 1} for 1.91:1. */
export interface Ratio {
  width: number;
  height: number;
}

/** Allowed width/height ratios, inclusive; min is the tallest, max the widest. */
export interface AspectRange {
  min: Ratio;
  max: Ratio;
}

export interface SizeLimits {
  maxWidth?: number;
  maxHeight?: number;
  maxLongestSide?: number;
  maxPixels?: number;
}

/** Ratios compare with a little slack: 1080×1350 is 4:5 exactly, and 1.91:1 has no exact integer form. */
const SLACK = 1e-6;

export const ratioValue = (r: Ratio) => r.width / r.height;

export function inRange(width: number, height: number, range: AspectRange): boolean {
  const value = width / height;
  return value >= ratioValue(range.min) - SLACK && value <= ratioValue(range.max) + SLACK;
}

/** The range's bound a too-tall or too-wide size is nearest to; null when it is within the range. */
export function nearestBound(width: number, height: number, range: AspectRange): Ratio | null {
  if (inRange(width, height, range)) return null;
  return width / height < ratioValue(range.min) ? range.min : range.max;
}

/** The centre part of width×height that has the given ratio (cropping only the long dimension). */
export function cropBox(width: number, height: number, to: Ratio): { width: number; height: number } {
  const r = ratioValue(to);
  if (width / height > r) return { width: Math.max(1, Math.floor(height * r)), height };
  return { width, height: Math.max(1, Math.floor(width / r)) };
}

/** The canvas that holds width×height at the given ratio (growing only the short dimension). */
export function padBox(width: number, height: number, to: Ratio): { width: number; height: number } {
  const r = ratioValue(to);
  if (width / height > r) return { width, height: Math.ceil(width / r) };
  return { width: Math.ceil(height * r), height };
}

function fits(w: number, h: number, limits: SizeLimits): boolean {
  return (
    (!limits.maxWidth || w <= limits.maxWidth) &&
    (!limits.maxHeight || h <= limits.maxHeight) &&
    (!limits.maxLongestSide || Math.max(w, h) <= limits.maxLongestSide) &&
    (!limits.maxPixels || w * h <= limits.maxPixels)
  );
}

/**
 * Scales width×height down (never up) by `extra` (≤ 1) and further until every limit holds. If rounding
 * left the ratio outside `range`, the short side grows by a pixel when the limits allow, else the long
 * side shrinks: 1910×1000 at 1.91:1 scaled to 1440 wide is 1440×754, not 1438×753.
 */
export function scaleWithin(width: number, height: number, limits: SizeLimits, range?: AspectRange, extra = 1): { width: number; height: number } {
  let s = Math.min(1, extra);
  if (limits.maxWidth) s = Math.min(s, limits.maxWidth / width);
  if (limits.maxHeight) s = Math.min(s, limits.maxHeight / height);
  if (limits.maxLongestSide) s = Math.min(s, limits.maxLongestSide / Math.max(width, height));
  if (limits.maxPixels) s = Math.min(s, Math.sqrt(limits.maxPixels / (width * height)));
  // The epsilon keeps 1910 × (1440 / 1910) from flooring to 1439.
  let w = s >= 1 ? width : Math.max(1, Math.floor(width * s + 1e-7));
  let h = s >= 1 ? height : Math.max(1, Math.floor(height * s + 1e-7));
  while (!fits(w, h, limits) && (w > 1 || h > 1)) {
    if (w >= h) w--;
    else h--;
  }
  if (range && !inRange(w, h, range)) {
    const r = w / h > ratioValue(range.max) ? ratioValue(range.max) : ratioValue(range.min);
    if (w / h > r) {
      const taller = Math.ceil(w / r - SLACK);
      if (fits(w, taller, limits) && inRange(w, taller, range)) h = taller;
      else w = Math.max(1, Math.floor(h * r + SLACK));
    } else {
      const wider = Math.ceil(h * r - SLACK);
      if (fits(wider, h, limits) && inRange(wider, h, range)) w = wider;
      else h = Math.max(1, Math.floor(w / r + SLACK));
    }
  }
  return { width: w, height: h };
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** "4:5", "1.91:1", "1:3": a ratio as people write it. */
export function formatRatio(r: Ratio): string {
  return `${+r.width.toFixed(2)}:${+r.height.toFixed(2)}`;
}

/** A file's own ratio: reduced when that gives small numbers (1000×3000 → 1:3), else decimal (1.33:1). */
export function describeRatio(width: number, height: number): string {
  const d = gcd(width, height);
  if (width / d <= 32 && height / d <= 32) return `${width / d}:${height / d}`;
  return width >= height ? `${+(width / height).toFixed(2)}:1` : `1:${+(height / width).toFixed(2)}`;
}
