// The S3 store against a real S3-compatible server (s3rver, test/helpers/s3-server.ts) on 127.0.0.1.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createS3Store, type S3Store } from '../../src/media/s3-store.ts';
import type { GetResult } from '../../src/media/store.ts';
import { startS3Server, type TestS3Server } from '../helpers/s3-server.ts';

const MIB = 1024 * 1024;
let s3: TestS3Server;
let store: S3Store;
let tmp: string;

before(async () => {
  s3 = await startS3Server();
  tmp = await mkdtemp(join(tmpdir(), 'herald-s3-local-'));
  store = createS3Store({ bucket: s3.bucket, region: s3.region, endpoint: s3.endpoint, credentials: s3.credentials, forcePathStyle: true, tmpDir: tmp, partSize: 5 * MIB, prefix: 'media/' });
});
after(async () => {
  store.close();
  await s3.close();
  await rm(tmp, { recursive: true, force: true });
});

async function bodyOf(result: GetResult): Promise<Buffer> {
  assert.ok(result.ok, result.ok ? '' : JSON.stringify(result));
  const chunks: Buffer[] = [];
  for await (const chunk of result.body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const chunked = (b: Buffer, size = 64 * 1024) => Readable.from(Array.from({ length: Math.ceil(b.length / size) }, (_, i) => b.subarray(i * size, (i + 1) * size)));

test('a small file: one PutObject; get, head and a range read it back with its content type', async () => {
  const content = randomBytes(100_000);
  assert.deepEqual(await store.put('med_s/original', chunked(content), { contentType: 'image/jpeg', maxBytes: MIB }), { ok: true, bytes: 100_000, sha256: sha256(content) });
  assert.deepEqual(await s3.objectKeys(), ['media/med_s/original']);
  const got = await store.get('med_s/original');
  assert.ok(got.ok && got.size === 100_000 && got.contentType === 'image/jpeg' && got.range === null);
  assert.ok((await bodyOf(got)).equals(content));
  assert.deepEqual(await store.head('med_s/original'), { ok: true, size: 100_000, contentType: 'image/jpeg' });
  const slice = await store.get('med_s/original', { range: { start: 1000, end: 1999 } });
  assert.ok(slice.ok && slice.size === 100_000 && slice.range?.start === 1000 && slice.range.end === 1999);
  assert.ok((await bodyOf(slice)).equals(content.subarray(1000, 2000)));
  const tail = await store.get('med_s/original', { range: { start: 99_990 } });
  assert.ok((await bodyOf(tail)).equals(content.subarray(99_990)));
  const past = await store.get('med_s/original', { range: { start: 100_000 } });
  assert.deepEqual(past.ok === false && [past.reason, 'size' in past && past.size], ['range_not_satisfiable', 100_000]);
});

test('a 23 MiB file streams up in 5 MiB parts (multipart) and reads back whole', async () => {
  const content = randomBytes(23 * MIB + 7);
  const put = await store.put('med_m/original', chunked(content), { contentType: 'video/mp4', maxBytes: 100 * MIB });
  assert.deepEqual(put, { ok: true, bytes: content.length, sha256: sha256(content) });
  const got = await store.get('med_m/original');
  assert.equal(sha256(await bodyOf(got)), sha256(content));
});

test('past the limit mid-stream: too_large, the multipart upload abandoned, no object', async () => {
  let produced = 0;
  const endless = new Readable({
    read() {
      produced += 256 * 1024;
      this.push(Buffer.alloc(256 * 1024, 9));
    },
  });
  const result = await store.put('med_big/original', endless, { contentType: 'video/mp4', maxBytes: 12 * MIB });
  assert.equal(result.ok === false && result.reason, 'too_large');
  assert.ok(produced < 40 * MIB, `read ${produced} bytes of an endless body`);
  assert.deepEqual((await s3.objectKeys()).filter((k) => k.includes('med_big')), []);
  assert.equal((await store.head('med_big/original')).ok, false);
});

test('a body that fails or is aborted, small or multipart, leaves no object', async () => {
  for (const [label, size] of [['small', 100_000], ['multipart', 12 * MIB]] as const) {
    const failing = new Readable({ read() {} });
    failing.push(Buffer.alloc(size, 1));
    setTimeout(() => failing.destroy(new Error('client went away')), 50);
    const failed = await store.put(`med_fail_${label}/original`, failing, { contentType: 'image/jpeg', maxBytes: 1e9 });
    assert.equal(failed.ok === false && failed.reason, 'aborted', label);
    const controller = new AbortController();
    const slow = new Readable({ read() {} });
    slow.push(Buffer.alloc(size, 2));
    setTimeout(() => controller.abort(), 50);
    const aborted = await store.put(`med_abort_${label}/original`, slow, { contentType: 'image/jpeg', maxBytes: 1e9, signal: controller.signal });
    assert.equal(aborted.ok === false && aborted.reason, 'aborted', label);
  }
  assert.deepEqual((await s3.objectKeys()).filter((k) => /med_(fail|abort)/.test(k)), []);
});

test('missing keys are not_found; delete is idempotent', async () => {
  await store.put('med_d/original', chunked(Buffer.from('bytes')), { contentType: 'text/plain', maxBytes: 100 });
  assert.deepEqual(await store.delete('med_d/original'), { ok: true });
  assert.deepEqual(await store.delete('med_d/original'), { ok: true });
  for (const result of [await store.get('med_d/original'), await store.head('med_d/original'), await store.localPath('med_d/original')]) {
    assert.equal(result.ok === false && result.reason, 'not_found');
  }
  assert.deepEqual(await readdir(tmp), [], 'a failed download leaves no temporary file');
});

test('localPath downloads a copy for the probe, removed on release', async () => {
  const content = randomBytes(300_000);
  await store.put('med_l/original', chunked(content), { contentType: 'video/mp4', maxBytes: MIB });
  const local = await store.localPath('med_l/original');
  assert.ok(local.ok);
  assert.ok((await readFile(local.path)).equals(content));
  await local.release();
  assert.deepEqual(await readdir(tmp), []);
});

test('a presigned URL serves the bytes, and a range of them, without credentials', async () => {
  const content = randomBytes(50_000);
  await store.put('med_p/original', chunked(content), { contentType: 'image/png', maxBytes: MIB });
  const url = await store.presignGet!('med_p/original', 300);
  assert.match(url, /X-Amz-Signature=[0-9a-f]{64}/);
  assert.match(url, /X-Amz-Expires=300/);
  const whole = await fetch(url);
  assert.equal(whole.status, 200);
  assert.equal(whole.headers.get('content-type'), 'image/png');
  assert.ok(Buffer.from(await whole.arrayBuffer()).equals(content));
  const part = await fetch(url, { headers: { range: 'bytes=10-19' } });
  assert.equal(part.status, 206);
  assert.ok(Buffer.from(await part.arrayBuffer()).equals(content.subarray(10, 20)));
  // s3rver checks the access key but not SigV4 signatures, so the signature is checked here, by the
  // algorithm (AWS SigV4, query-string form) written out independently of the SDK.
  assert.ok(verifyPresignedUrl(url, s3.credentials.secretAccessKey, s3.region), 'the SigV4 signature is valid');
  assert.ok(!verifyPresignedUrl(url.replace('med_p', 'med_q'), s3.credentials.secretAccessKey, s3.region), 'another key does not verify');
  assert.ok(!url.includes(s3.credentials.secretAccessKey + '&'));
});

/** Recomputes a presigned GET's SigV4 signature (docs.aws.amazon.com, "Authenticating Requests: Using Query Parameters"). */
function verifyPresignedUrl(url: string, secret: string, region: string): boolean {
  const u = new URL(url);
  const q = u.searchParams;
  const enc = (v: string) => encodeURIComponent(v).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const query = [...q.entries()].filter(([k]) => k !== 'X-Amz-Signature').map(([k, v]) => [enc(k), enc(v)]).sort(([a], [b]) => (a! < b! ? -1 : 1)).map(([k, v]) => `${k}=${v}`).join('&');
  const canonical = ['GET', u.pathname.split('/').map((p) => enc(decodeURIComponent(p))).join('/'), query, `host:${u.host}\n`, 'host', 'UNSIGNED-PAYLOAD'].join('\n');
  const date = q.get('X-Amz-Date')!;
  const scope = `${date.slice(0, 8)}/${region}/s3/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', date, scope, createHash('sha256').update(canonical).digest('hex')].join('\n');
  const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${secret}`, date.slice(0, 8)), region), 's3'), 'aws4_request');
  return q.get('X-Amz-Credential') === `S3RVER/${scope}` && createHmac('sha256', signingKey).update(toSign).digest('hex') === q.get('X-Amz-Signature');
}

