// readWhole: a stored object read whole for an upload to a platform, with the download's size cap; the shared
// reader: one copy per process of a file that several targets upload at once.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createDiskStore, type DiskStore } from '../../../src/media/disk-store.ts';
import { createSharedReader, readWhole } from '../../../src/media/read-whole.ts';
import type { MediaStore } from '../../../src/media/store.ts';

let root: string;
let store: DiskStore;
const bytes = Buffer.from(Array.from({ length: 300_000 }, (_, i) => i % 251));

before(async () => {
  root = await mkdtemp(join(tmpdir(), 'herald-read-whole-'));
  store = createDiskStore({ root, fsync: false });
  const put = await store.put('med_1/original', Readable.from([bytes]), { contentType: 'image/jpeg', maxBytes: 1_000_000 });
  assert.equal(put.ok, true);
});
after(() => rm(root, { recursive: true, force: true }));

test('the whole object, in more than one chunk, at exactly the cap', async () => {
  const read = await readWhole(store, 'med_1/original', bytes.byteLength);
  assert.ok(read.ok);
  assert.ok(read.bytes.equals(bytes));
});

test('one byte over the cap: too_large, naming both sizes', async () => {
  const read = await readWhole(store, 'med_1/original', bytes.byteLength - 1);
  assert.deepEqual(read, { ok: false, reason: 'too_large', message: `it is 300000 bytes, more than the 299999 this upload takes` });
});

test('a missing object: not_found', async () => {
  const read = await readWhole(store, 'med_2/original', 1_000);
  assert.equal(read.ok, false);
  assert.equal(!read.ok && read.reason, 'not_found');
});

test('a store that throws (denied access, bad credentials): unavailable, never an exception', async () => {
  const throwing: Pick<MediaStore, 'get'> = {
    get: async () => {
      throw new Error('AccessDenied');
    },
  };
  assert.deepEqual(await readWhole(throwing, 'med_1/original', 1_000), { ok: false, reason: 'unavailable', message: 'the media store failed: AccessDenied' });
  assert.deepEqual(await createSharedReader(throwing)('med_1/original', 1_000), { ok: false, reason: 'unavailable', message: 'the media store failed: AccessDenied' });
});

test('a store that fails mid-read: unavailable (a later attempt may work)', async () => {
  const failing: Pick<MediaStore, 'get'> = {
    async get() {
      const body = new Readable({ read() {} });
      body.push(Buffer.alloc(10));
      setImmediate(() => body.destroy(new Error('connection reset')));
      return { ok: true, body, size: 100, contentType: 'image/jpeg', range: null };
    },
  };
  const read = await readWhole(failing, 'med_3/original', 1_000);
  assert.deepEqual(read, { ok: false, reason: 'unavailable', message: 'the media store failed while reading it: connection reset' });
});

/** The disk store, counting its reads. */
function counting() {
  let gets = 0;
  const counted: Pick<MediaStore, 'get'> = {
    get: (key, options) => {
      gets++;
      return store.get(key, options);
    },
  };
  return { store: counted, gets: () => gets };
}

test('shared: reads of one key at once make one read of the store, and get the same bytes', async () => {
  const c = counting();
  const read = createSharedReader(c.store);
  const [a, b, d] = await Promise.all([read('med_1/original', 1_000_000), read('med_1/original', 1_000_000), read('med_1/original', 400_000)]);
  assert.ok(a.ok && b.ok && d.ok);
  assert.equal(c.gets(), 1);
  assert.equal(a.bytes, b.bytes, 'one copy');
  assert.ok(a.bytes.equals(bytes));
});

test('shared: while an upload holds the bytes, a later read gets them without reading the store', async () => {
  const c = counting();
  const read = createSharedReader(c.store);
  const first = await read('med_1/original', 1_000_000);
  const later = await read('med_1/original', 1_000_000);
  assert.ok(first.ok && later.ok);
  assert.equal(later.bytes, first.bytes);
  assert.equal(c.gets(), 1);
});

test("shared: each caller's own cap: a smaller one is too_large, a larger one than the read in flight reads for itself", async () => {
  const c = counting();
  const read = createSharedReader(c.store);
  const [small, big] = await Promise.all([read('med_1/original', 1_000), read('med_1/original', 1_000_000)]);
  assert.deepEqual(small, { ok: false, reason: 'too_large', message: 'it is 300000 bytes, more than the 1000 this upload takes' });
  assert.ok(big.ok && big.bytes.equals(bytes));
  assert.equal(c.gets(), 2);
  const held = await read('med_1/original', 299_999);
  assert.deepEqual(held, { ok: false, reason: 'too_large', message: 'it is 300000 bytes, more than the 299999 this upload takes' });
  assert.equal(c.gets(), 2, 'checked against the bytes held');
});

test('shared: a small-cap read in flight fails too_large; the larger callers waiting on it then share one read', async () => {
  const c = counting();
  const read = createSharedReader(c.store);
  const all = await Promise.all([read('med_1/original', 1_000), read('med_1/original', 1_000_000), read('med_1/original', 1_000_000), read('med_1/original', 500_000)]);
  assert.equal(all[0]!.ok, false);
  const [, a, b, d] = all;
  assert.ok(a!.ok && b!.ok && d!.ok);
  assert.equal(a.bytes, b.bytes);
  assert.equal(a.bytes, d.bytes);
  assert.equal(c.gets(), 2, 'the failed read and one more');
});
