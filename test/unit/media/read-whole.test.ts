// readWhole: a stored object read whole for an upload to a platform, with the download's size cap.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createDiskStore, type DiskStore } from '../../../src/media/disk-store.ts';
import { readWhole } from '../../../src/media/read-whole.ts';
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
