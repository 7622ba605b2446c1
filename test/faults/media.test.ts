// Fault matrix: the media library (API.md section 10). Each row is bad input or a failing dependency and
// the outcome promised:
//   a body of 1 GiB + 1 byte (streamed, never allocated)        → 413 PAYLOAD_TOO_LARGE, nothing kept, memory flat
//   a client that stops halfway                                  → no row, no file
//   a multipart form that ends without its closing boundary      → 400 VALIDATION_ERROR "cut off", answered at once, nothing kept
//   the database refusing the Idempotency-Key claim once the file → 500 INTERNAL_ERROR, no row, no file (the file was left behind: fixed)
//   is stored
//   storage failing mid-upload: disk full (tmpfs), S3 answers 500 → 503 STORAGE_UNAVAILABLE with Retry-After, no row, no file
//   disk full mid-way through a multipart upload, or an import    → the same 503, no row, no file
//   disk full when a publishing target needs a rendition         → the target fails platform_unavailable, nothing posted; with room again, retry posts it once
//   S3 timing out (accepts connections, never answers): uploads   → 503 STORAGE_UNAVAILABLE after HERALD_S3_TIMEOUT_MS × 3, no row, nothing in the bucket
//   S3 timing out: the public URL                                 → 503 STORAGE_UNAVAILABLE with Retry-After; 200 with the bytes once it answers
//   S3 timing out: a target that needs a rendition                → platform_unavailable, nothing posted; once it answers, retry posts it once
//   a PNG declaring 60000×60000 pixels (a decompression bomb)      → 400 MEDIA_UNREADABLE "too large to process", nothing decoded, nothing kept
//   a PNG of 256 megapixels of zeros in 250 KB                    → 201: probed as it streams, memory flat
//   a PNG whose image data is noise                               → 400 MEDIA_UNREADABLE, nothing kept
//   an MP4 whose boxes overrun the file, or whose moov is garbage → 400 MEDIA_UNREADABLE with ffprobe's or the box walk's reason
//   ffprobe missing                                               → 503 MEDIA_PROBE_UNAVAILABLE with Retry-After, nothing kept; start-up warned (images still upload)
//   ffprobe crashing on the file (SIGSEGV)                        → 400 MEDIA_UNREADABLE "ffprobe crashed (SIGSEGV)", nothing kept
//   an import that redirects to a private address                → 400 param url, nothing fetched from there
//   an import that never ends                                     → cut at the size limit: 413; one that stalls: cut at the time limit
//   an import that is an HTML page                                → 415 UNSUPPORTED_MEDIA_TYPE
//   past the key's quota                                          → 422 MEDIA_QUOTA_EXCEEDED, before the body is read when already full
//   retention                                                     → media unused for N days goes with its renditions; media a draft holds stays
// Proved elsewhere: truncated JPEGs, videos cut short (index first or last), PDFs and animated GIFs
// (test/unit/media/probe.test.ts, test/integration/media-library.test.ts); renditions of sources that cannot
// be decoded are failures, not throws (test/unit/media/renditions.test.ts); every S3 operation against a
// store that refuses connections (test/integration/media-store-s3.test.ts).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, open, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { sql } from 'kysely';
import { connectAccount } from '../helpers/connect.ts';
import { posted, startWorld, waitFinal, type World } from '../helpers/e2e.ts';
import { createMediaFixtures, type MediaFixtures } from '../helpers/media-fixtures.ts';
import { sha256, uploadOk, uploadRaw } from '../helpers/media.ts';
import { overrideLookup } from '../helpers/resolver.ts';
import { s3Env, startS3Server, type TestS3Server } from '../helpers/s3-server.ts';
import { startStallProxy, type StallProxy } from '../helpers/stall-proxy.ts';
import { startHerald, type TestHerald } from '../helpers/herald.ts';
import { HANG_CAP_MS, until } from '../helpers/wait.ts';

const GIB = 1024 * 1024 * 1024;
let fx: MediaFixtures;
let jpeg: Buffer;

before(async () => {
  fx = await createMediaFixtures();
  jpeg = await readFile(await fx.image('small.jpg', { width: 64, height: 64, format: 'jpeg' }));
});
after(() => fx.cleanup());

async function filesUnder(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
  } catch {
    return [];
  }
}

async function mediaRows(h: TestHerald): Promise<number> {
  const rows = await h.runtime.db.kysely.selectFrom('media').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(rows.n);
}

