// Rich text: Bluesky servers detect nothing, so the client marks links, mentions and hashtags as facets with
// UTF-8 byte offsets into the text (10.7). Detection here is pure; mentions become facets only once their
// handle resolves to a DID (an unresolvable mention stays plain text).
import { TEXT_LIMITS } from './info.ts';
import { byteOffset, graphemeLength, utf8Length } from './text.ts';

export interface ByteRange {
  byteStart: number;
  byteEnd: number;
}

export type Facet =
  | { index: ByteRange; features: [{ $type: 'app.bsky.richtext.facet#link'; uri: string }] }
  | { index: ByteRange; features: [{ $type: 'app.bsky.richtext.facet#mention'; did: string }] }
  | { index: ByteRange; features: [{ $type: 'app.bsky.richtext.facet#tag'; tag: string }] };

export type Candidate =
  | { kind: 'link'; index: ByteRange; uri: string }
  | { kind: 'mention'; index: ByteRange; handle: string }
  | { kind: 'tag'; index: ByteRange; tag: string };

const range = (text: string, start: number, end: number): ByteRange => ({ byteStart: byteOffset(text, start), byteEnd: byteOffset(text, end) });

/** Trailing punctuation that ends a sentence rather than a link; a ')' only when it has no '(' to close. */
function trimLink(url: string): string {
  let out = url;
  for (;;) {
    const last = out.at(-1);
    if (last && '.,;:!?\'"'.includes(last)) out = out.slice(0, -1);
    else if (last === ')' && (out.match(/\(/g)?.length ?? 0) < (out.match(/\)/g)?.length ?? 0)) out = out.slice(0, -1);
    else return out;
  }
}

function isUrl(text: string): boolean {
  try {
    const u = new URL(text);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname.includes('.');
  } catch {
    return false;
  }
}

/** A handle is a domain name: labels of letters, digits and hyphens, at least two, the last not numeric. */
export function isHandle(text: string): boolean {
  if (text.length > 253) return false;
  const labels = text.split('.');
  if (labels.length < 2) return false;
  if (!labels.every((l) => /^[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$/.test(l))) return false;
  return /^[a-zA-Z]/.test(labels.at(-1)!);
}

const LINK_RE = /(^|[\s(])(https?:\/\/[^\s<>"]+)/gi;
const MENTION_RE = /(^|[\s(])@([a-zA-Z0-9][a-zA-Z0-9.-]*[a-zA-Z0-9])/g;
// '#' or the full-width '＃', then a run that is not whitespace; a tag may not be only digits.
const TAG_RE = /(^|\s)[#＃]([^\s\u00AD\u2060\u200A\u200B\u200C\u200D\u20e2]+)/gu;

export function detectCandidates(text: string): Candidate[] {
  const out: Candidate[] = [];
  for (const m of text.matchAll(LINK_RE)) {
    const start = m.index + m[1]!.length;
    const uri = trimLink(m[2]!);
    if (isUrl(uri)) out.push({ kind: 'link', index: range(text, start, start + uri.length), uri });
  }
  for (const m of text.matchAll(MENTION_RE)) {
    const start = m.index + m[1]!.length;
    const handle = m[2]!.replace(/\.+$/, '');
    if (isHandle(handle)) out.push({ kind: 'mention', index: range(text, start, start + 1 + handle.length), handle: handle.toLowerCase() });
  }
  for (const m of text.matchAll(TAG_RE)) {
    const start = m.index + m[1]!.length;
    const tag = m[2]!.replace(/\p{P}+$/gu, '');
    if (!tag || /^\d+$/.test(tag)) continue;
    if (graphemeLength(tag) > TEXT_LIMITS.maxTagGraphemes || utf8Length(tag) > TEXT_LIMITS.maxTagBytes) continue;
    out.push({ kind: 'tag', index: range(text, start, start + 1 + tag.length), tag });
  }
  // Overlaps (a '#' or '@' inside a link) keep the earlier-starting, then the longer one.
  out.sort((a, b) => a.index.byteStart - b.index.byteStart || b.index.byteEnd - a.index.byteEnd);
  const kept: Candidate[] = [];
  for (const c of out) {
    const prev = kept.at(-1);
    if (prev && c.index.byteStart < prev.index.byteEnd) continue;
    kept.push(c);
  }
  return kept;
}

/** The facets of `text`, with mentions whose handle `dids` resolves; other mentions stay plain text. */
export function buildFacets(candidates: Candidate[], dids: ReadonlyMap<string, string>): Facet[] {
  const out: Facet[] = [];
  for (const c of candidates) {
    if (c.kind === 'link') out.push({ index: c.index, features: [{ $type: 'app.bsky.richtext.facet#link', uri: c.uri }] });
    else if (c.kind === 'tag') out.push({ index: c.index, features: [{ $type: 'app.bsky.richtext.facet#tag', tag: c.tag }] });
    else {
      const did = dids.get(c.handle);
      if (did) out.push({ index: c.index, features: [{ $type: 'app.bsky.richtext.facet#mention', did }] });
    }
  }
  return out;
}

/** The first link of the text, for a link card. */
export function firstLink(candidates: Candidate[]): string | undefined {
  return candidates.find((c): c is Extract<Candidate, { kind: 'link' }> => c.kind === 'link')?.uri;
}