test('wrong credentials are a configuration error (thrown), not a passing outage', async () => {
  const wrong = createS3Store({ bucket: s3.bucket, region: s3.region, endpoint: s3.endpoint, credentials: { accessKeyId: 'NOT-A-KEY', secretAccessKey: 'wrong' }, forcePathStyle: true, tmpDir: tmp, maxAttempts: 1 });
  try {
    await assert.rejects(wrong.put('med_w/original', chunked(Buffer.from('x')), { contentType: 'text/plain', maxBytes: 10 }));
    await assert.rejects(wrong.head('med_s/original'));
  } finally {
    wrong.close();
  }
});

test('a store that does not answer is unavailable (→ 503), for every operation', async () => {
  // A port that was just free: nothing listens there.
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
  const down = createS3Store({ bucket: 'b', region: 'us-east-1', endpoint: `http://127.0.0.1:${port}`, credentials: s3.credentials, forcePathStyle: true, tmpDir: tmp, maxAttempts: 1, connectTimeoutMs: 1000 });
  try {
    const results = [
      await down.put('med_x/original', chunked(Buffer.from('x')), { contentType: 'text/plain', maxBytes: 10 }),
      await down.get('med_x/original'),
      await down.head('med_x/original'),
      await down.delete('med_x/original'),
      await down.localPath('med_x/original'),
    ];
    for (const r of results) assert.equal(r.ok === false && r.reason, 'unavailable', JSON.stringify(r));
    assert.deepEqual(await readdir(tmp), []);
  } finally {
    down.close();
  }
});
