// The media library's routes through Herald's HTTP API (API.md section 10): upload (raw and multipart),
// import, list, get, alt text, delete, the public URL, and their documented errors.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createMediaFixtures, type MediaFixtures } from '../helpers/media-fixtures.ts';
import { startHerald, type TestHerald } from '../helpers/herald.ts';

let h: TestHerald;
let fx: MediaFixtures;
let jpeg: Buffer;
let png: Buffer;

before(async () => {
  h = await startHerald();
  fx = await createMediaFixtures();
  jpeg = await readFile(await fx.image('photo.jpg', { width: 640, height: 480, format: 'jpeg' }));
  png = await readFile(await fx.image('square.png', { width: 300, height: 300, format: 'png' }));
});
after(async () => {
  await h.close();
  await fx.cleanup();
});

export async function upload(h: TestHerald, bytes: Buffer, contentType: string, query = '', headers: Record<string, string> = {}, key = h.key) {
  const res = await fetch(`${h.url}/v1/media${query}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': contentType, ...headers }, body: bytes });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined, text };
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('upload', () => {
  test('a raw JPEG: 201 with the probe facts and a public URL that serves the bytes', async () => {
    const res = await upload(h, jpeg, 'image/jpeg', '?filename=holiday%20photo.jpg&altText=A%20blue%20square');
    assert.equal(res.status, 201, res.text);
    const m = res.body;
    assert.match(m.id, /^med_/);
    assert.deepEqual(
      { type: m.type, contentType: m.contentType, bytes: m.bytes, sha256: m.sha256, width: m.width, height: m.height, durationMs: m.durationMs, pages: m.pages, altText: m.altText },
      { type: 'image', contentType: 'image/jpeg', bytes: jpeg.length, sha256: sha(jpeg), width: 640, height: 480, durationMs: null, pages: null, altText: 'A blue square' },
    );
    assert.match(m.url, /\/media\/[A-Za-z0-9_-]{32}\/holiday-photo\.jpg$/);
    const got = await fetch(m.url);
    assert.equal(got.status, 200);
    assert.equal(got.headers.get('content-type'), 'image/jpeg');
    assert.equal(got.headers.get('content-length'), String(jpeg.length));
    assert.ok(Buffer.from(await got.arrayBuffer()).equals(jpeg));
  });

  test('a PNG declared as image/jpeg is a PNG, and its URL says .png', async () => {
    const res = await upload(h, png, 'image/jpeg', '?filename=photo.jpg');
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.contentType, 'image/png');
    assert.match(res.body.url, /\/photo\.png$/);
  });

  test('multipart with one part "file" and a field altText', async () => {
    const form = new FormData();
    form.set('altText', 'from a form');
    form.set('file', new Blob([png], { type: 'application/octet-stream' }), 'form.png');
    const res = await fetch(`${h.url}/v1/media`, { method: 'POST', headers: { authorization: `Bearer ${h.key}` }, body: form });
    const body: any = await res.json();
    assert.equal(res.status, 201, JSON.stringify(body));
    assert.equal(body.altText, 'from a form');
    assert.equal(body.contentType, 'image/png');
    assert.match(body.url, /\/form\.png$/);
  });

  test('multipart with two files, or none: 400, nothing kept', async () => {
    const before = (await h.request('GET', '/v1/media?limit=100')).body.media.length;
    const two = new FormData();
    two.set('file', new Blob([png]), 'a.png');
    two.append('file', new Blob([png]), 'b.png');
    const r2 = await fetch(`${h.url}/v1/media`, { method: 'POST', headers: { authorization: `Bearer ${h.key}` }, body: two });
    assert.equal(r2.status, 400, await r2.text());
    const none = new FormData();
    none.set('altText', 'no file');
    const r0 = await fetch(`${h.url}/v1/media`, { method: 'POST', headers: { authorization: `Bearer ${h.key}` }, body: none });
    const b0: any = await r0.json();
    assert.equal(r0.status, 400);
    assert.equal(b0.param, 'file');
    assert.equal((await h.request('GET', '/v1/media?limit=100')).body.media.length, before);
  });

  test('not a media file: 415; zero bytes: 400 MEDIA_UNREADABLE; truncated: 400 MEDIA_UNREADABLE', async () => {
    const html = await upload(h, Buffer.from('<!doctype html><html><body>hi</body></html>'), 'image/jpeg');
    assert.equal(html.status, 415, html.text);
    assert.equal(html.body.code, 'UNSUPPORTED_MEDIA_TYPE');
    const empty = await upload(h, Buffer.alloc(0), 'image/png');
    assert.equal(empty.status, 400, empty.text);
    assert.equal(empty.body.code, 'MEDIA_UNREADABLE');
    const cut = await upload(h, jpeg.subarray(0, Math.floor(jpeg.length / 2)), 'image/jpeg');
    assert.equal(cut.status, 400, cut.text);
    assert.equal(cut.body.code, 'MEDIA_UNREADABLE');
  });

  test('Idempotency-Key: the same file again answers the first media; another file under it is 422', async () => {
    const key = crypto.randomUUID();
    const first = await upload(h, jpeg, 'image/jpeg', '', { 'idempotency-key': key });
    assert.equal(first.status, 201);
    const again = await upload(h, jpeg, 'image/jpeg', '', { 'idempotency-key': key });
    assert.equal(again.status, 201);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(again.body.id, first.body.id);
    const other = await upload(h, png, 'image/png', '', { 'idempotency-key': key });
    assert.equal(other.status, 422, other.text);
  });
});

describe('list, get, alt text, delete', () => {
  test('newest first with a cursor; get; PATCH alt text; DELETE then the URL is 404', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await upload(h, png, 'image/png')).body.id);
    const page1 = await h.request('GET', '/v1/media?limit=2');
    assert.equal(page1.status, 200);
    assert.deepEqual(page1.body.media.map((m: any) => m.id), [ids[2], ids[1]]);
    assert.equal(page1.body.hasMore, true);
    const page2 = await h.request('GET', `/v1/media?limit=2&cursor=${page1.body.cursor}`);
    assert.equal(page2.body.media[0].id, ids[0]);
    const one = await h.request('GET', `/v1/media/${ids[0]}`);
    assert.equal(one.status, 200);
    const patched = await h.request('PATCH', `/v1/media/${ids[0]}`, { body: { altText: 'new words' } });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.altText, 'new words');
    const tooLong = await h.request('PATCH', `/v1/media/${ids[0]}`, { body: { altText: 'x'.repeat(1001) } });
    assert.equal(tooLong.status, 400);
    const url = one.body.url;
    assert.equal((await fetch(url)).status, 200);
    const del = await h.request('DELETE', `/v1/media/${ids[0]}`);
    assert.deepEqual(del.body, { id: ids[0], deleted: true });
    assert.equal((await fetch(url)).status, 404);
    assert.equal((await h.request('GET', `/v1/media/${ids[0]}`)).status, 404);
  });

  test("another key's media is 404 on every media route", async () => {
    const mine = (await upload(h, png, 'image/png')).body.id;
    const other = await h.newKey();
    for (const [method, body] of [['GET'], ['PATCH', { altText: 'x' }], ['DELETE']] as const) {
      const res = await h.request(method, `/v1/media/${mine}`, { key: other.key, body });
      assert.equal(res.status, 404, `${method}: ${res.text}`);
    }
    assert.equal((await h.request('GET', '/v1/media', { key: other.key })).body.media.length, 0);
  });
});

describe('the public URL', () => {
  test('HEAD, Range 206, 416, a wrong file name 404', async () => {
    const m = (await upload(h, jpeg, 'image/jpeg', '?filename=r.jpg')).body;
    const head = await fetch(m.url, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-length'), String(jpeg.length));
    assert.equal(head.headers.get('accept-ranges'), 'bytes');
    const part = await fetch(m.url, { headers: { range: 'bytes=10-19' } });
    assert.equal(part.status, 206);
    assert.equal(part.headers.get('content-range'), `bytes 10-19/${jpeg.length}`);
    assert.ok(Buffer.from(await part.arrayBuffer()).equals(jpeg.subarray(10, 20)));
    // A last byte past the end, even past any safe integer, is the end of the file (was a 500), on GET and HEAD.
    for (const method of ['GET', 'HEAD']) {
      const tail = await fetch(m.url, { method, headers: { range: 'bytes=10-99999999999999999999' } });
      assert.equal(tail.status, 206, `${method} ${tail.status}`);
      assert.equal(tail.headers.get('content-range'), `bytes 10-${jpeg.length - 1}/${jpeg.length}`);
      assert.equal(tail.headers.get('content-length'), String(jpeg.length - 10));
      if (method === 'GET') assert.ok(Buffer.from(await tail.arrayBuffer()).equals(jpeg.subarray(10)));
    }
    const past = await fetch(m.url, { headers: { range: `bytes=${jpeg.length + 5}-` } });
    assert.equal(past.status, 416);
    assert.equal(past.headers.get('content-range'), `bytes */${jpeg.length}`);
    assert.equal((await fetch(m.url.replace(/r\.jpg$/, 'other.jpg'))).status, 404);
    assert.equal((await fetch(m.url.replace(/\/media\/[^/]+\//, '/media/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/'))).status, 404);
  });
});
