// Counts the pages of a PDF without loading it: reads the tail for `startxref`, follows the
// cross-reference chain (classic tables and 1.5 cross-reference streams, incremental updates through
// /Prev, hybrid files through /XRefStm), and reads the page tree root's /Count (Root → /Pages → /Count),
// which the PDF spec defines as the number of leaf pages. Objects inside compressed object streams are
// read by inflating that one stream. Only the few objects on that path are read, at their offsets: a
// 1 GiB PDF costs a few small reads.
//
// A file whose tail has no `startxref` or `%%EOF` was cut short: unreadable. A file whose cross-reference
// offsets are wrong (edited by hand, or written by a careless tool) is rebuilt the way readers do, by
// scanning the file once for `N G obj` headers in 1 MiB pieces.
//
// Why not an npm library: pdf-lib and pdf.js both want the whole file as one buffer (pdf.js can take ranges,
// but its loader is some 100k lines to answer one number).
import type { FileHandle } from 'node:fs/promises';
import { inflateSync } from 'node:zlib';
import { isDict, isRef, Lexer, nameOf, NeedMoreBytes, PdfSyntaxError, type PdfDict, type PdfValue } from './pdf-syntax.ts';

export type PdfPagesResult = { ok: true; pages: number } | { ok: false; message: string };

const TAIL_BYTES = 16 * 1024;
/** The largest single window read to parse one object or classic xref section. */
const MAX_WINDOW = 64 * 1024 * 1024;
/** The largest stream (object or xref stream) inflated. */
const MAX_INFLATED = 64 * 1024 * 1024;
const SCAN_CHUNK = 1024 * 1024;

type Entry = { kind: 'offset'; offset: number } | { kind: 'compressed'; stream: number; index: number } | { kind: 'free' };

class PdfFile {
  readonly entries = new Map<number, Entry>();
  private readonly objectStreams = new Map<number, { data: Buffer; offsets: Map<number, number> }>();
  encrypted = false;
  readonly file: FileHandle;
  readonly size: number;
  constructor(file: FileHandle, size: number) {
    this.file = file;
    this.size = size;
  }

  async read(offset: number, length: number): Promise<Buffer> {
    const len = Math.max(0, Math.min(length, this.size - offset));
    const buf = Buffer.alloc(len);
    let done = 0;
    while (done < len) {
      const { bytesRead } = await this.file.read(buf, done, len - done, offset + done);
      if (bytesRead === 0) break;
      done += bytesRead;
    }
    return buf.subarray(0, done);
  }

  /** Runs a parse over a window at `offset`, doubling the window while the parse runs off its end. */
  async parseAt<T>(offset: number, parse: (lex: Lexer, base: number) => T, initial = 4096): Promise<T> {
    if (offset < 0 || offset >= this.size) throw new PdfSyntaxError(`offset ${offset} is outside the file`);
    for (let window = initial; ; window *= 2) {
      const buf = await this.read(offset, window);
      try {
        return parse(new Lexer(buf, 0, offset + buf.length >= this.size), offset);
      } catch (err) {
        if (!(err instanceof NeedMoreBytes)) throw err;
        if (window >= MAX_WINDOW) throw new PdfSyntaxError(`an object at byte ${offset} is larger than ${MAX_WINDOW} bytes`);
      }
    }
  }

  /** Reads "num gen obj <value> [stream]" at an offset; for a stream, where its data starts. */
  async objectAt(offset: number, expectNum?: number): Promise<{ value: PdfValue; streamAt: number | null }> {
    return this.parseAt(offset, (lex, base) => {
      const num = Number(lex.word());
      lex.word();
      lex.expectWord('obj');
      if (expectNum !== undefined && num !== expectNum) throw new PdfSyntaxError(`object ${expectNum} is not at byte ${offset}`);
      const value = lex.value();
      if (lex.word(true) !== 'stream') return { value, streamAt: null };
      lex.word();
      // The keyword is followed by CRLF or LF, then the data.
      if (lex.buf[lex.pos] === 0x0d) lex.pos++;
      if (lex.buf[lex.pos] === 0x0a) lex.pos++;
      return { value, streamAt: base + lex.pos };
    });
  }

