// The app.bsky.feed.post lexicon as the PDS checks a record at createRecord, with its messages
// ("Invalid app.bsky.feed.post record: <what> at $.record.<path>", docs/internal/bluesky-pds.md). Checked
// in the lexicon's property order; the first problem is the answer. Blob existence is checked elsewhere.
import { IMAGE_RULES, LINK_CARD_RULES, TEXT_LIMITS, VIDEO_RULES } from '../../platforms/bluesky/info.ts';
import { graphemeLength, utf8Length } from '../../platforms/bluesky/text.ts';
import { invalid, type XrpcError } from './xrpc.ts';

type Obj = Record<string, unknown>;

export interface BlobRef {
  cid: string;
  mimeType: string;
  size: number;
  /** Where it sits, e.g. $.record.embed.images[0].image */
  path: string;
}

const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;
const LANGUAGE = /^(?:[a-zA-Z]{2,3}|[a-zA-Z]{5,8}|[iIxX])(?:-[a-zA-Z0-9]{1,8})*$/;
const URI = /^[a-zA-Z][a-zA-Z0-9+.-]*:[^\s]+$/;
const DID = /^did:[a-z]+:[a-zA-Z0-9._:%-]*[a-zA-Z0-9._-]$/;
const AT_URI = /^at:\/\/[^\s/]+(?:\/[^\s/]+){0,2}$/;
const CID = /^b[a-z2-7]{20,}$/;

const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

class Checker {
  readonly blobs: BlobRef[] = [];
  readonly prefix: string;
  constructor(prefix: string) {
    this.prefix = prefix;
  }

  fail(message: string, path: string): never {
    throw invalid(`${this.prefix}${message} at ${path}`);
  }

  obj(v: unknown, path: string): Obj {
    if (!isObj(v)) this.fail('Expected an object', path);
    return v;
  }

  required(o: Obj, key: string, path: string): unknown {
    if (o[key] === undefined) this.fail(`Missing required key "${key}"`, path);
    return o[key];
  }

  string(v: unknown, path: string, limits: { maxBytes?: number; maxGraphemes?: number } = {}): string {
    if (typeof v !== 'string') this.fail('Expected a string', path);
    if (limits.maxBytes !== undefined && utf8Length(v) > limits.maxBytes) this.fail(`string too big (maximum ${limits.maxBytes}, got ${utf8Length(v)})`, path);
    if (limits.maxGraphemes !== undefined) {
      const n = graphemeLength(v);
      if (n > limits.maxGraphemes) this.fail(`grapheme too big (maximum ${limits.maxGraphemes}, got ${n})`, path);
    }
    return v;
  }

  format(v: unknown, path: string, re: RegExp, name: string): string {
    const s = this.string(v, path);
    if (!re.test(s)) this.fail(`Invalid ${name} (got ${JSON.stringify(s)})`, path);
    return s;
  }

  array(v: unknown, path: string, max?: number): unknown[] {
    if (!Array.isArray(v)) this.fail('Expected an array', path);
    if (max !== undefined && v.length > max) this.fail(`array too big (maximum ${max}, got ${v.length})`, path);
    return v;
  }

  integer(v: unknown, path: string, min: number): number {
    if (typeof v !== 'number' || !Number.isInteger(v)) this.fail('Expected an integer', path);
    if (v < min) this.fail(`integer too small (minimum ${min}, got ${v})`, path);
    return v;
  }

  blob(v: unknown, path: string, accept: string, maxSize: number): void {
    const b = this.obj(v, path);
    const ref = b.ref as Obj | undefined;
    if (b.$type !== 'blob' || !isObj(ref) || typeof ref.$link !== 'string' || typeof b.mimeType !== 'string' || typeof b.size !== 'number') {
      this.fail('Expected a blob reference', path);
    }
    const mime = b.mimeType;
    const ok = accept.endsWith('/*') ? mime.startsWith(accept.slice(0, -1)) : mime === accept;
    if (!ok) this.fail(`Expected ${JSON.stringify(accept)} (got ${JSON.stringify(mime)})`, `${path}.mimeType`);
    if (b.size > maxSize) this.fail(`blob too big (maximum ${maxSize}, got ${b.size})`, path);
    this.blobs.push({ cid: ref.$link, mimeType: mime, size: b.size, path });
  }

  aspectRatio(v: unknown, path: string): void {
    if (v === undefined) return;
    const a = this.obj(v, path);
    this.integer(this.required(a, 'width', path), `${path}.width`, 1);
    this.integer(this.required(a, 'height', path), `${path}.height`, 1);
  }

  strongRef(v: unknown, path: string): void {
    const r = this.obj(v, path);
    this.format(this.required(r, 'uri', path), `${path}.uri`, AT_URI, 'AT-URI');
    this.format(this.required(r, 'cid', path), `${path}.cid`, CID, 'CID');
  }
}

