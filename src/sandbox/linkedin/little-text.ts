// How LinkedIn reads post commentary ("little text"): backslash escapes, mentions @[Name](urn), hashtag
// elements #word, hashtag templates {hashtag|\#|word}. An unescaped reserved character anywhere else is
// not refused: the published text simply stops there and the API still answers 201 (platforms.md 7.5,
// n8n-io/n8n#10179, activepieces#3058, ComposioHQ/composio#3185). This is what members then see.
import { LITTLE_TEXT_RESERVED } from '../../platforms/linkedin/info.ts';

const RESERVED = new Set<string>(LITTLE_TEXT_RESERVED);
const TAG_CHAR = /[\p{L}\p{N}]/u;
const MENTION = /^@\[([^\]\\]*)\]\((urn:li:(?:person|organization):[A-Za-z0-9_-]+)\)/;
const HASHTAG_TEMPLATE = /^\{hashtag\|\\?[#＃]\|([\p{L}\p{N}_]+)\}/u;

export interface RenderedText {
  /** The text as published. */
  text: string;
  /** True when an unescaped reserved character cut the text short. */
  truncated: boolean;
  hashtags: string[];
  mentions: string[];
}

export function renderLittleText(commentary: string): RenderedText {
  const chars = Array.from(commentary);
  const out: RenderedText = { text: '', truncated: false, hashtags: [], mentions: [] };
  let i = 0;
  while (i < chars.length) {
    const c = chars[i]!;
    if (c === '\\') {
      const next = chars[i + 1];
      if (next === undefined) {
        out.truncated = true;
        break;
      }
      out.text += next;
      i += 2;
      continue;
    }
    if (!RESERVED.has(c)) {
      out.text += c;
      i += 1;
      continue;
    }
    const rest = chars.slice(i).join('');
    const mention = c === '@' ? MENTION.exec(rest) : null;
    if (mention) {
      out.text += mention[1];
      out.mentions.push(mention[2]!);
      i += Array.from(mention[0]).length;
      continue;
    }
    const template = c === '{' ? HASHTAG_TEMPLATE.exec(rest) : null;
    if (template) {
      out.text += `#${template[1]}`;
      out.hashtags.push(template[1]!);
      i += Array.from(template[0]).length;
      continue;
    }
    if (c === '#' && TAG_CHAR.test(chars[i + 1] ?? '')) {
      let tag = '';
      let j = i + 1;
      while (j < chars.length && TAG_CHAR.test(chars[j]!)) tag += chars[j++];
      out.text += `#${tag}`;
      out.hashtags.push(tag);
      i = j;
      continue;
    }
    out.truncated = true;
    break;
  }
  return out;
}