  async streamData(dict: PdfDict, at: number): Promise<Buffer> {
    const length = await this.resolve(dict.get('Length'));
    if (typeof length !== 'number' || length < 0 || at + length > this.size) throw new PdfSyntaxError('a stream has no usable /Length');
    if (length > MAX_INFLATED) throw new PdfSyntaxError('a cross-reference or object stream is too large');
    let data = await this.read(at, length);
    const filters = [dict.get('Filter')].flat().map(nameOf).filter((f) => f !== null);
    if (filters.length > 1 || (filters[0] && filters[0] !== 'FlateDecode')) throw new PdfSyntaxError(`unsupported stream filter ${filters.join(', ')}`);
    if (filters[0]) {
      try {
        data = inflateSync(data, { maxOutputLength: MAX_INFLATED });
      } catch {
        throw new PdfSyntaxError('a compressed stream does not inflate');
      }
    }
    const params = [dict.get('DecodeParms')].flat()[0];
    if (isDict(params)) data = unpredict(data, params);
    return data;
  }

  async resolve(value: PdfValue | undefined, depth = 0): Promise<PdfValue | undefined> {
    if (!isRef(value)) return value;
    if (depth > 32) throw new PdfSyntaxError('references loop');
    return this.resolve(await this.object(value.num), depth + 1);
  }

  async object(num: number): Promise<PdfValue> {
    const entry = this.entries.get(num);
    if (!entry || entry.kind === 'free') return null; // the spec: a reference to a missing object is null
    if (entry.kind === 'offset') return (await this.objectAt(entry.offset, num)).value;
    const stream = await this.objectStream(entry.stream);
    const at = stream.offsets.get(num);
    if (at === undefined) throw new PdfSyntaxError(`object ${num} is not in object stream ${entry.stream}`);
    return new Lexer(stream.data, at, true).value();
  }

  private async objectStream(num: number) {
    const cached = this.objectStreams.get(num);
    if (cached) return cached;
    if (this.encrypted) throw new PdfSyntaxError('the document is encrypted');
    const entry = this.entries.get(num);
    if (entry?.kind !== 'offset') throw new PdfSyntaxError(`object stream ${num} is missing`);
    const { value, streamAt } = await this.objectAt(entry.offset, num);
    if (!isDict(value) || streamAt === null) throw new PdfSyntaxError(`object ${num} is not an object stream`);
    const data = await this.streamData(value, streamAt);
    const count = value.get('N');
    const first = value.get('First');
    if (typeof count !== 'number' || typeof first !== 'number') throw new PdfSyntaxError('an object stream lacks /N or /First');
    const header = new Lexer(data.subarray(0, first), 0, true);
    const offsets = new Map<number, number>();
    for (let i = 0; i < count; i++) {
      const objNum = Number(header.word());
      offsets.set(objNum, first + Number(header.word()));
    }
    const stream = { data, offsets };
    this.objectStreams.set(num, stream);
    return stream;
  }

  /** Reads one cross-reference section (table or stream) at an offset; older entries never replace newer ones. */
  async readXref(offset: number): Promise<PdfDict> {
    const isTable = await this.parseAt(offset, (lex) => lex.word(true) === 'xref', 64);
    if (isTable) return this.readXrefTable(offset);
    const { value, streamAt } = await this.objectAt(offset);
    if (!isDict(value) || streamAt === null || nameOf(value.get('Type')) !== 'XRef') throw new PdfSyntaxError(`no cross-reference section at byte ${offset}`);
    this.readXrefStream(value, await this.streamData(value, streamAt));
    return value;
  }

  private async readXrefTable(offset: number): Promise<PdfDict> {
    return this.parseAt(offset, (lex) => {
      lex.expectWord('xref');
      for (;;) {
        const word = lex.word();
        if (word === 'trailer') {
          const trailer = lex.value();
          if (!isDict(trailer)) throw new PdfSyntaxError('the trailer is not a dictionary');
          return trailer;
        }
        const first = Number(word);
        const count = Number(lex.word());
        if (!Number.isInteger(first) || !Number.isInteger(count)) throw new PdfSyntaxError('a cross-reference subsection header is malformed');
        for (let i = 0; i < count; i++) {
          const at = Number(lex.word());
          lex.word(); // generation
          const type = lex.word();
          if (!this.entries.has(first + i)) this.entries.set(first + i, type === 'n' ? { kind: 'offset', offset: at } : { kind: 'free' });
        }
      }
    }, 64 * 1024);
  }

