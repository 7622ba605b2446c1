import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MediaRow } from '../../../src/db/schema.ts';
import { factsOf, mediaItemsOfBody, resolveLibraryMedia, type LibraryReader } from '../../../src/posts/library-media.ts';
import type { CreatePostInput } from '../../../src/posts/schemas.ts';

const row = (id: string, type: MediaRow['type'], facts: object = { kind: type }): MediaRow =>
  ({ id, api_key_id: 'key_1', type, facts: JSON.stringify(facts) }) as unknown as MediaRow;

/** The library as resolution reads it: rows of one key, and a URL made from the id. */
function library(rows: MediaRow[]): LibraryReader & { reads: string[][] } {
  const reads: string[][] = [];
  return {
    reads,
    async getMany(apiKeyId, ids) {
      reads.push([...ids]);
      return rows.filter((r) => r.api_key_id === apiKeyId && ids.includes(r.id));
    },
    urlOf: (r) => `https://herald.example/media/${r.id}`,
  };
}

const body = (): CreatePostInput =>
  ({
    content: 'hello',
    mediaItems: [{ mediaId: 'med_a', altText: 'a cat' }, { type: 'image', url: 'https://cdn.example/b.jpg' }],
    platforms: [
      { platform: 'twitter', accountId: 'x1', platformSpecificData: { threadItems: [{ content: 'two', mediaItems: [{ mediaId: 'med_v' }] }] } },
      { platform: 'threads', accountId: 't1', customMedia: [{ mediaId: 'med_a' }] },
      { platform: 'youtube', accountId: 'y1', platformSpecificData: { title: 'T', thumbnail: { mediaId: 'med_a' } } },
    ],
  }) as unknown as CreatePostInput;

test('every media item of a body is found with its path: post, customMedia, settings at any depth', () => {
  const paths = mediaItemsOfBody(body()).map((f) => f.path);
  assert.deepEqual(paths, [
    'mediaItems[0]',
    'mediaItems[1]',
    'platforms[1].customMedia[0]',
    'platforms[0].platformSpecificData.threadItems[0].mediaItems[0]',
    'platforms[2].platformSpecificData.thumbnail',
  ]);
});

test('library items are resolved on a copy: the caller body is unchanged, untouched parts are shared', async () => {
  const input = body();
  const before = structuredClone(input);
  const reader = library([row('med_a', 'image'), row('med_v', 'image')]);
  const { body: out, rows, problems } = await resolveLibraryMedia('key_1', input, reader);
  assert.deepEqual(problems, []);
  assert.deepEqual(input, before, 'the caller body is not changed');
  assert.deepEqual(reader.reads, [['med_a', 'med_a', 'med_v', 'med_a']], 'one read for every item, in body order');
  assert.deepEqual([...rows.keys()].sort(), ['med_a', 'med_v']);
  assert.deepEqual(out.mediaItems, [
    { mediaId: 'med_a', altText: 'a cat', type: 'image', url: 'https://herald.example/media/med_a' },
    { type: 'image', url: 'https://cdn.example/b.jpg' },
  ]);
  // A URL item and objects with no library item below them are the caller's own, not copies.
  assert.equal(out.mediaItems![1], input.mediaItems![1]);
  const [x, threads, youtube] = out.platforms!;
  assert.deepEqual((x!.platformSpecificData as { threadItems: { mediaItems: unknown[] }[] }).threadItems[0]!.mediaItems, [
    { mediaId: 'med_v', type: 'image', url: 'https://herald.example/media/med_v' },
  ]);
  assert.deepEqual(threads!.customMedia, [{ mediaId: 'med_a', type: 'image', url: 'https://herald.example/media/med_a' }]);
  assert.equal((youtube!.platformSpecificData as { title: string }).title, 'T');
  assert.deepEqual((youtube!.platformSpecificData as { thumbnail: unknown }).thumbnail, { mediaId: 'med_a', type: 'image', url: 'https://herald.example/media/med_a' });
});

test('a body without library items is returned as it is, and each problem names its item', async () => {
  const plain = { content: 'x', mediaItems: [{ type: 'image', url: 'https://cdn.example/a.jpg' }], platforms: [{ platform: 'twitter', accountId: 'x1' }] } as unknown as CreatePostInput;
  const reader = library([]);
  const same = await resolveLibraryMedia('key_1', plain, reader);
  assert.equal(same.body, plain);
  assert.deepEqual(reader.reads, [], 'no library read for a body that names none');

  const bad = {
    content: 'x',
    mediaItems: [{ mediaId: 'med_other' }, { url: 'https://cdn.example/a.jpg' }, { mediaId: 'med_v', type: 'image' }],
    platforms: [{ platform: 'twitter', accountId: 'x1' }],
  } as unknown as CreatePostInput;
  const others = library([{ ...row('med_other', 'image'), api_key_id: 'key_2' } as MediaRow, row('med_v', 'video')]);
  const { problems } = await resolveLibraryMedia('key_1', bad, others);
  assert.deepEqual(
    problems.map((p) => [p.param, p.message]),
    [
      ['mediaItems[0].mediaId', "mediaItems[0].mediaId: no media med_other in this API key's library (POST /v1/media uploads one)"],
      ['mediaItems[1].type', 'mediaItems[1].type is required for a media item given by URL (or name a library file by mediaId)'],
      ['mediaItems[2].type', 'mediaItems[2].type is image, but media med_v is a video; leave type out for library media'],
    ],
  );
});

test('facts are parsed once per file, and never stale: a row with other facts is parsed again', () => {
  const a = row('med_f', 'image', { kind: 'image', width: 10 });
  const first = factsOf(a);
  assert.equal(factsOf({ ...a } as MediaRow), first, 'the same JSON for the same id is not parsed again');
  const changed = row('med_f', 'image', { kind: 'image', width: 20 });
  assert.equal((factsOf(changed) as { width: number }).width, 20);
});
