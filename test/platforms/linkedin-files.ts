// Media files for the LinkedIn tests, generated to order (an MP4 of a given length and size, a PDF of
// some pages, a PNG header of some size), and a small HTTP server that serves them.
import { createServer, type Server } from 'node:http';
import { SAMPLE_MEDIA } from '../../src/sandbox/media.ts';

function box(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
}

/** An MP4 whose movie header says `seconds`, padded to `bytes`. */
export function mp4(seconds: number, bytes: number): Buffer {
  const mvhd = Buffer.alloc(100);
  mvhd.writeUInt32BE(1000, 12);
  mvhd.writeUInt32BE(Math.round(seconds * 1000), 16);
  const head = Buffer.concat([box('ftyp', Buffer.from('mp42\0\0\0\0mp42isom', 'latin1')), box('moov', box('mvhd', mvhd))]);
  return Buffer.concat([head, box('mdat', Buffer.alloc(Math.max(0, bytes - head.length - 8), 7))]);
}

/** A PDF with `pages` uncompressed page objects. */
export function pdf(pages: number): Buffer {
  const objects = Array.from({ length: pages }, (_, i) => `${i + 3} 0 obj << /Type /Page /Parent 2 0 R >> endobj\n`).join('');
  return Buffer.from(`%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Count ${pages} >> endobj\n${objects}%%EOF\n`, 'latin1');
}

/** A PNG header claiming width × height (the emulator reads the size, not the pixels). */
export function png(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write('IHDR', 4, 'latin1');
  ihdr.writeUInt32BE(width, 8);
  ihdr.writeUInt32BE(height, 12);
  return Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), ihdr, Buffer.alloc(32)]);
}

export interface FileServer {
  url: string;
  /** Serves `bytes` at /<name>; returns its URL. */
  put(name: string, bytes: Buffer, contentType?: string): string;
  close(): Promise<void>;
}

export async function startFileServer(): Promise<FileServer> {
  const files = new Map<string, { bytes: Buffer; type: string }>();
  const server: Server = createServer((req, res) => {
    const file = files.get((req.url ?? '').split('?')[0]!.slice(1));
    if (!file) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': file.type, 'content-length': file.bytes.length }).end(file.bytes);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  files.set('sample.jpg', { bytes: SAMPLE_MEDIA['sample.jpg']!.bytes, type: 'image/jpeg' });
  return {
    url,
    put(name, bytes, contentType = 'application/octet-stream') {
      files.set(name, { bytes, type: contentType });
      return `${url}/${name}`;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