/** POSTs a body produced chunk by chunk (never held whole), and reads the answer. */
function streamUpload(h: TestHerald, total: number, first: Buffer, options: { stopAfter?: number } = {}): Promise<{ status: number; body: any; headers: Record<string, unknown> } | 'cut'> {
  return new Promise((resolve, reject) => {
    const url = new URL(`${h.url}/v1/media`);
    const req = request({ host: url.hostname, port: url.port, method: 'POST', path: url.pathname, headers: { authorization: `Bearer ${h.key}`, 'content-type': 'image/jpeg', 'content-length': String(total) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : undefined, headers: res.headers }));
    });
    req.on('error', (err) => (options.stopAfter !== undefined ? resolve('cut') : reject(err)));
    const zeros = Buffer.alloc(1024 * 1024);
    let sent = 0;
    const pump = () => {
      while (sent < total) {
        if (options.stopAfter !== undefined && sent >= options.stopAfter) {
          req.socket?.destroy();
          setTimeout(() => resolve('cut'), 50);
          return;
        }
        const chunk = sent === 0 ? first : zeros.subarray(0, Math.min(zeros.length, total - sent));
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

describe('uploads', () => {
  let h: TestHerald;
  before(async () => {
    h = await startHerald();
  });
  after(() => h.close());

  test('1 GiB + 1 byte, streamed: 413 PAYLOAD_TOO_LARGE at the limit, nothing kept, memory flat', { timeout: 300_000 }, async () => {
    const rss = process.memoryUsage().rss;
    const res = await streamUpload(h, GIB + 1, jpeg.subarray(0, 512));
    assert.notEqual(res, 'cut');
    if (res === 'cut') return;
    assert.equal(res.status, 413, JSON.stringify(res.body));
    assert.equal(res.body.code, 'PAYLOAD_TOO_LARGE');
    assert.equal(await mediaRows(h), 0);
    assert.deepEqual(await filesUnder(join(h.runtime.config.dataDir, 'media')), []);
    // Herald runs in this process: had it held the body, RSS would have grown by a gigabyte.
    assert.ok(process.memoryUsage().rss - rss < 256 * 1024 * 1024, `RSS grew by ${Math.round((process.memoryUsage().rss - rss) / 1048576)} MB`);
  });

  test('a client that stops halfway leaves no row and no file', async () => {
    const res = await streamUpload(h, 8 * 1024 * 1024, jpeg, { stopAfter: 3 * 1024 * 1024 });
    assert.equal(res, 'cut');
    const mediaDir = join(h.runtime.config.dataDir, 'media');
    // Waits for the cut-off upload's clean-up (no fixed sleep: a busy machine may take longer).
    await until('the cut-off upload to leave nothing behind', async () => (await mediaRows(h)) === 0 && (await filesUnder(mediaDir)).length === 0);
    // The server still answers; once a later upload has been stored, the cut-off one has certainly been
    // handled (its bytes arrived first), and the only file and row are the later upload's.
    const later = await uploadOk(h, jpeg, 'image/jpeg');
    assert.equal(await mediaRows(h), 1);
    assert.deepEqual((await filesUnder(mediaDir)).map((f) => f.slice(mediaDir.length + 1).split('/')[0]), [later.id]);
  });
});

describe('the database failing once the file is stored', () => {
  test('the Idempotency-Key claim refused by the database: 500 INTERNAL_ERROR, no row, no file left in the store', async () => {
    const h = await startHerald();
    try {
      // The database itself refuses new idempotency keys (a trigger), as a full or failing one would.
      const db = h.runtime.db;
      if (db.dialect === 'postgres') {
        await sql`create function refuse_claims() returns trigger language plpgsql as $$ begin raise exception 'could not extend file'; end $$`.execute(db.writable);
        await sql`create trigger refuse_claims before insert on idempotency_keys for each row execute function refuse_claims()`.execute(db.writable);
      } else {
        await sql`create trigger refuse_claims before insert on idempotency_keys begin select raise(abort, 'database or disk is full'); end`.execute(db.writable);
      }
      const res = await fetch(`${h.url}/v1/media`, { method: 'POST', headers: { authorization: `Bearer ${h.key}`, 'content-type': 'image/jpeg', 'idempotency-key': '3f0b6a8e-2c1d-4e5f-9a7b-1c2d3e4f5a6b' }, body: jpeg });
      assert.equal(res.status, 500, await res.clone().text());
      assert.equal(((await res.json()) as { code: string }).code, 'INTERNAL_ERROR');
      assert.equal(await mediaRows(h), 0);
      assert.deepEqual(await filesUnder(join(h.runtime.config.dataDir, 'media')), [], 'the stored file went with the failed claim');
    } finally {
      await h.close();
    }
  });
});

describe('a multipart form cut short', () => {
  test('a form that ends without its closing boundary: 400 VALIDATION_ERROR "cut off", answered (not left hanging), nothing kept', async () => {
    const h = await startHerald();
    try {
      const boundary = 'cut-short';
      const body = Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`), jpeg.subarray(0, 300), Buffer.from('\r\n')]);
      // Found by the fuzzer: the part failed while the upload read the key's quota, and the upload then
      // waited for events the part had already sent. The cap turns such a hang into a failure here.
      const res = await fetch(`${h.url}/v1/media`, {
        method: 'POST',
        headers: { authorization: `Bearer ${h.key}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
        body,
        signal: AbortSignal.timeout(HANG_CAP_MS),
      });
      assert.equal(res.status, 400);
      const answer = (await res.json()) as { code: string; error: string };
      assert.equal(answer.code, 'VALIDATION_ERROR');
      assert.match(answer.error, /cut off/);
      assert.equal(await mediaRows(h), 0);
      assert.deepEqual(await filesUnder(join(h.runtime.config.dataDir, 'media')), []);
    } finally {
      await h.close();
    }
  });
});

describe('storage failing mid-upload', () => {
  test('disk full (a 512 KiB tmpfs; root only): 503 STORAGE_UNAVAILABLE with Retry-After, no row, no file', async (t) => {
    const h = await startHerald();
    const dir = join(h.runtime.config.dataDir, 'media');
    try {
      await mkdir(dir, { recursive: true });
      try {
        execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=512k', 'tmpfs', dir], { stdio: 'ignore' });
      } catch {
        return t.skip('mounting a small tmpfs needs root (CI runs as root)');
      }
      try {
        const big = Buffer.concat([jpeg, Buffer.alloc(2 * 1024 * 1024)]);
        const res = await uploadRaw(h, big, 'image/jpeg');
        assert.equal(res.status, 503, res.text);
        assert.equal(res.body.code, 'STORAGE_UNAVAILABLE');
        assert.equal(res.headers.get('retry-after'), '30');
        assert.equal(await mediaRows(h), 0);
        assert.deepEqual(await filesUnder(dir), []);
      } finally {
        execFileSync('umount', [dir]);
      }
    } finally {
      await h.close();
    }
  });

  test('S3 answering 500 to the parts: 503 STORAGE_UNAVAILABLE with Retry-After, the upload aborted, no row', async () => {
    const seen: string[] = [];
    const fake = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      req.resume();
      req.on('end', () => {
        if (req.method === 'POST' && req.url?.includes('uploads')) {
          res.writeHead(200, { 'content-type': 'application/xml' });
          return res.end('<?xml version="1.0" encoding="UTF-8"?><InitiateMultipartUploadResult><Bucket>b</Bucket><Key>k</Key><UploadId>up-1</UploadId></InitiateMultipartUploadResult>');
        }
        if (req.method === 'DELETE') return res.writeHead(204).end();
        res.writeHead(500, { 'content-type': 'application/xml' });
        res.end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>InternalError</Code><Message>We encountered an internal error. Please try again.</Message></Error>');
      });
    });
    fake.listen(0, '127.0.0.1');
    await once(fake, 'listening');
    const endpoint = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
    const h = await startHerald({ env: { HERALD_MEDIA_STORE: 's3', HERALD_S3_BUCKET: 'b', HERALD_S3_ENDPOINT: endpoint, HERALD_S3_ACCESS_KEY_ID: 'k', HERALD_S3_SECRET_ACCESS_KEY: 's', HERALD_S3_FORCE_PATH_STYLE: 'true' } });
    try {
      const big = Buffer.concat([jpeg, Buffer.alloc(20 * 1024 * 1024)]);
      const res = await uploadRaw(h, big, 'image/jpeg');
      assert.equal(res.status, 503, res.text);
      assert.equal(res.body.code, 'STORAGE_UNAVAILABLE');
      assert.ok(Number(res.headers.get('retry-after')) > 0);
      assert.equal(await mediaRows(h), 0);
      assert.ok(seen.some((s) => s.startsWith('PUT ') && s.includes('partNumber')), seen.join(', '));
      assert.ok(seen.some((s) => s.startsWith('DELETE ') && s.includes('uploadId=up-1')), `the multipart upload is aborted: ${seen.join(', ')}`);
    } finally {
      await h.close();
      fake.close();
    }
  });
});

