// How Mastodon counts a status (platforms.md §11.7, app/validators/status_length_validator.rb): extended
// grapheme clusters of the content warning plus the text, after every link in the text is rewritten to
// the instance's URL weight (`characters_reserved_per_url`, 23 by default) and every `@user@domain`
// mention to `@user`. A link needs one of the schemes Mastodon links and a domain with a top-level label
// (no bare IP or single-label host, as twitter-text's rules that Mastodon's extractor builds on);
// trailing punctuation is not part of it, a closing parenthesis only when the link opened one.

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

const LABEL = String.raw`[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?`;
const URL_PATTERN = new RegExp(
  String.raw`(?<![\p{L}\p{N}_/@.-])(?:https?|dat|dweb|ipfs|ipns|ssb|gopher|gemini):\/\/(?:${LABEL}\.)+\p{L}{2,}(?::\d{1,5})?(?:[/?#][^\s<>"]*)?`,
  'giu',
);
const TRAILING_PUNCTUATION = /[.,:;!?'"’»\]}]+$/u;

/** `@user@domain` (a mention of an account elsewhere) counts as `@user`. */
const REMOTE_MENTION = /(^|[^\p{L}\p{N}_/@])@([a-z0-9_]+(?:[.-]+[a-z0-9_]+)*)@[\p{L}\p{N}_-]+(?:\.[\p{L}\p{N}_-]+)*/giu;

export function graphemeLength(text: string): number {
  let n = 0;
  for (const _ of graphemes.segment(text)) n++;
  return n;
}

/** The link without what follows it in the sentence: trailing punctuation, an unopened parenthesis. */
function trimLink(url: string): string {
  let out = url;
  for (;;) {
    const trimmed = out.replace(TRAILING_PUNCTUATION, '');
    const opens = (trimmed.match(/\(/g) ?? []).length;
    const closes = (trimmed.match(/\)/g) ?? []).length;
    const next = trimmed.endsWith(')') && closes > opens ? trimmed.slice(0, -1) : trimmed;
    if (next === out) return out;
    out = next;
  }
}

/** [start, end) of every link, in order. */
export function linkRanges(text: string): [number, number][] {
  const ranges: [number, number][] = [];
  for (const m of text.matchAll(URL_PATTERN)) {
    const url = trimLink(m[0]);
    ranges.push([m.index, m.index + url.length]);
  }
  return ranges;
}

function withoutMentionDomains(text: string): string {
  return text.replace(REMOTE_MENTION, '$1@$2');
}

/** The text as Mastodon counts it: links replaced by `urlWeight` characters, mention domains dropped. */
export function countableText(text: string, urlWeight: number): string {
  const placeholder = 'x'.repeat(Math.max(0, urlWeight));
  let out = '';
  let pos = 0;
  for (const [start, end] of linkRanges(text)) {
    out += withoutMentionDomains(text.slice(pos, start)) + placeholder;
    pos = end;
  }
  return out + withoutMentionDomains(text.slice(pos));
}

/** The length Mastodon checks against `max_characters`: content warning plus text. */
export function statusLength(text: string, spoilerText: string, urlWeight: number): number {
  return graphemeLength(spoilerText + countableText(text, urlWeight));
}
