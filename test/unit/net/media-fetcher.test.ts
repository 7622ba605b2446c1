// The media fetcher: library media read from the store, a file the store lacks downloaded from its URL
// (a disk store on another machine), a user's URL downloaded through the guarded client.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createMediaFetcher } from '../../../src/net/media-fetcher.ts';
import type { OutboundClient, OutboundRequest } from '../../../src/net/outbound.ts';
import type { StoredMedia } from '../../../src/platforms/types.ts';

function recordingClient() {
  const requests: OutboundRequest[] = [];
  const client: OutboundClient = {
    async request(req) {
      requests.push(req);
      return { ok: true, status: 200, headers: new Headers({ 'content-type': 'image/png; charset=binary' }), body: new Uint8Array([1, 2]), url: req.url };
    },
    async open() {
      throw new Error('not used');
    },
    async close() {},
  };
  return { client, requests };
}

const FILE = 'https://herald.example.com/media/tok/a.jpg';

test('library media is read from the store, and nothing is downloaded', async () => {
  const { client, requests } = recordingClient();
  const reads: [StoredMedia, number][] = [];
  const fetcher = createMediaFetcher(client, {
    timeoutMs: 1000,
    readStored: async (stored, maxBytes) => {
      reads.push([stored, maxBytes]);
      return { ok: true, bytes: new Uint8Array([9]), contentType: stored.contentType };
    },
  });
  const got = await fetcher.fetch({ url: FILE, stored: { key: 'med_1/original', contentType: 'image/jpeg' } }, { maxBytes: 500 });
  assert.deepEqual(got, { ok: true, bytes: new Uint8Array([9]), contentType: 'image/jpeg' });
  assert.deepEqual(reads, [[{ key: 'med_1/original', contentType: 'image/jpeg' }, 500]]);
  assert.deepEqual(requests, []);
});

test("a store failure is the answer (not a download): the store's outcome says whether to try again", async () => {
  const { client, requests } = recordingClient();
  const fetcher = createMediaFetcher(client, { timeoutMs: 1000, readStored: async () => ({ ok: false, transient: true, message: 'bucket down' }) });
  assert.deepEqual(await fetcher.fetch({ url: FILE, stored: { key: 'med_1/original', contentType: 'image/jpeg' } }, { maxBytes: 500 }), { ok: false, transient: true, message: 'bucket down' });
  assert.equal(requests.length, 0);
});

test("a file this process's store does not have is downloaded from its URL, with the cap", async () => {
  const { client, requests } = recordingClient();
  const fetcher = createMediaFetcher(client, { timeoutMs: 1000, readStored: async () => null });
  const got = await fetcher.fetch({ url: FILE, stored: { key: 'med_1/original', contentType: 'image/jpeg' } }, { maxBytes: 500 });
  assert.deepEqual(got, { ok: true, bytes: new Uint8Array([1, 2]), contentType: 'image/png' });
  assert.deepEqual(requests.map((r) => [r.url, r.maxBytes]), [[FILE, 500]]);
});

test("a user's URL is downloaded; the store is not asked", async () => {
  const { client, requests } = recordingClient();
  let asked = 0;
  const fetcher = createMediaFetcher(client, { timeoutMs: 1000, readStored: async () => (asked++, null) });
  await fetcher.fetch({ url: 'https://cdn.example.com/b.png' }, { maxBytes: 10 });
  assert.equal(asked, 0);
  assert.deepEqual(requests.map((r) => r.url), ['https://cdn.example.com/b.png']);
});
