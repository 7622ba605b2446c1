// Fault matrix: the media library (API.md section 10). Each row is bad input or a failing dependency and
// the outcome promised:
//   a body of 1 GiB + 1 byte (streamed, never allocated)        → 413 PAYLOAD_TOO_LARGE, nothing kept, memory flat
//   a client that stops halfway                                  → no row, no file
//   storage failing mid-upload: disk full (tmpfs), S3 answers 500 → 503 STORAGE_UNAVAILABLE with Retry-After, no row, no file
//   an import that redirects to a private address                → 400 param url, nothing fetched from there
//   an import that never ends                                     → cut at the size limit: 413; one that stalls: cut at the time limit
//   an import that is an HTML page                                → 415 UNSUPPORTED_MEDIA_TYPE
//   past the key's quota                                          → 422 MEDIA_QUOTA_EXCEEDED, before the body is read when already full
//   retention                                                     → media unused for N days goes with its renditions; media a draft holds stays
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createMediaFixtures, type MediaFixtures } from '../helpers/media-fixtures.ts';
import { uploadOk, uploadRaw } from '../helpers/media.ts';
import { overrideLookup } from '../helpers/resolver.ts';
import { startHerald, type TestHerald } from '../helpers/herald.ts';

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
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(await mediaRows(h), 0);
    assert.deepEqual(await filesUnder(join(h.runtime.config.dataDir, 'media')), []);
    // And the server still answers.
    await uploadOk(h, jpeg, 'image/jpeg');
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


