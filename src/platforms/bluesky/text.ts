// Counting text the way the post lexicon does: extended grapheme clusters and UTF-8 bytes (10.10).
const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

export function graphemeLength(text: string): number {
  let n = 0;
  for (const _ of segmenter.segment(text)) n++;
  return n;
}

export function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** The UTF-8 byte offset of a UTF-16 index of `text` (facet offsets are bytes, 10.7). */
export function byteOffset(text: string, index: number): number {
  return Buffer.byteLength(text.slice(0, index), 'utf8');
}

/** Cuts text to at most `max` graphemes (link card titles and descriptions). */
export function truncateGraphemes(text: string, max: number): string {
  let out = '';
  let n = 0;
  for (const { segment } of segmenter.segment(text)) {
    if (n === max) return `${out.replace(/\s+$/, '')}…`;
    out += segment;
    n++;
  }
  return out;
}