describe('imports', () => {
  let h: TestHerald;
  let guarded: TestHerald;
  let files: Server;
  let filesUrl: string;
  let restore: () => void;
  before(async () => {
    restore = overrideLookup({ 'intranet.herald.test': '10.0.0.1' });
    files = createServer((req, res) => {
      if (req.url === '/photo.jpg') return res.writeHead(200, { 'content-type': 'image/jpeg' }).end(jpeg);
      if (req.url === '/page') return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><p>not an image</p>');
      if (req.url === '/private') return res.writeHead(302, { location: 'http://intranet.herald.test/secret.jpg' }).end();
      if (req.url === '/endless') {
        res.writeHead(200, { 'content-type': 'image/jpeg' });
        res.write(jpeg.subarray(0, 512));
        const chunk = Buffer.alloc(64 * 1024, 7);
        const pump = () => {
          while (!res.destroyed && res.write(chunk));
          if (!res.destroyed) res.once('drain', pump);
        };
        return pump();
      }
      if (req.url === '/stalls') {
        res.writeHead(200, { 'content-type': 'image/jpeg' });
        return void res.write(jpeg.subarray(0, 512));
      }
      res.writeHead(404).end();
    });
    files.listen(0, '127.0.0.1');
    await once(files, 'listening');
    filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
    h = await startHerald({ env: { HERALD_MEDIA_MAX_BYTES: String(4 * 1024 * 1024), HERALD_MEDIA_IMPORT_TIMEOUT_MS: '1500' } });
    // The files server stands in for the sandbox's own (trusted) origin: a redirect from it is followed by
    // the guarded client, which refuses the private address it leads to.
    guarded = await startHerald({ env: { HERALD_ALLOW_PRIVATE_NETWORKS: 'false', HERALD_SANDBOX: 'true', HERALD_PUBLIC_URL: filesUrl } });
  });
  after(async () => {
    restore();
    await h.close();
    await guarded.close();
    files.closeAllConnections();
    files.close();
  });

  test('a file: 201, and an Idempotency-Key replays it', async () => {
    const key = crypto.randomUUID();
    const first = await h.request('POST', '/v1/media/import', { body: { url: `${filesUrl}/photo.jpg`, altText: 'imported' }, headers: { 'idempotency-key': key } });
    assert.equal(first.status, 201, first.text);
    assert.equal(first.body.altText, 'imported');
    assert.match(first.body.url, /\/photo\.jpg$/);
    const again = await h.request('POST', '/v1/media/import', { body: { url: `${filesUrl}/photo.jpg`, altText: 'imported' }, headers: { 'idempotency-key': key } });
    assert.equal(again.status, 201);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(again.body.id, first.body.id);
  });

  test('HTML: 415; endless: 413 at the limit; stalling: cut at the time limit', async () => {
    const html = await h.request('POST', '/v1/media/import', { body: { url: `${filesUrl}/page` } });
    assert.equal(html.status, 415, html.text);
    const endless = await h.request('POST', '/v1/media/import', { body: { url: `${filesUrl}/endless` } });
    assert.equal(endless.status, 413, endless.text);
    const started = Date.now();
    const stalls = await h.request('POST', '/v1/media/import', { body: { url: `${filesUrl}/stalls` } });
    assert.equal(stalls.status, 400, stalls.text);
    assert.equal(stalls.body.code, 'MEDIA_FETCH_FAILED');
    assert.ok(Date.now() - started < 10_000);
    assert.equal(await mediaRows(h), 1, 'only the good import');
  });

  test('a redirect to a private address: 400 param url; private addresses directly: 400', async () => {
    const redirect = await guarded.request('POST', '/v1/media/import', { body: { url: `${filesUrl}/private` } });
    assert.equal(redirect.status, 400, redirect.text);
    assert.equal(redirect.body.param, 'url');
    assert.match(redirect.body.error, /private|loopback|reserved/);
    for (const url of ['http://127.0.0.1:1/x.jpg', 'http://[::1]/x.jpg', 'http://169.254.169.254/latest', 'http://intranet.herald.test/x.jpg']) {
      const res = await guarded.request('POST', '/v1/media/import', { body: { url } });
      assert.equal(res.status, 400, `${url}: ${res.text}`);
      assert.equal(res.body.param, 'url');
    }
    assert.equal(await mediaRows(guarded), 0);
  });
});

