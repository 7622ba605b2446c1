// A small reader of PDF object syntax (ISO 32000-1 section 7.3): enough to read dictionaries, arrays,
// numbers, names and indirect references out of a byte window. Strings are skipped, not decoded: the page
// counter never needs their contents. The page counter gives it windows of a file read at known offsets,
// so a parse that runs off the end of its window throws NeedMoreBytes and is retried with a larger one.

export interface PdfRef {
  ref: true;
  num: number;
  gen: number;
}
export interface PdfName {
  name: string;
}
export type PdfValue = number | boolean | null | string | PdfName | PdfRef | PdfValue[] | PdfDict | PdfString;
export type PdfDict = Map<string, PdfValue>;
/** A string's contents are not decoded; only that there was one. */
export interface PdfString {
  string: true;
}

export class NeedMoreBytes extends Error {
  constructor() {
    super('the object runs past the bytes read');
  }
}

export class PdfSyntaxError extends Error {}

const WHITESPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const DELIMITERS = new Set([0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]);

export const isWhitespace = (c: number) => WHITESPACE.has(c);
const isRegular = (c: number) => !WHITESPACE.has(c) && !DELIMITERS.has(c);

export const isRef = (v: PdfValue | undefined): v is PdfRef => typeof v === 'object' && v !== null && 'ref' in v;
export const isDict = (v: PdfValue | undefined): v is PdfDict => v instanceof Map;
export const nameOf = (v: PdfValue | undefined): string | null =>
  typeof v === 'object' && v !== null && 'name' in v ? v.name : null;

/** A cursor over a window of bytes; `base` is the window's offset in the file. */
export class Lexer {
  pos: number;
  readonly buf: Buffer;
  /** True when the window ends at the end of the file (running out is then a syntax error). */
  readonly atEof: boolean;
  constructor(buf: Buffer, pos = 0, atEof = false) {
    this.buf = buf;
    this.pos = pos;
    this.atEof = atEof;
  }

  private outOfBytes(): never {
    if (this.atEof) throw new PdfSyntaxError('unexpected end of file');
    throw new NeedMoreBytes();
  }

  skipWhitespace(): void {
    const b = this.buf;
    for (;;) {
      while (this.pos < b.length && WHITESPACE.has(b[this.pos]!)) this.pos++;
      if (this.pos < b.length && b[this.pos] === 0x25) {
        // A comment runs to the end of the line.
        while (this.pos < b.length && b[this.pos] !== 0x0a && b[this.pos] !== 0x0d) this.pos++;
        continue;
      }
      return;
    }
  }

  /** The next regular token (a number, keyword or the like), without consuming it when peek is set. */
  word(peek = false): string {
    this.skipWhitespace();
    const start = this.pos;
    let end = start;
    while (end < this.buf.length && isRegular(this.buf[end]!)) end++;
    if (end === this.buf.length && !this.atEof) this.outOfBytes();
    if (!peek) this.pos = end;
    return this.buf.toString('latin1', start, end);
  }

  expectWord(word: string): void {
    const got = this.word();
    if (got !== word) throw new PdfSyntaxError(`expected '${word}', found '${got.slice(0, 20)}'`);
  }

  value(): PdfValue {
    this.skipWhitespace();
    const b = this.buf;
    if (this.pos >= b.length) this.outOfBytes();
    const c = b[this.pos]!;
    if (c === 0x2f) return this.name();
    if (c === 0x3c) {
      if (this.pos + 1 >= b.length) this.outOfBytes();
      if (b[this.pos + 1] === 0x3c) return this.dict();
      return this.hexString();
    }
    if (c === 0x5b) return this.array();
    if (c === 0x28) return this.literalString();
    const word = this.word();
    if (word === 'true') return true;
    if (word === 'false') return false;
    if (word === 'null') return null;
    if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(word)) {
      const n = Number(word);
      // "num gen R" is an indirect reference.
      if (/^\d+$/.test(word)) {
        const save = this.pos;
        const gen = this.word();
        if (/^\d+$/.test(gen) && this.word() === 'R') return { ref: true, num: n, gen: Number(gen) };
        this.pos = save;
      }
      return n;
    }
    if (word === '') throw new PdfSyntaxError(`unexpected character '${String.fromCharCode(c)}'`);
    return word; // a keyword such as 'obj', 'stream', 'R' out of place: callers check
  }

  private name(): PdfName {
    this.pos++; // '/'
    const start = this.pos;
    while (this.pos < this.buf.length && isRegular(this.buf[this.pos]!)) this.pos++;
    if (this.pos === this.buf.length && !this.atEof) this.outOfBytes();
    const raw = this.buf.toString('latin1', start, this.pos);
    return { name: raw.replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))) };
  }

  private dict(): PdfDict {
    this.pos += 2;
    const out: PdfDict = new Map();
    for (;;) {
      this.skipWhitespace();
      if (this.pos + 1 >= this.buf.length) this.outOfBytes();
      if (this.buf[this.pos] === 0x3e && this.buf[this.pos + 1] === 0x3e) {
        this.pos += 2;
        return out;
      }
      const key = this.value();
      const name = nameOf(key);
      if (name === null) throw new PdfSyntaxError('a dictionary key is not a name');
      out.set(name, this.value());
    }
  }

  private array(): PdfValue[] {
    this.pos++;
    const out: PdfValue[] = [];
    for (;;) {
      this.skipWhitespace();
      if (this.pos >= this.buf.length) this.outOfBytes();
      if (this.buf[this.pos] === 0x5d) {
        this.pos++;
        return out;
      }
      out.push(this.value());
    }
  }

  private hexString(): PdfString {
    const end = this.buf.indexOf(0x3e, this.pos);
    if (end < 0) this.outOfBytes();
    this.pos = end + 1;
    return { string: true };
  }

  private literalString(): PdfString {
    // Balanced parentheses, backslash escapes.
    let depth = 0;
    for (let i = this.pos; i < this.buf.length; i++) {
      const c = this.buf[i]!;
      if (c === 0x5c) {
        i++;
        continue;
      }
      if (c === 0x28) depth++;
      else if (c === 0x29 && --depth === 0) {
        this.pos = i + 1;
        return { string: true };
      }
    }
    return this.outOfBytes();
  }
}
