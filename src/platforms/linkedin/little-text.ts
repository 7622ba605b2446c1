// LinkedIn's "little text" (MS shares/little-text-format): post commentary is parsed for mentions,
// hashtags and templates, and every reserved character must be backslash-escaped to stay plain text.
// An unescaped one is not refused: LinkedIn publishes the text cut at that character and still answers
// 201 (n8n-io/n8n#10179, activepieces#3058, ComposioHQ/composio#3185). So Herald escapes everything,
// and keeps `#word` as LinkedIn's hashtag element so hashtags stay hashtags. Pure.
import { LITTLE_TEXT_RESERVED } from './info.ts';

const RESERVED = new Set<string>(LITTLE_TEXT_RESERVED);
const TAG_CHAR = /[\p{L}\p{N}]/u;
const WORD_BEFORE = /[\p{L}\p{N}_]/u;

/**
 * Plain text → little text that LinkedIn shows exactly as written. A `#` that starts a hashtag (not
 * inside a word, followed by a letter or digit) stays a hashtag; every other reserved character is
 * escaped.
 */
export function escapeLittleText(text: string): string {
  const chars = Array.from(text);
  let out = '';
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (!RESERVED.has(c)) {
      out += c;
      continue;
    }
    const startsTag = c === '#' && TAG_CHAR.test(chars[i + 1] ?? '') && !WORD_BEFORE.test(chars[i - 1] ?? '');
    out += startsTag ? c : `\\${c}`;
  }
  return out;
}