describe('quota and retention', () => {
  test('past the quota: 422 MEDIA_QUOTA_EXCEEDED; full already: refused before the body is read', async () => {
    const h = await startHerald({ env: { HERALD_MEDIA_QUOTA_BYTES: String(jpeg.length * 2 + 10) } });
    try {
      await uploadOk(h, jpeg, 'image/jpeg');
      await uploadOk(h, jpeg, 'image/jpeg');
      const over = await uploadRaw(h, jpeg, 'image/jpeg');
      assert.equal(over.status, 422, over.text);
      assert.equal(over.body.code, 'MEDIA_QUOTA_EXCEEDED');
      assert.equal(await mediaRows(h), 2);
      // Another key has its own quota.
      const other = await h.newKey();
      assert.equal((await uploadRaw(h, jpeg, 'image/jpeg', '', {}, other.key)).status, 201);
    } finally {
      await h.close();
    }
  });

  test('media unused for HERALD_MEDIA_RETENTION_DAYS is deleted with its files; media a draft holds stays', async () => {
    const h = await startHerald({ env: { HERALD_MEDIA_RETENTION_DAYS: '2' } });
    try {
      const old = await uploadOk(h, jpeg, 'image/jpeg');
      const held = await uploadOk(h, jpeg, 'image/jpeg');
      const fresh = await uploadOk(h, jpeg, 'image/jpeg');
      const draft = await h.request('POST', '/v1/posts', { body: { isDraft: true, content: 'holds', mediaItems: [{ mediaId: held.id }] } });
      assert.equal(draft.status, 201, draft.text);
      const threeDaysAgo = Date.now() - 3 * 86_400_000;
      await h.runtime.db.write((trx) => trx.updateTable('media').set({ last_used_at: threeDaysAgo }).where('id', 'in', [old.id, held.id]).execute());
      await h.runtime.maintenance();
      assert.equal((await h.request('GET', `/v1/media/${old.id}`)).status, 404);
      assert.equal((await fetch(old.url)).status, 404);
      assert.equal((await h.request('GET', `/v1/media/${held.id}`)).status, 200);
      assert.equal((await h.request('GET', `/v1/media/${fresh.id}`)).status, 200);
      const files = await filesUnder(join(h.runtime.config.dataDir, 'media'));
      assert.equal(files.length, 2, files.join(', '));
      assert.ok(!files.some((f) => f.includes(old.id)));
    } finally {
      await h.close();
    }
  });
});