  private readXrefStream(dict: PdfDict, data: Buffer): void {
    const widths = dict.get('W');
    const size = dict.get('Size');
    if (!Array.isArray(widths) || widths.length !== 3 || typeof size !== 'number') throw new PdfSyntaxError('a cross-reference stream lacks /W or /Size');
    const [w1, w2, w3] = widths.map((w) => (typeof w === 'number' ? w : -1)) as [number, number, number];
    if (w1 < 0 || w2 < 0 || w3 < 0 || w1 + w2 + w3 === 0) throw new PdfSyntaxError('a cross-reference stream has bad /W');
    const index = dict.get('Index');
    const ranges = Array.isArray(index) ? (index as number[]) : [0, size];
    const rowBytes = w1 + w2 + w3;
    const field = (at: number, width: number) => {
      let n = 0;
      for (let i = 0; i < width; i++) n = n * 256 + data[at + i]!;
      return n;
    };
    let row = 0;
    for (let r = 0; r + 1 < ranges.length; r += 2) {
      const [first, count] = [ranges[r]!, ranges[r + 1]!];
      for (let i = 0; i < count; i++, row++) {
        const at = row * rowBytes;
        if (at + rowBytes > data.length) throw new PdfSyntaxError('a cross-reference stream is shorter than its /Index says');
        const type = w1 === 0 ? 1 : field(at, w1);
        const a = field(at + w1, w2);
        const b = field(at + w1 + w2, w3);
        if (this.entries.has(first + i)) continue;
        if (type === 1) this.entries.set(first + i, { kind: 'offset', offset: a });
        else if (type === 2) this.entries.set(first + i, { kind: 'compressed', stream: a, index: b });
        else this.entries.set(first + i, { kind: 'free' });
      }
    }
  }
}

/** PNG predictors (10–15), which cross-reference streams commonly use; TIFF predictor 2 is not supported. */
function unpredict(data: Buffer, params: PdfDict): Buffer {
  const predictor = params.get('Predictor');
  if (typeof predictor !== 'number' || predictor < 10) {
    if (predictor === 2) throw new PdfSyntaxError('unsupported TIFF predictor');
    return data;
  }
  const colors = (params.get('Colors') as number | undefined) ?? 1;
  const bits = (params.get('BitsPerComponent') as number | undefined) ?? 8;
  const columns = (params.get('Columns') as number | undefined) ?? 1;
  const bpp = Math.max(1, Math.ceil((colors * bits) / 8));
  const rowLength = Math.ceil((colors * bits * columns) / 8);
  const rows = Math.floor(data.length / (rowLength + 1));
  const out = Buffer.alloc(rows * rowLength);
  for (let r = 0; r < rows; r++) {
    const filter = data[r * (rowLength + 1)]!;
    const src = r * (rowLength + 1) + 1;
    const dst = r * rowLength;
    for (let i = 0; i < rowLength; i++) {
      const raw = data[src + i]!;
      const left = i >= bpp ? out[dst + i - bpp]! : 0;
      const up = r > 0 ? out[dst - rowLength + i]! : 0;
      const upLeft = r > 0 && i >= bpp ? out[dst - rowLength + i - bpp]! : 0;
      let value: number;
      if (filter === 0) value = raw;
      else if (filter === 1) value = raw + left;
      else if (filter === 2) value = raw + up;
      else if (filter === 3) value = raw + ((left + up) >> 1);
      else if (filter === 4) {
        const p = left + up - upLeft;
        const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
        value = raw + (pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft);
      } else throw new PdfSyntaxError(`unknown PNG predictor row filter ${filter}`);
      out[dst + i] = value & 0xff;
    }
  }
  return out;
}

async function followXrefChain(pdf: PdfFile, start: number): Promise<PdfDict> {
  let newest: PdfDict | null = null;
  const seen = new Set<number>();
  for (let at: number | null = start; at !== null; ) {
    if (seen.has(at) || seen.size > 1000) throw new PdfSyntaxError('the cross-reference chain loops');
    seen.add(at);
    const trailer = await pdf.readXref(at);
    newest ??= trailer;
    // A hybrid file's table points at a stream holding the objects only 1.5 readers see; it outranks /Prev.
    const hybrid = trailer.get('XRefStm');
    if (typeof hybrid === 'number' && !seen.has(hybrid)) {
      seen.add(hybrid);
      await pdf.readXref(hybrid);
    }
    const prev = trailer.get('Prev');
    at = typeof prev === 'number' ? prev : null;
  }
  return newest!;
}