function checkFacets(c: Checker, v: unknown, path: string): void {
  for (const [i, raw] of c.array(v, path).entries()) {
    const fp = `${path}[${i}]`;
    const facet = c.obj(raw, fp);
    const index = c.obj(c.required(facet, 'index', fp), `${fp}.index`);
    c.integer(c.required(index, 'byteStart', `${fp}.index`), `${fp}.index.byteStart`, 0);
    c.integer(c.required(index, 'byteEnd', `${fp}.index`), `${fp}.index.byteEnd`, 0);
    for (const [j, f] of c.array(c.required(facet, 'features', fp), `${fp}.features`).entries()) {
      const p = `${fp}.features[${j}]`;
      const feature = c.obj(f, p);
      // An open union: feature types this PDS does not know pass.
      if (feature.$type === 'app.bsky.richtext.facet#link') c.format(c.required(feature, 'uri', p), `${p}.uri`, URI, 'uri');
      else if (feature.$type === 'app.bsky.richtext.facet#mention') c.format(c.required(feature, 'did', p), `${p}.did`, DID, 'DID');
      else if (feature.$type === 'app.bsky.richtext.facet#tag') {
        c.string(c.required(feature, 'tag', p), `${p}.tag`, { maxBytes: TEXT_LIMITS.maxTagBytes, maxGraphemes: TEXT_LIMITS.maxTagGraphemes });
      }
    }
  }
}

function checkEmbed(c: Checker, v: unknown, path: string): void {
  const embed = c.obj(v, path);
  switch (embed.$type) {
    case 'app.bsky.embed.images': {
      const images = c.array(c.required(embed, 'images', path), `${path}.images`, IMAGE_RULES.maxImages);
      for (const [i, raw] of images.entries()) {
        const p = `${path}.images[${i}]`;
        const image = c.obj(raw, p);
        c.blob(c.required(image, 'image', p), `${p}.image`, 'image/*', IMAGE_RULES.maxBytes);
        c.string(c.required(image, 'alt', p), `${p}.alt`);
        c.aspectRatio(image.aspectRatio, `${p}.aspectRatio`);
      }
      return;
    }
    case 'app.bsky.embed.video': {
      c.blob(c.required(embed, 'video', path), `${path}.video`, 'video/mp4', VIDEO_RULES.lexiconMaxBytes);
      if (embed.captions !== undefined) {
        for (const [i, raw] of c.array(embed.captions, `${path}.captions`, VIDEO_RULES.maxCaptions).entries()) {
          const p = `${path}.captions[${i}]`;
          const caption = c.obj(raw, p);
          c.format(c.required(caption, 'lang', p), `${p}.lang`, LANGUAGE, 'language');
          c.blob(c.required(caption, 'file', p), `${p}.file`, 'text/vtt', VIDEO_RULES.captionMaxBytes);
        }
      }
      if (embed.alt !== undefined) c.string(embed.alt, `${path}.alt`);
      c.aspectRatio(embed.aspectRatio, `${path}.aspectRatio`);
      return;
    }
    case 'app.bsky.embed.external': {
      const p = `${path}.external`;
      const ext = c.obj(c.required(embed, 'external', path), p);
      c.format(c.required(ext, 'uri', p), `${p}.uri`, URI, 'uri');
      c.string(c.required(ext, 'title', p), `${p}.title`);
      c.string(c.required(ext, 'description', p), `${p}.description`);
      if (ext.thumb !== undefined) c.blob(ext.thumb, `${p}.thumb`, 'image/*', LINK_CARD_RULES.thumbMaxBytes);
      return;
    }
    case 'app.bsky.embed.record':
      c.strongRef(c.required(embed, 'record', path), `${path}.record`);
      return;
    default:
      // recordWithMedia and types unknown to this PDS: an open union.
      return;
  }
}

/** Checks an app.bsky.feed.post record; answers the blob references it makes, or throws the PDS's 400. */
export function checkPostRecord(record: unknown): { blobs: BlobRef[] } | never {
  const c = new Checker('Invalid app.bsky.feed.post record: ');
  const r = c.obj(record, '$.record');
  c.string(c.required(r, 'text', '$.record'), '$.record.text', { maxBytes: TEXT_LIMITS.maxBytes, maxGraphemes: TEXT_LIMITS.maxGraphemes });
  if (r.facets !== undefined) checkFacets(c, r.facets, '$.record.facets');
  if (r.reply !== undefined) {
    const reply = c.obj(r.reply, '$.record.reply');
    c.strongRef(c.required(reply, 'root', '$.record.reply'), '$.record.reply.root');
    c.strongRef(c.required(reply, 'parent', '$.record.reply'), '$.record.reply.parent');
  }
  if (r.embed !== undefined) checkEmbed(c, r.embed, '$.record.embed');
  if (r.langs !== undefined) {
    for (const [i, lang] of c.array(r.langs, '$.record.langs', TEXT_LIMITS.maxLangs).entries()) c.format(lang, `$.record.langs[${i}]`, LANGUAGE, 'language');
  }
  if (r.tags !== undefined) {
    for (const [i, tag] of c.array(r.tags, '$.record.tags', 8).entries()) c.string(tag, `$.record.tags[${i}]`, { maxBytes: 640, maxGraphemes: 64 });
  }
  c.format(c.required(r, 'createdAt', '$.record'), '$.record.createdAt', DATETIME, 'datetime');
  return { blobs: c.blobs };
}

export type { XrpcError };