function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

/** A valid greyscale PNG header for width×height, with `rows` rows of zero pixels (all of them by default). */
function craftedPng(width: number, height: number, rows = height): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth; colour type 0 (grey), no interlace
  const pixels = deflateSync(Buffer.alloc((width + 1) * rows), { level: 9 });
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk('IHDR', ihdr), pngChunk('IDAT', pixels), pngChunk('IEND', Buffer.alloc(0))]);
}

/** An ISO BMFF box: size, type, payload. */
function box(type: string, payload: Buffer): Buffer {
  const size = Buffer.alloc(4);
  size.writeUInt32BE(8 + payload.length);
  return Buffer.concat([size, Buffer.from(type, 'ascii'), payload]);
}

let video: string | undefined;
/** A real one-second MP4 (ffmpeg), made once. */
async function videoFixture(): Promise<string> {
  video ??= await fx.video('probe.mp4', { width: 320, height: 240, seconds: 1 });
  return video;
}

/** A tmpfs of `size` mounted on `dir` for the length of `run` (root only: `skip` otherwise). */
async function onSmallDisk(dir: string, size: string, skip: (reason: string) => void, run: () => Promise<void>): Promise<void> {
  await mkdir(dir, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    return skip('mounting a small tmpfs needs root (CI runs as root)');
  }
  try {
    await run();
  } finally {
    execFileSync('umount', ['-l', dir]);
  }
}

/** Writes zeros into `file` until the disk is full. */
async function fillDisk(file: string): Promise<void> {
  const out = await open(file, 'w');
  const chunk = Buffer.alloc(64 * 1024);
  try {
    for (;;) await out.write(chunk);
  } catch (err) {
    assert.equal((err as NodeJS.ErrnoException).code, 'ENOSPC');
  } finally {
    await out.close().catch(() => {});
  }
}