/** Rebuilds object offsets by scanning the file for "N G obj", as readers do for a damaged file. */
async function reconstruct(pdf: PdfFile): Promise<PdfDict> {
  const header = /(\d+)\s+\d+\s+obj\b/g;
  const trailers: number[] = [];
  const xrefStreams: number[] = [];
  const overlap = 64;
  for (let base = 0; base < pdf.size; base += SCAN_CHUNK) {
    const text = (await pdf.read(base, SCAN_CHUNK + overlap)).toString('latin1');
    const limit = Math.min(SCAN_CHUNK, text.length); // matches starting in the overlap belong to the next chunk
    for (const m of text.matchAll(header)) {
      if (m.index >= limit) break;
      // Later definitions of an object replace earlier ones, as incremental updates do.
      pdf.entries.set(Number(m[1]), { kind: 'offset', offset: base + m.index });
    }
    for (const m of text.matchAll(/trailer|\/Type\s*\/XRef\b/g)) {
      if (m.index >= limit) break;
      if (m[0] === 'trailer') trailers.push(base + m.index);
      else xrefStreams.push(base + m.index);
    }
  }
  for (const at of trailers.reverse()) {
    const trailer = await pdf.parseAt(at, (lex) => (lex.expectWord('trailer'), lex.value())).catch(() => null);
    if (isDict(trailer) && trailer.has('Root')) return trailer;
  }
  // No classic trailer: the newest cross-reference stream's dictionary is the trailer, and its entries for
  // objects inside object streams still hold (they name a stream, not an offset).
  const offsets = new Map(pdf.entries);
  for (const at of xrefStreams.reverse()) {
    const owner = [...offsets.values()].filter((e) => e.kind === 'offset' && e.offset < at).sort((a, b) => (b as { offset: number }).offset - (a as { offset: number }).offset)[0];
    if (owner?.kind !== 'offset') continue;
    pdf.entries.clear();
    const trailer = await pdf.readXref(owner.offset).catch(() => null);
    for (const [num, entry] of offsets) pdf.entries.set(num, entry);
    if (trailer?.has('Root')) return trailer;
  }
  throw new PdfSyntaxError('no trailer with a document catalog');
}

async function pagesFromTrailer(pdf: PdfFile, trailer: PdfDict): Promise<number> {
  pdf.encrypted = trailer.has('Encrypt');
  const root = await pdf.resolve(trailer.get('Root'));
  if (!isDict(root)) throw new PdfSyntaxError('the document catalog is missing');
  const pages = await pdf.resolve(root.get('Pages'));
  if (!isDict(pages) || nameOf(pages.get('Type')) !== 'Pages') throw new PdfSyntaxError('the page tree is missing');
  const count = await pdf.resolve(pages.get('Count'));
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 0) throw new PdfSyntaxError('the page tree has no valid /Count');
  return count;
}

export async function countPdfPages(file: FileHandle, size: number): Promise<PdfPagesResult> {
  const pdf = new PdfFile(file, size);
  const tailStart = Math.max(0, size - TAIL_BYTES);
  const tail = (await pdf.read(tailStart, TAIL_BYTES)).toString('latin1');
  const startxref = tail.lastIndexOf('startxref');
  if (startxref < 0 || tail.lastIndexOf('%%EOF') < startxref) return { ok: false, message: 'the PDF is truncated: it does not end with startxref and %%EOF' };
  const offset = Number(/^startxref\s+(\d+)/.exec(tail.slice(startxref))?.[1] ?? NaN);
  let pages: number;
  try {
    try {
      if (!Number.isInteger(offset)) throw new PdfSyntaxError('startxref has no offset');
      pages = await pagesFromTrailer(pdf, await followXrefChain(pdf, offset));
    } catch (err) {
      if (!(err instanceof PdfSyntaxError) || pdf.encrypted) throw err;
      pdf.entries.clear();
      pages = await pagesFromTrailer(pdf, await reconstruct(pdf));
    }
  } catch (err) {
    if (err instanceof PdfSyntaxError) return { ok: false, message: `the PDF cannot be read: ${err.message}` };
    throw err;
  }
  if (pages === 0) return { ok: false, message: 'the PDF has no pages' };
  return { ok: true, pages };
}
