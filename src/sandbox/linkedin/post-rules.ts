// The Posts API's checks on a create body (platforms.md 7.5), as Rest.li answers them: schema lines
// ("ERROR :: /field :: …"), media that must exist, belong to the author and be AVAILABLE, and the
// 3,000-character commentary limit. Returns the refusal, or what the post will carry.
import { LIMITS } from '../../platforms/linkedin/info.ts';
import { renderLittleText, type RenderedText } from './little-text.ts';
import { settleMedia } from './media-model.ts';
import type { MediaKind, MediaRecord } from './store.ts';

type Json = Record<string, unknown>;

const FIELDS = new Set([
  'author',
  'commentary',
  'visibility',
  'distribution',
  'content',
  'lifecycleState',
  'isReshareDisabledByAuthor',
  'contentLandingPage',
  'contentCallToActionLabel',
  'container',
  'reshareContext',
]);
const REQUIRED = ['author', 'commentary', 'visibility', 'distribution', 'lifecycleState'];
const VISIBILITIES = new Set(['PUBLIC', 'CONNECTIONS', 'LOGGED_IN', 'CONTAINER']);

export type PostCheck =
  | { ok: false; status: number; kind: 'schema'; lines: string[] }
  | { ok: false; status: number; kind: 'input'; message: string; code: string; field: string }
  | { ok: true; rendered: RenderedText; media: MediaRecord[]; urnKind: 'share' | 'ugcPost' };

function obj(v: unknown): Json | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined;
}

const schema = (...lines: string[]): PostCheck => ({ ok: false, status: 422, kind: 'schema', lines });

function mediaRef(id: unknown, path: string, author: string, kinds: MediaKind[], lookup: (urn: string) => MediaRecord | undefined, now: number): MediaRecord | PostCheck {
  if (typeof id !== 'string') return schema(`${path} :: field is required but not found and has no default value`);
  const rec = lookup(id);
  if (!rec || !kinds.includes(rec.kind)) return schema(`${path} :: ${id} is not a known ${kinds.join(' or ')}`);
  if (rec.owner !== author) return schema(`${path} :: the owner of ${id} must be the author of the post`);
  settleMedia(rec, now);
  // Whether LinkedIn takes media still processing is unconfirmed (7.14): the stricter answer.
  if (rec.state !== 'AVAILABLE') return schema(`${path} :: ${id} is not ready to be posted (status ${rec.state})`);
  return rec;
}

export function checkPostBody(body: unknown, lookup: (urn: string) => MediaRecord | undefined, now: number): PostCheck {
  const b = obj(body);
  if (!b) return schema('/ :: the body must be a JSON object');
  const lines: string[] = [];
  for (const key of Object.keys(b)) if (!FIELDS.has(key)) lines.push(`/${key} :: unrecognized field found but not allowed`);
  for (const key of REQUIRED) if (b[key] === undefined) lines.push(`/${key} :: field is required but not found and has no default value`);
  if (lines.length > 0) return schema(...lines);
  const author = b.author;
  if (typeof author !== 'string' || !/^urn:li:(person|organization):/.test(author)) return schema('/author :: must be a person or organization URN');
  if (typeof b.commentary !== 'string') return schema('/commentary :: must be a string');
  if (typeof b.visibility !== 'string' || !VISIBILITIES.has(b.visibility)) return schema(`/visibility :: ${String(b.visibility)} is not a valid visibility`);
  // Whether a Page may post for CONNECTIONS is unconfirmed (7.14): a Page has none, so it is refused.
  if (b.visibility === 'CONNECTIONS' && author.startsWith('urn:li:organization:')) return schema('/visibility :: CONNECTIONS is not allowed for an organization author');
  if (b.lifecycleState !== 'PUBLISHED') return schema(`/lifecycleState :: the sandbox publishes PUBLISHED posts only, not ${String(b.lifecycleState)}`);
  const distribution = obj(b.distribution);
  if (!distribution || (distribution.feedDistribution !== 'MAIN_FEED' && distribution.feedDistribution !== 'NONE')) {
    return schema('/distribution/feedDistribution :: field is required: MAIN_FEED or NONE');
  }

  const rendered = renderLittleText(b.commentary);
  if (rendered.text.length > LIMITS.commentary) {
    return {
      ok: false,
      status: 400,
      kind: 'input',
      message: `ShareCommentary text length (${rendered.text.length} characters) exceeded the maximum allowed (${LIMITS.commentary} characters)`,
      code: 'FIELD_ARRAY_SIZE_TOO_HIGH',
      field: '/commentary',
    };
  }

  const content = b.content === undefined ? undefined : obj(b.content);
  if (b.content !== undefined && !content) return schema('/content :: must be an object');
  if (!content) {
    if (rendered.text.trim() === '') return schema('/commentary :: a post without content needs commentary');
    return { ok: true, rendered, media: [], urnKind: 'share' };
  }
  const kinds = Object.keys(content);
  if (kinds.length !== 1) return schema('/content :: exactly one of media, multiImage, article, poll, reference');
  if (kinds[0] === 'media') {
    const m = obj(content.media) ?? {};
    const rec = mediaRef(m.id, '/content/media/id', author, ['image', 'video', 'document'], lookup, now);
    if (!('urn' in rec)) return rec;
    if (rec.kind === 'document' && (typeof m.title !== 'string' || m.title.trim() === '')) return schema('/content/media/title :: a document post needs a title');
    return { ok: true, rendered, media: [rec], urnKind: rec.kind === 'image' ? 'share' : 'ugcPost' };
  }
  if (kinds[0] === 'multiImage') {
    const images = obj(content.multiImage)?.images;
    if (!Array.isArray(images) || images.length < 2 || images.length > LIMITS.images) {
      return schema(`/content/multiImage/images :: must hold 2 to ${LIMITS.images} images, not ${Array.isArray(images) ? images.length : 0}`);
    }
    const media: MediaRecord[] = [];
    for (const [i, image] of images.entries()) {
      const rec = mediaRef(obj(image)?.id, `/content/multiImage/images/${i}/id`, author, ['image'], lookup, now);
      if (!('urn' in rec)) return rec;
      media.push(rec);
    }
    return { ok: true, rendered, media, urnKind: 'ugcPost' };
  }
  return schema(`/content/${kinds[0]} :: the sandbox models media and multiImage posts only`);
}
