// What a target sends for its media: library items get the store's place of their bytes (`stored`, which
// the adapters that upload read), items given by URL pass through, and a `stored` the preparer did not set
// itself is never followed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import type { MediaRow } from '../../../src/db/schema.ts';
import { createMediaPreparer } from '../../../src/publishing/prepare-media.ts';
import type { MediaStore } from '../../../src/media/store.ts';
import type { MediaItem } from '../../../src/platforms/types.ts';

const row: MediaRow = {
  id: 'med_1', api_key_id: 'key_1', type: 'image', content_type: 'image/jpeg', bytes: 70_000, sha256: 'a'.repeat(64), width: 800, height: 600,
  duration_ms: null, frame_rate: null, video_codec: null, audio_codec: null, pages: null,
  facts: JSON.stringify({ kind: 'image', format: 'jpeg', contentType: 'image/jpeg', bytes: 70_000, width: 800, height: 600, frames: 1, orientation: 1, hasAlpha: false }),
  alt_text: 'Library words', filename: 'x.jpg', token: 'tok', store_key: 'med_1/original', stored_bytes: 70_000, created_at: 0, last_used_at: 0,
};

function preparer(facts = row.facts) {
  const writes: string[] = [];
  const p = createMediaPreparer({
    dal: {
      getMany: async (apiKeyId, ids) => (apiKeyId === row.api_key_id && ids.includes(row.id) ? [{ ...row, facts }] : []),
      // A rendition made before (kept beside the original): reused, never made again here.
      rendition: async (mediaId, ruleKey) => ({ media_id: mediaId, rule_key: ruleKey, store_key: `${mediaId}/${ruleKey}.jpg`, content_type: 'image/jpeg', bytes: 1, width: 1440, height: 1152, sha256: 'b'.repeat(64), created_at: 0 }),
      insertRendition: async () => true,
      touch: async (_trx, ids) => void writes.push(...ids),
    },
    store: {} as MediaStore,
    write: async (fn) => fn({} as never, undefined as never),
    clock: { now: () => 1, sleep: async () => {} },
    log: pino({ level: 'silent' }),
    publicBase: () => 'https://herald.example.com',
    presignSeconds: 0,
  });
  return { p, writes };
}

test('a library item: the public URL for platforms that pull, the store key for adapters that upload, the library alt text', async () => {
  const { p, writes } = preparer();
  const original = { content: 'hi', media: [{ mediaId: 'med_1' } as MediaItem], settings: {} };
  const got = await p.prepare('key_1', 'twitter', original);
  assert.ok(got.ok);
  assert.deepEqual(got.content.media, [{ mediaId: 'med_1', type: 'image', url: 'https://herald.example.com/media/tok/x.jpg', stored: { key: 'med_1/original', contentType: 'image/jpeg' }, altText: 'Library words' }]);
  assert.deepEqual(original.media, [{ mediaId: 'med_1' }], "the caller's content is untouched");
  assert.deepEqual(writes, ['med_1']);
});

test('an item given by URL passes through; a `stored` on it (never set by the API) is dropped, not followed', async () => {
  const { p, writes } = preparer();
  const plain = { content: 'hi', media: [{ type: 'image', url: 'https://cdn.example.com/a.jpg' } as MediaItem], settings: {} };
  const same = await p.prepare('key_1', 'twitter', plain);
  assert.ok(same.ok);
  assert.equal(same.content, plain, 'nothing to do: the same content');
  const forged = { content: 'hi', media: [{ type: 'image', url: 'https://cdn.example.com/a.jpg', stored: { key: 'med_9/original', contentType: 'image/jpeg' } } as MediaItem], settings: {} };
  const got = await p.prepare('key_1', 'twitter', forged);
  assert.ok(got.ok);
  assert.deepEqual(got.content.media, [{ type: 'image', url: 'https://cdn.example.com/a.jpg' }]);
  assert.deepEqual(writes, [], 'no library file was used');
});

test("another key's library item is refused at publish, as a deleted one", async () => {
  const { p } = preparer();
  const got = await p.prepare('key_2', 'twitter', { content: 'hi', media: [{ mediaId: 'med_1' } as MediaItem], settings: {} });
  assert.deepEqual(got, { ok: false, category: 'media_rejected', message: 'library media med_1 was deleted before this target published' });
});

test("a library item that must be fitted: the rendition's URL and the rendition's place in the store", async () => {
  const png = JSON.stringify({ kind: 'image', format: 'png', contentType: 'image/png', bytes: 9_000_000, width: 2000, height: 1600, frames: 1, orientation: 1, hasAlpha: false });
  const { p } = preparer(png);
  const got = await p.prepare('key_1', 'instagram', { content: 'hi', media: [{ mediaId: 'med_1' } as MediaItem], settings: {} });
  assert.ok(got.ok, JSON.stringify(got));
  const [item] = got.content.media;
  assert.match(item!.url, /^https:\/\/herald\.example\.com\/media\/tok\/fit\/instagram-.+\.jpg$/);
  assert.match(item!.stored!.key, /^med_1\/instagram-.+\.jpg$/);
  assert.equal(item!.stored!.contentType, 'image/jpeg');
  assert.equal(new URL(item!.url).pathname.split('/fit/')[1], item!.stored!.key.split('/')[1], 'the URL and the key name the same rendition');
});