function multipart(file: Buffer, type: string): { body: Buffer; contentType: string } {
  const boundary = 'herald-fault-boundary';
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="altText"\r\n\r\nfilled the disk\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.jpg"\r\nContent-Type: ${type}\r\n\r\n`),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

describe('storage full mid-upload, the other ways in (a real small filesystem)', () => {
  test('a multipart upload and an import that fill a 512 KiB tmpfs: 503 STORAGE_UNAVAILABLE with Retry-After, no row, no file', async (t) => {
    const big = Buffer.concat([jpeg, Buffer.alloc(2 * 1024 * 1024)]);
    const files = createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/jpeg' }).end(big));
    files.listen(0, '127.0.0.1');
    await once(files, 'listening');
    const h = await startHerald();
    const dir = join(h.runtime.config.dataDir, 'media');
    try {
      await onSmallDisk(dir, '512k', (why) => t.skip(why), async () => {
        const form = multipart(big, 'image/jpeg');
        const uploaded = await uploadRaw(h, form.body, form.contentType);
        const imported = await h.request('POST', '/v1/media/import', { body: { url: `http://127.0.0.1:${(files.address() as AddressInfo).port}/big.jpg` } });
        for (const [what, res] of [['multipart', uploaded], ['import', imported]] as const) {
          assert.equal(res.status, 503, `${what}: ${res.text}`);
          assert.equal(res.body.code, 'STORAGE_UNAVAILABLE', what);
          assert.match(res.body.error, /ENOSPC/, what);
          assert.equal(res.headers.get('retry-after'), '30', what);
        }
        assert.equal(await mediaRows(h), 0);
        assert.deepEqual(await filesUnder(dir), []);
      });
    } finally {
      await h.close();
      files.close();
    }
  });

  test('the disk full when a target needs a rendition: the target fails platform_unavailable, nothing posted; with room again, retry posts it once', async (t) => {
    const w = await startWorld();
    const dir = join(w.h.runtime.config.dataDir, 'media');
    try {
      await onSmallDisk(dir, '3m', (why) => t.skip(why), async () => {
        const ig = (await connectAccount(w.h, 'instagram', { sandbox_pages: '1' })).accountId;
        // A PNG: Instagram takes JPEG only, so the target publishes a JPEG rendition made for it.
        const png = await readFile(await fx.image('noisy.png', { width: 500, height: 500, format: 'png', noise: true }));
        const m = await uploadOk(w.h, png, 'image/png');
        await fillDisk(join(dir, 'filler'));
        const content = `rendition on a full disk ${Date.now()}`;
        const post = await w.h.request('POST', '/v1/posts', { body: { content, publishNow: true, mediaItems: [{ mediaId: m.id }], platforms: [{ platform: 'instagram', accountId: ig }] } });
        assert.equal(post.status, 201, post.text);
        const failedPost = await waitFinal(w.h, post.body.id);
        assert.equal(failedPost.status, 'failed', JSON.stringify(failedPost));
        assert.equal(failedPost.platforms[0].errorCode, 'platform_unavailable');
        assert.match(failedPost.platforms[0].error, /media store failed while keeping a rendition .*ENOSPC/);
        assert.equal(posted(w.emu('meta'), { text: content }).length, 0, 'nothing reached Instagram');
        await rm(join(dir, 'filler'));
        const retried = await w.h.request('POST', `/v1/posts/${post.body.id}/retry`);
        assert.equal(retried.status, 200, retried.text);
        const final = await waitFinal(w.h, post.body.id);
        assert.equal(final.status, 'published', JSON.stringify(final));
        assert.equal(posted(w.emu('meta'), { text: content }).length, 1, 'posted once');
      });
    } finally {
      await w.close();
    }
  });
});

describe('S3 timing out (the store accepts connections and never answers)', () => {
  let s3: TestS3Server;
  let proxy: StallProxy;
  let w: World;
  let ig: string;
  let stored: any; // uploaded while S3 answered
  before(async () => {
    s3 = await startS3Server();
    proxy = await startStallProxy(s3.endpoint);
    w = await startWorld({
      mediaOrigins: [new URL(proxy.url).origin],
      env: {
        ...s3Env(s3, proxy.url),
        // A silent store is given up on after 1 s per try (three tries), so the test need not wait a minute.
        HERALD_S3_TIMEOUT_MS: '1000',
      },
    });
    ig = (await connectAccount(w.h, 'instagram', { sandbox_pages: '1' })).accountId;
    stored = await uploadOk(w.h, jpeg, 'image/jpeg');
  });
  after(async () => {
    await w.close();
    await proxy.close();
    await s3.close();
  });

  test('uploads, small and multipart: 503 STORAGE_UNAVAILABLE with Retry-After once the tries time out; no row; nothing in the bucket', async () => {
    const keys = await s3.objectKeys();
    const rows = await mediaRows(w.h);
    proxy.stall();
    try {
      for (const body of [jpeg, Buffer.concat([jpeg, Buffer.alloc(12 * 1024 * 1024)])]) {
        const res = await uploadRaw(w.h, body, 'image/jpeg');
        assert.equal(res.status, 503, res.text);
        assert.equal(res.body.code, 'STORAGE_UNAVAILABLE');
        assert.match(res.body.error, /media store \(S3\) failed .*nothing was kept/);
        assert.equal(res.headers.get('retry-after'), '30');
      }
      assert.ok(proxy.stalledConnections() > 0, 'the requests reached the stalled store');
    } finally {
      proxy.resume();
    }
    assert.equal(await mediaRows(w.h), rows);
    assert.deepEqual(await s3.objectKeys(), keys);
    await uploadOk(w.h, jpeg, 'image/jpeg');
  });

  test("the public URL while S3 is silent: 503 STORAGE_UNAVAILABLE with Retry-After; then 200 with the very bytes", async () => {
    proxy.stall();
    try {
      const res = await fetch(stored.url);
      assert.equal(res.status, 503);
      assert.equal(res.headers.get('retry-after'), '30');
      assert.equal(((await res.json()) as { code: string }).code, 'STORAGE_UNAVAILABLE');
    } finally {
      proxy.resume();
    }
    const ok = await fetch(stored.url);
    assert.equal(ok.status, 200);
    assert.equal(sha256(Buffer.from(await ok.arrayBuffer())), sha256(jpeg));
  });

  test('a target that needs a rendition while S3 is silent: platform_unavailable, nothing posted; once it answers, retry posts it once', async () => {
    const png = await readFile(await fx.image('s3-rendition.png', { width: 400, height: 400, format: 'png' }));
    const m = await uploadOk(w.h, png, 'image/png');
    const content = `rendition with S3 silent ${Date.now()}`;
    proxy.stall();
    let postId: string;
    try {
      const post = await w.h.request('POST', '/v1/posts', { body: { content, publishNow: true, mediaItems: [{ mediaId: m.id }], platforms: [{ platform: 'instagram', accountId: ig }] } });
      assert.equal(post.status, 201, post.text);
      postId = post.body.id;
      const failed = await waitFinal(w.h, postId);
      assert.equal(failed.status, 'failed', JSON.stringify(failed));
      assert.equal(failed.platforms[0].errorCode, 'platform_unavailable');
      assert.match(failed.platforms[0].error, /media store failed/);
    } finally {
      proxy.resume();
    }
    assert.equal(posted(w.emu('meta'), { text: content }).length, 0);
    const retried = await w.h.request('POST', `/v1/posts/${postId}/retry`);
    assert.equal(retried.status, 200, retried.text);
    assert.equal((await waitFinal(w.h, postId)).status, 'published');
    assert.equal(posted(w.emu('meta'), { text: content }).length, 1, 'posted once');
  });
});

describe('crafted files (sharp and ffprobe on hostile input)', () => {
  let h: TestHerald;
  before(async () => {
    h = await startHerald();
  });
  after(() => h.close());

  test('a PNG declaring 60000×60000 pixels in a few bytes: 400 MEDIA_UNREADABLE "too large to process", nothing kept', async () => {
    const res = await uploadRaw(h, craftedPng(60_000, 60_000, 1), 'image/png');
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.code, 'MEDIA_UNREADABLE');
    assert.match(res.body.error, /too large to process: 60000×60000 is 3600 megapixels/);
    assert.equal(await mediaRows(h), 0);
  });

  test('a PNG of 16000×16000 zeros (250 KB, 256 megapixels, under the limit): probed as it streams, 201 with its size', async () => {
    const rss = process.memoryUsage().rss;
    const res = await uploadRaw(h, craftedPng(16_000, 16_000), 'image/png');
    assert.equal(res.status, 201, res.text);
    assert.deepEqual([res.body.width, res.body.height], [16_000, 16_000]);
    // Herald runs in this process: a decoder holding the whole image would have grown it by 256 MB or more.
    assert.ok(process.memoryUsage().rss - rss < 200 * 1024 * 1024, `RSS grew by ${Math.round((process.memoryUsage().rss - rss) / 1048576)} MB`);
  });

  test('a PNG whose image data is noise: 400 MEDIA_UNREADABLE "damaged or truncated", nothing kept', async () => {
    const good = craftedPng(64, 64);
    const bad = Buffer.from(good);
    // Overwrite the compressed pixels (after the 8-byte signature and the 25-byte IHDR chunk, IDAT's data).
    for (let i = 33 + 8 + 2; i < bad.length - 16; i++) bad[i] = (i * 37) & 0xff;
    const rows = await mediaRows(h);
    const res = await uploadRaw(h, bad, 'image/png');
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.code, 'MEDIA_UNREADABLE');
    assert.equal(await mediaRows(h), rows);
  });

  test('an MP4 whose boxes claim more bytes than the file holds, and one whose moov is garbage: 400 MEDIA_UNREADABLE with the reason', async () => {
    const ftyp = box('ftyp', Buffer.concat([Buffer.from('isom'), Buffer.alloc(4), Buffer.from('isomiso2avc1mp41')]));
    const overlong = Buffer.concat([ftyp, Buffer.from([0x7f, 0xff, 0xff, 0xff]), Buffer.from('moov'), Buffer.alloc(64)]);
    const garbage = Buffer.concat([ftyp, box('moov', Buffer.alloc(400, 0xab)), box('mdat', Buffer.alloc(1000, 7))]);
    const rows = await mediaRows(h);
    const files = await filesUnder(join(h.runtime.config.dataDir, 'media'));
    for (const [what, bytes] of [['overlong box', overlong], ['garbage moov', garbage]] as const) {
      const res = await uploadRaw(h, bytes, 'video/mp4');
      assert.equal(res.status, 400, `${what}: ${res.text}`);
      assert.equal(res.body.code, 'MEDIA_UNREADABLE', what);
      assert.match(res.body.error, /^the file is video\/mp4 but cannot be read: /, what);
    }
    assert.equal(await mediaRows(h), rows);
    assert.deepEqual(await filesUnder(join(h.runtime.config.dataDir, 'media')), files);
  });

  test('ffprobe missing: 503 MEDIA_PROBE_UNAVAILABLE with Retry-After naming it, nothing kept; start-up already warned about HERALD_FFPROBE_PATH', async () => {
    const lines: string[] = [];
    const missing = await startHerald({ env: { HERALD_FFPROBE_PATH: '/nonexistent/ffprobe' }, logTo: { level: 'warn', write: (line) => void lines.push(line) } });
    try {
      await until('the start-up warning', () => lines.some((l) => l.includes('HERALD_FFPROBE_PATH')));
      const res = await uploadRaw(missing, await readFile(await videoFixture()), 'video/mp4');
      assert.equal(res.status, 503, res.text);
      assert.equal(res.body.code, 'MEDIA_PROBE_UNAVAILABLE');
      assert.match(res.body.error, /ffprobe could not be run \(\/nonexistent\/ffprobe: ENOENT\)/);
      assert.equal(res.headers.get('retry-after'), '30');
      assert.equal(await mediaRows(missing), 0);
      assert.deepEqual(await filesUnder(join(missing.runtime.config.dataDir, 'media')), []);
      // Images need no ffprobe.
      await uploadOk(missing, jpeg, 'image/jpeg');
    } finally {
      await missing.close();
    }
  });

  test('ffprobe crashing on the file (killed by SIGSEGV): 400 MEDIA_UNREADABLE saying it crashed, nothing kept', async () => {
    const script = join(fx.dir, 'crashing-ffprobe');
    await writeFile(script, '#!/bin/sh\nkill -SEGV $$\n', { mode: 0o755 });
    const crashing = await startHerald({ env: { HERALD_FFPROBE_PATH: script } });
    try {
      const res = await uploadRaw(crashing, await readFile(await videoFixture()), 'video/mp4');
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.code, 'MEDIA_UNREADABLE');
      assert.match(res.body.error, /ffprobe crashed \(SIGSEGV\) while reading the video/);
      assert.equal(await mediaRows(crashing), 0);
    } finally {
      await crashing.close();
    }
  });
});
