// The link card (app.bsky.embed.external) a post shows when a link is its only embed. Bluesky's servers do
// not build it: the client reads the page's title, description and image and uploads the image as the
// card's thumbnail (10.8). Best effort throughout: a page that cannot be read means no card, an image that
// cannot be used means a card without one, and nothing here ever fails the post.
import type { Json } from './client.ts';
import { LINK_CARD_RULES } from './info.ts';
import { readImageInfo } from './media-size.ts';
import { uploadBlob, type Blob, type UploadContext } from './media.ts';
import { truncateGraphemes } from './text.ts';

export interface PageSummary {
  title: string;
  description: string;
  image?: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : m;
    }
    return ENTITIES[e.toLowerCase()] ?? m;
  });
}

function attr(tag: string, name: string): string | undefined {
  const m = new RegExp(`\\b${name}\\s*=\\s*("([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
  return m ? (m[2] ?? m[3] ?? m[4]) : undefined;
}

/** Title, description and image of an HTML page: Open Graph first, then <title> and meta description. */
export function summarizePage(html: string, pageUrl: string): PageSummary | null {
  const head = html.slice(0, LINK_CARD_RULES.headScanChars);
  const metas = new Map<string, string>();
  for (const m of head.matchAll(/<meta\b[^>]*>/gi)) {
    const key = (attr(m[0], 'property') ?? attr(m[0], 'name'))?.toLowerCase();
    const content = attr(m[0], 'content');
    if (key && content !== undefined && !metas.has(key)) metas.set(key, decodeEntities(content).trim());
  }
  const titleTag = /<title\b[^>]*>([\s\S]*?)<\/title>/i.exec(head)?.[1];
  const title = metas.get('og:title') || (titleTag ? decodeEntities(titleTag).replace(/\s+/g, ' ').trim() : '');
  const description = metas.get('og:description') || metas.get('description') || '';
  if (!title && !description) return null;
  const out: PageSummary = {
    title: truncateGraphemes(title, LINK_CARD_RULES.titleMaxChars),
    description: truncateGraphemes(description, LINK_CARD_RULES.descriptionMaxChars),
  };
  const image = metas.get('og:image') || metas.get('og:image:url');
  if (image) {
    try {
      const resolved = new URL(image, pageUrl);
      if (resolved.protocol === 'https:' || resolved.protocol === 'http:') out.image = resolved.toString();
    } catch {
      // no image
    }
  }
  return out;
}

export interface ExternalEmbed {
  $type: 'app.bsky.embed.external';
  external: { uri: string; title: string; description: string; thumb?: Blob };
}

/** The card for `url`, or null when the page says nothing usable. Never a failure. */
export async function buildLinkCard(ctx: UploadContext, url: string): Promise<ExternalEmbed | null> {
  const page = await ctx.deps.media.fetch({ url }, { maxBytes: LINK_CARD_RULES.pageMaxBytes }).catch(() => null);
  if (!page?.ok || !/html|xml/i.test(page.contentType)) return null;
  const summary = summarizePage(new TextDecoder().decode(page.bytes), url);
  if (!summary) return null;
  const card: ExternalEmbed = { $type: 'app.bsky.embed.external', external: { uri: url, title: summary.title, description: summary.description } };
  if (summary.image) {
    const image = await ctx.deps.media.fetch({ url: summary.image }, { maxBytes: LINK_CARD_RULES.thumbMaxBytes }).catch(() => null);
    const info = image?.ok ? readImageInfo(image.bytes) : null;
    if (image?.ok && info && image.bytes.byteLength <= LINK_CARD_RULES.thumbMaxBytes) {
      const up = await uploadBlob(ctx, image.bytes, info.format, 'the link card image').catch(() => null);
      if (up?.ok) card.external.thumb = up.blob;
    }
  }
  return card;
}

export type { Json };
