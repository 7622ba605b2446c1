import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { createDiskStore, type DiskStore } from '../../../src/media/disk-store.ts';
import { parseRangeHeader, type GetResult } from '../../../src/media/store.ts';

let root: string;
let store: DiskStore;
before(async () => {
  root = await mkdtemp(join(tmpdir(), 'herald-disk-store-'));
  store = createDiskStore({ root });
});
after(() => rm(root, { recursive: true, force: true }));

/** Every file under a folder, temporaries included. */
async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) if (entry.isFile()) out.push(join(entry.parentPath, entry.name));
  return out;
}

async function bodyOf(result: GetResult): Promise<Buffer> {
  assert.ok(result.ok, JSON.stringify(result));
  const chunks: Buffer[] = [];
  for await (const chunk of result.body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

test('put streams the body to a 0600 file and reports its size and SHA-256; get and head read it back', async () => {
  const content = Buffer.concat([PNG_HEAD, randomBytes(3 * 1024 * 1024 + 17)]);
  const chunks = Array.from({ length: Math.ceil(content.length / 65536) }, (_, i) => content.subarray(i * 65536, (i + 1) * 65536));
  const put = await store.put('med_a/original', Readable.from(chunks), { contentType: 'image/png', maxBytes: 10 * 1024 * 1024 });
  assert.deepEqual(put, { ok: true, bytes: content.length, sha256: createHash('sha256').update(content).digest('hex') });
  const info = await stat(join(root, 'med_a/original'));
  assert.equal(info.mode & 0o777, 0o600);
  assert.equal((await stat(join(root, 'med_a'))).mode & 0o777, 0o700);
  const got = await store.get('med_a/original');
  assert.ok(got.ok);
  assert.deepEqual([got.size, got.contentType, got.range], [content.length, 'image/png', null]);
  assert.ok((await bodyOf(got)).equals(content));
  assert.deepEqual(await store.head('med_a/original'), { ok: true, size: content.length, contentType: 'image/png' });
  const local = await store.localPath('med_a/original');
  assert.ok(local.ok && (await readFile(local.path)).equals(content));
  await local.release();
});

test('ranges: a slice, an open end, an end past the last byte, and a start past it', async () => {
  await store.put('med_r/original', Readable.from([Buffer.from('0123456789abcdefghij')]), { contentType: 'text/plain', maxBytes: 100 });
  const slice = await store.get('med_r/original', { range: { start: 10, end: 14 } });
  assert.ok(slice.ok && slice.size === 20 && slice.range?.start === 10 && slice.range.end === 14);
  assert.equal((await bodyOf(slice)).toString(), 'abcde');
  assert.equal((await bodyOf(await store.get('med_r/original', { range: { start: 15 } }))).toString(), 'fghij');
  assert.equal((await bodyOf(await store.get('med_r/original', { range: { start: 18, end: 500 } }))).toString(), 'ij');
  const past = await store.get('med_r/original', { range: { start: 20 } });
  assert.deepEqual(past.ok === false && [past.reason, 'size' in past && past.size], ['range_not_satisfiable', 20]);
  const unknown = await store.get('med_r/original');
  assert.ok(unknown.ok && unknown.contentType === 'application/octet-stream');
  await text(unknown.body);
});

test('Range headers are read as RFC 9110 says', () => {
  const cases: [string | undefined, unknown][] = [
    ['bytes=0-99', { start: 0, end: 99 }],
    // A last byte past the end is the end (RFC 9110 section 14.1.2), even one past any safe integer.
    ['bytes=10-5000', { start: 10, end: 999 }],
    ['bytes=0-99999999999999999999', { start: 0, end: 999 }],
    ['bytes=100-', { start: 100 }],
    ['bytes=-300', { start: 700, end: 999 }],
    ['bytes=-5000', { start: 0, end: 999 }],
    ['bytes=1000-', 'unsatisfiable'],
    ['bytes=-0', 'unsatisfiable'],
    ['bytes=5-1', null],
    ['bytes=0-1,5-6', null],
    ['items=0-1', null],
    ['bytes=-', null],
    [undefined, null],
  ];
  for (const [header, expected] of cases) assert.deepEqual(parseRangeHeader(header, 1000), expected, header);
});

test('a body past the limit is cut off mid-stream and leaves no file', async () => {
  let produced = 0;
  const endless = new Readable({
    read() {
      produced += 65536;
      this.push(Buffer.alloc(65536, 1));
    },
  });
  const result = await store.put('med_big/original', endless, { contentType: 'video/mp4', maxBytes: 1024 * 1024 });
  assert.deepEqual(result, { ok: false, reason: 'too_large', message: 'the file is larger than 1048576 bytes', limit: 1024 * 1024 });
  assert.ok(produced < 8 * 1024 * 1024, `read ${produced} bytes of an endless body`);
  assert.deepEqual((await filesUnder(root)).filter((f) => f.includes('med_big')), []);
  assert.equal((await store.head('med_big/original')).ok, false);
});

test('a body that errors, ends early or is aborted leaves no file', async () => {
  const failing = new Readable({ read() {} });
  failing.push(Buffer.alloc(200_000, 2));
  setTimeout(() => failing.destroy(new Error('client went away')), 20);
  const failed = await store.put('med_err/original', failing, { contentType: 'image/jpeg', maxBytes: 1e9 });
  assert.equal(failed.ok === false && failed.reason, 'aborted');
  const cut = new Readable({ read() {} });
  cut.push(Buffer.alloc(100_000, 3));
  setTimeout(() => cut.destroy(), 20);
  const cutResult = await store.put('med_cut/original', cut, { contentType: 'image/jpeg', maxBytes: 1e9 });
  assert.equal(cutResult.ok === false && cutResult.reason, 'aborted');
  const controller = new AbortController();
  const slow = new Readable({ read() {} });
  slow.push(Buffer.alloc(100_000, 4));
  setTimeout(() => controller.abort(), 20);
  const aborted = await store.put('med_abort/original', slow, { contentType: 'image/jpeg', maxBytes: 1e9, signal: controller.signal });
  assert.equal(aborted.ok === false && aborted.reason, 'aborted');
  const left = (await filesUnder(root)).filter((f) => /med_(err|cut|abort)/.test(f));
  assert.deepEqual(left, []);
});

test('delete: the file and its emptied folder go; a second delete succeeds; missing keys are not_found', async () => {
  await store.put('med_d/original', Readable.from([Buffer.from('x')]), { contentType: 'text/plain', maxBytes: 10 });
  await store.put('med_d/r-instagram.jpg', Readable.from([Buffer.from('y')]), { contentType: 'text/plain', maxBytes: 10 });
  assert.deepEqual(await store.delete('med_d/original'), { ok: true });
  assert.ok((await stat(join(root, 'med_d'))).isDirectory(), 'the folder stays while it holds a rendition');
  assert.deepEqual(await store.delete('med_d/r-instagram.jpg'), { ok: true });
  await assert.rejects(stat(join(root, 'med_d')), { code: 'ENOENT' });
  assert.deepEqual(await store.delete('med_d/original'), { ok: true });
  for (const result of [await store.get('med_d/original'), await store.head('med_d/original'), await store.localPath('med_d/original')]) {
    assert.equal(result.ok === false && result.reason, 'not_found');
  }
});

test('keys that could leave the root, or are not Herald\'s shape, throw', async () => {
  for (const key of ['../etc/passwd', '/etc/passwd', 'a/../../b', 'a//b', '.hidden', 'a/.', 'a/..', '', 'a/b~tmp-1', 'a\\b', 'a\0b', 'x'.repeat(200)]) {
    await assert.rejects(store.put(key, Readable.from([]), { contentType: 'x/y', maxBytes: 1 }), TypeError, key);
    await assert.rejects(store.get(key), TypeError, key);
    await assert.rejects(store.delete(key), TypeError, key);
  }
});

test('stale temporaries of interrupted puts are swept', async () => {
  await writeFile(join(root, `orphan~tmp-deadbeef`), 'partial');
  await writeFile(join(root, `fresh~tmp-cafe`), 'partial');
  const old = new Date(Date.now() - 2 * 3600_000);
  await utimes(join(root, 'orphan~tmp-deadbeef'), old, old);
  assert.equal(await store.removeStaleTemporaries(3600_000), 1);
  assert.deepEqual((await readdir(root)).filter((n) => n.includes('~tmp-')), ['fresh~tmp-cafe']);
});

test('a full disk is unavailable, not a crash, and leaves no file behind', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'herald-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=512k', 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    await rm(dir, { recursive: true, force: true });
    t.skip('mounting a small tmpfs needs root (CI runs as root)');
    return;
  }
  try {
    const small = createDiskStore({ root: dir });
    const result = await small.put('med_full/original', Readable.from([Buffer.alloc(2 * 1024 * 1024, 5)]), { contentType: 'image/jpeg', maxBytes: 1e9 });
    assert.equal(result.ok === false && result.reason, 'unavailable', JSON.stringify(result));
    assert.match(result.ok === false ? result.message : '', /ENOSPC/);
    assert.deepEqual(await filesUnder(dir), []);
  } finally {
    execFileSync('umount', [dir]);
    await rm(dir, { recursive: true, force: true });
  }
});
