// Which posts use which media (media_uses, migration 0011: keyed by (media_id, post_id) only), on the
// database the suite runs on: every way a post comes to name media records its uses in the post's own
// transaction (create, bulk import), every way it stops releases them (PATCH, post delete), and what the
// uses decide: DELETE /v1/media/{id} answers 409 MEDIA_IN_USE while an open post names the media, and
// retention keeps media a post changed within the retention period names. The migration keeps the uses a
// database already holds.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import sharp from 'sharp';
import pg from 'pg';
import { openDatabase } from '../../src/db/database.ts';
import { createMediaDal } from '../../src/media/media-dal.ts';
import { migrateTo } from '../../src/db/migrate.ts';
import { connectAccount } from '../helpers/connect.ts';
import { publishNow, startWorld, type World } from '../helpers/e2e.ts';
import { createTestDatabase, usingPostgres } from '../helpers/herald.ts';
import { uploadOk } from '../helpers/media.ts';

let w: World;
let x: string;
let jpeg: Buffer;
const DAY_MS = 86_400_000;

before(async () => {
  w = await startWorld({ env: { HERALD_MEDIA_RETENTION_DAYS: '2' } });
  x = (await connectAccount(w.h, 'twitter')).accountId;
  jpeg = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 10, g: 20, b: 30 } } }).jpeg().toBuffer();
});
after(() => w.close());

const upload = async (): Promise<string> => (await uploadOk(w.h, jpeg, 'image/jpeg')).id;
const nextYear = () => new Date(Date.now() + 365 * DAY_MS).toISOString();

/** The uses recorded for `postId`, as sorted media ids. */
async function usesOf(postId: string): Promise<string[]> {
  const rows = await w.h.runtime.db.kysely.selectFrom('media_uses').select('media_id').where('post_id', '=', postId).execute();
  return rows.map((r) => r.media_id).sort();
}

/** The status and code DELETE /v1/media/{id} answers. */
async function deleteMedia(id: string): Promise<string> {
  const res = await w.h.request('DELETE', `/v1/media/${id}`);
  return res.status === 200 ? '200' : `${res.status} ${res.body.code}`;
}

describe('uses follow the post', () => {
  // With an Idempotency-Key, PostgreSQL reads the media named in mediaItems and customMedia with the claim
  // (posts-service accountsAhead); anything else is read by the checks. Either way, the same answers.
  test('with an Idempotency-Key: media read with the claim resolve and are held; media elsewhere or of another key are read as usual', async () => {
    const [a, b, t] = [await upload(), await upload(), await upload()];
    const create = (body: Record<string, unknown>, key?: string) =>
      w.h.request('POST', '/v1/posts', { key, headers: { 'idempotency-key': crypto.randomUUID() }, body: { scheduledFor: nextYear(), ...body } });
    for (let round = 0; round < 2; round++) {
      // The second round runs with the key known to the process, which is when the read goes with the claim.
      const res = await create({
        content: 'library media named up front',
        mediaItems: [{ mediaId: a }],
        platforms: [{ platform: 'twitter', accountId: x, customMedia: [{ mediaId: b }], platformSpecificData: { threadItems: [{ content: 'two', mediaItems: [{ mediaId: t }] }] } }],
      });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.mediaItems[0].mediaId, a);
      assert.equal(res.body.mediaItems[0].type, 'image');
      assert.match(res.body.mediaItems[0].url, /^https?:\/\//);
      assert.deepEqual(await usesOf(res.body.id), [a, b, t].sort());
    }
    const other = await w.h.newKey('media-ahead');
    for (let round = 0; round < 2; round++) {
      const res = await create({ content: "another key's media", mediaItems: [{ mediaId: a }], platforms: [{ platform: 'twitter', accountId: x }] }, other.key);
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body.param, 'mediaItems[0].mediaId');
    }
  });

  test('a create records one use per media it names, wherever it names it; DELETE of each is 409 MEDIA_IN_USE', async () => {
    const [a, b, c] = [await upload(), await upload(), await upload()];
    const res = await w.h.request('POST', '/v1/posts', {
      body: {
        scheduledFor: nextYear(),
        content: 'three library images, one named twice',
        mediaItems: [{ mediaId: a }, { mediaId: b }],
        platforms: [{ platform: 'twitter', accountId: x, customMedia: [{ mediaId: c }, { mediaId: a }] }],
      },
    });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(await usesOf(res.body.id), [a, b, c].sort());
    for (const id of [a, b, c]) assert.equal(await deleteMedia(id), '409 MEDIA_IN_USE');
  });

  test('PATCH: dropped media are released, kept and added ones held; a PATCH that leaves the media keeps the uses', async () => {
    const [kept, dropped, added] = [await upload(), await upload(), await upload()];
    const draft = await w.h.request('POST', '/v1/posts', { body: { isDraft: true, content: 'draft', mediaItems: [{ mediaId: kept }, { mediaId: dropped }] } });
    assert.equal(draft.status, 201, draft.text);
    const id = draft.body.id as string;
    assert.deepEqual(await usesOf(id), [kept, dropped].sort());

    const content = await w.h.request('PATCH', `/v1/posts/${id}`, { body: { content: 'draft, reworded' } });
    assert.equal(content.status, 200, content.text);
    assert.deepEqual(await usesOf(id), [kept, dropped].sort(), 'a PATCH of the text changes no use');

    const changed = await w.h.request('PATCH', `/v1/posts/${id}`, { body: { mediaItems: [{ mediaId: added }, { mediaId: kept }] } });
    assert.equal(changed.status, 200, changed.text);
    assert.deepEqual(await usesOf(id), [kept, added].sort());
    assert.equal(await deleteMedia(kept), '409 MEDIA_IN_USE');
    assert.equal(await deleteMedia(added), '409 MEDIA_IN_USE');
    assert.equal(await deleteMedia(dropped), '200');

    // Moved from the shared list into a target's own media: still held.
    const moved = await w.h.request('PATCH', `/v1/posts/${id}`, {
      body: { scheduledFor: nextYear(), mediaItems: [], platforms: [{ platform: 'twitter', accountId: x, customMedia: [{ mediaId: added }] }] },
    });
    assert.equal(moved.status, 200, moved.text);
    assert.deepEqual(await usesOf(id), [added]);
    assert.equal(await deleteMedia(added), '409 MEDIA_IN_USE');
    assert.equal(await deleteMedia(kept), '200');
  });

  test('deleting the post releases every use', async () => {
    const [a, b] = [await upload(), await upload()];
    const post = await w.h.request('POST', '/v1/posts', {
      body: { scheduledFor: nextYear(), content: 'to be deleted', mediaItems: [{ mediaId: a }], platforms: [{ platform: 'twitter', accountId: x, customMedia: [{ mediaId: b }] }] },
    });
    assert.equal(post.status, 201, post.text);
    assert.equal(await deleteMedia(a), '409 MEDIA_IN_USE');
    assert.equal((await w.h.request('DELETE', `/v1/posts/${post.body.id}`)).status, 200);
    assert.deepEqual(await usesOf(post.body.id), []);
    assert.equal(await deleteMedia(a), '200');
    assert.equal(await deleteMedia(b), '200');
  });

  test('a bulk import records the uses of each post it creates', async () => {
    const [a, b] = [await upload(), await upload()];
    const res = await w.h.request('POST', '/v1/posts/bulk', {
      body: {
        posts: [
          { content: 'bulk one', scheduledFor: nextYear(), mediaItems: [{ mediaId: a }], platforms: [{ platform: 'twitter', accountId: x }] },
          { content: 'bulk draft', isDraft: true, mediaItems: [{ mediaId: a }, { mediaId: b }] },
        ],
      },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.created, 2, res.text);
    const [one, two] = res.body.results;
    assert.deepEqual(await usesOf(one.id), [a]);
    assert.deepEqual(await usesOf(two.id), [a, b].sort());
    assert.equal(await deleteMedia(b), '409 MEDIA_IN_USE');
    assert.equal((await w.h.request('DELETE', `/v1/posts/${two.id}`)).status, 200);
    assert.equal(await deleteMedia(b), '200');
    assert.equal(await deleteMedia(a), '409 MEDIA_IN_USE', 'the first post still holds it');
  });

  test('a published post does not hold its media, and deleting the media leaves the post as it was', async () => {
    const m = await upload();
    const post = await publishNow(w.h, { content: `published ${Date.now()}`, mediaItems: [{ mediaId: m }], platforms: [{ platform: 'twitter', accountId: x }] });
    assert.equal(post.status, 'published', JSON.stringify(post));
    assert.deepEqual(await usesOf(post.id), [m]);
    assert.equal(await deleteMedia(m), '200');
    assert.deepEqual(await usesOf(post.id), []);
    assert.equal((await w.h.request('DELETE', `/v1/posts/${post.id}`)).status, 200, 'its post deletes with the media gone');
  });
});

describe('retention', () => {
  const age = (table: 'media' | 'posts', id: string, column: 'last_used_at' | 'updated_at') =>
    w.h.runtime.db.write((trx) =>
      sql`update ${sql.table(table)} set ${sql.ref(column)} = ${Date.now() - 3 * DAY_MS} where id = ${id}`.execute(trx),
    );
  const exists = async (id: string) => (await w.h.request('GET', `/v1/media/${id}`)).status === 200;

  test('media a recently changed post names stays; once the post is older than the period, or deleted, it goes', async () => {
    const byPublished = await upload();
    const byDeleted = await upload();
    const published = await publishNow(w.h, { content: `kept ${Date.now()}`, mediaItems: [{ mediaId: byPublished }], platforms: [{ platform: 'twitter', accountId: x }] });
    assert.equal(published.status, 'published', JSON.stringify(published));
    const deleted = await w.h.request('POST', '/v1/posts', { body: { isDraft: true, content: 'deleted draft', mediaItems: [{ mediaId: byDeleted }] } });
    assert.equal(deleted.status, 201, deleted.text);
    assert.equal((await w.h.request('DELETE', `/v1/posts/${deleted.body.id}`)).status, 200);
    await age('media', byPublished, 'last_used_at');
    await age('media', byDeleted, 'last_used_at');

    await w.h.runtime.maintenance();
    assert.ok(await exists(byPublished), 'a post changed within the period names it');
    assert.ok(!(await exists(byDeleted)), 'its only post is deleted');

    await age('posts', published.id, 'updated_at');
    await w.h.runtime.maintenance();
    assert.ok(!(await exists(byPublished)), 'its post is older than the period and not open');
  });

  test('media an open post names stays however old the post is', async () => {
    const m = await upload();
    const post = await w.h.request('POST', '/v1/posts', { body: { scheduledFor: nextYear(), content: 'old but open', mediaItems: [{ mediaId: m }], platforms: [{ platform: 'twitter', accountId: x }] } });
    assert.equal(post.status, 201, post.text);
    await age('media', m, 'last_used_at');
    await age('posts', post.body.id, 'updated_at');
    await w.h.runtime.maintenance();
    assert.ok(await exists(m));
    assert.equal(await deleteMedia(m), '409 MEDIA_IN_USE');
  });
});

// A media DELETE and a create (or PATCH) naming the file can overlap: the create's checks read the file,
// the DELETE commits, then the create writes. The create's write records uses only of files still there and
// fails whole otherwise (400 at the item, as if the file had been gone at the checks); on PostgreSQL the
// DELETE first waits for the uses being written, so it sees them (409). Either way no use of a deleted
// file is left, and no post names a file that is gone.
describe('a media DELETE overlapping a create', () => {
  test('the write of uses finds a file deleted since the checks: it reports it and records no use', async () => {
    const [kept, gone] = [await upload(), await upload()];
    assert.equal(await deleteMedia(gone), '200');
    const dal = createMediaDal({ db: w.h.runtime.db.kysely, dialect: w.h.runtime.db.dialect });
    const post = 'post_overlap' + Date.now();
    const reported = await w.h.runtime.db.write((trx) => dal.setUses(trx, post, [kept, gone]));
    assert.deepEqual(reported, [gone]);
    // Added to a post that named `kept` already (a PATCH), only the new file is looked for.
    assert.deepEqual(await w.h.runtime.db.write((trx) => dal.setUses(trx, post, [kept, gone], [kept])), [gone]);
    assert.deepEqual(await w.h.runtime.db.write((trx) => dal.setUses(trx, post, [kept], [kept, gone])), []);
    assert.deepEqual(await usesOf(post), [kept]);
  });

  test("a file another process deleted, while this one still holds what the checks read of it: create and PATCH answer 400 at the item, nothing written", async () => {
    const m = await upload();
    // The checks read m (and keep what they read: media-dal's getForPostsCached); the post then goes.
    const first = await w.h.request('POST', '/v1/posts', { body: { content: 'reads m', isDraft: true, mediaItems: [{ mediaId: m }], platforms: [{ platform: 'twitter', accountId: x }] } });
    assert.equal(first.status, 201, first.text);
    assert.equal((await w.h.request('DELETE', `/v1/posts/${first.body.id}`)).status, 200);
    // Another process's DELETE: the rows go without this process hearing of it.
    await w.h.runtime.db.write((trx) => trx.deleteFrom('media').where('id', '=', m).execute());
    const before = (await w.h.request('GET', '/v1/posts?limit=100')).body.posts.length;

    const created = await w.h.request('POST', '/v1/posts', { body: { content: 'names m again', scheduledFor: nextYear(), mediaItems: [{ mediaId: m }], platforms: [{ platform: 'twitter', accountId: x }] } });
    assert.equal(created.status, 400, created.text);
    assert.equal(created.body.code, 'invalid_field_value');
    assert.equal(created.body.param, 'mediaItems[0].mediaId');
    assert.match(created.body.error, /it has been deleted/, 'the checks passed on what they had read; the write found the file gone');
    assert.equal((await w.h.request('GET', '/v1/posts?limit=100')).body.posts.length, before, 'no post written');

    const draft = await w.h.request('POST', '/v1/posts', { body: { content: 'no media yet', isDraft: true, platforms: [{ platform: 'twitter', accountId: x }] } });
    assert.equal(draft.status, 201, draft.text);
    const patched = await w.h.request('PATCH', `/v1/posts/${draft.body.id}`, { body: { mediaItems: [{ mediaId: m }] } });
    assert.equal(patched.status, 400, patched.text);
    assert.equal(patched.body.code, 'invalid_field_value');
    assert.equal(patched.body.param, 'mediaItems[0].mediaId');
    assert.deepEqual((await w.h.request('GET', `/v1/posts/${draft.body.id}`)).body.mediaItems, [], 'the draft is as it was');
    assert.deepEqual(await usesOf(draft.body.id), []);
  });

  test('what the checks keep of a file: read once, dropped when this process deletes it, and for a minute at most', async () => {
    const [a, b] = [await upload(), await upload()];
    let now = Date.now();
    const clock = { now: () => now, sleep: async () => {} };
    const { kysely, dialect } = w.h.runtime.db;
    const dal = createMediaDal({ db: kysely, dialect, clock });
    const keyId = (await kysely.selectFrom('media').select('api_key_id').where('id', '=', a).executeTakeFirstOrThrow()).api_key_id;
    const ids = async (got: Promise<{ id: string }[]>) => (await got).map((r) => r.id).sort();
    assert.deepEqual(await ids(dal.getForPostsCached(keyId, [a, b])), [a, b].sort());
    assert.deepEqual(await ids(dal.getForPostsCached('key_other', [a, b])), [], "another key's files are not there");
    // Gone from the table behind the dal's back (another process): still answered from what was read...
    await w.h.runtime.db.write((trx) => trx.deleteFrom('media').where('id', 'in', [a, b]).execute());
    assert.deepEqual(await ids(dal.getForPostsCached(keyId, [a, b])), [a, b].sort());
    assert.deepEqual(await ids(dal.getForPosts(keyId, [a, b])), [], 'validate reads afresh');
    // ...until this process deletes it (forget, once the delete has committed), or a minute has passed.
    dal.forget(a);
    assert.deepEqual(await ids(dal.getForPostsCached(keyId, [a, b])), [b]);
    now += 60_000;
    assert.deepEqual(await ids(dal.getForPostsCached(keyId, [a, b])), []);
  });

  // PostgreSQL only: the interleavings need a second connection holding a transaction open.
  const raw = async () => {
    const client = new pg.Client({ connectionString: w.h.runtime.config.databaseUrl! });
    await client.connect();
    return client;
  };
  /**
   * Waits until some transaction waits for a lock on media_uses (the request under test has reached it), or
   * until the request has answered without waiting (what the assertions after then catch).
   */
  async function someoneWaitsOnUses(client: pg.Client, request: Promise<unknown>): Promise<void> {
    let answered = false;
    const done = () => {
      answered = true;
    };
    request.then(done, done);
    while (!answered) {
      const { rows } = await client.query(`select 1 from pg_locks l join pg_class c on c.oid = l.relation where c.relname = 'media_uses' and not l.granted`);
      if (rows.length > 0) return;
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  test('PostgreSQL: DELETE waits for a create writing uses of the file, then answers 409', { skip: !usingPostgres && 'PostgreSQL only' }, async () => {
    const [m, other] = [await upload(), await upload()];
    const open = await w.h.request('POST', '/v1/posts', { body: { content: 'holder', scheduledFor: nextYear(), mediaItems: [{ mediaId: other }], platforms: [{ platform: 'twitter', accountId: x }] } });
    assert.equal(open.status, 201, open.text);
    const [writer, watcher] = [await raw(), await raw()];
    try {
      // A create's write in flight: it has recorded a use of m and not committed yet.
      await writer.query('begin');
      await writer.query('insert into media_uses (media_id, post_id) values ($1, $2)', [m, open.body.id]);
      const deleting = deleteMedia(m);
      await someoneWaitsOnUses(watcher, deleting);
      await writer.query('commit');
      assert.equal(await deleting, '409 MEDIA_IN_USE');
      assert.equal((await w.h.request('GET', `/v1/media/${m}`)).status, 200);
    } finally {
      await writer.end();
      await watcher.end();
    }
  });

  for (const idempotent of [true, false]) {
    test(`PostgreSQL: a create whose file a DELETE removed after the checks writes nothing and answers 400${idempotent ? ' (with an Idempotency-Key, replayed alike)' : ''}`, { skip: !usingPostgres && 'PostgreSQL only' }, async () => {
      const m = await upload();
      const before = (await w.h.runtime.db.kysely.selectFrom('posts').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n;
      const [deleter, watcher] = [await raw(), await raw()];
      const key = crypto.randomUUID();
      const body = { content: 'overlap', scheduledFor: nextYear(), mediaItems: [{ mediaId: m }], platforms: [{ platform: 'twitter', accountId: x }] };
      const create = () => w.h.request('POST', '/v1/posts', { headers: idempotent ? { 'idempotency-key': key } : {}, body });
      try {
        // A DELETE in flight, as media-service runs it: writes of uses held back, the file deleted, not committed.
        await deleter.query('begin');
        await deleter.query('lock table media_uses in share row exclusive mode');
        await deleter.query('delete from media where id = $1', [m]);
        const creating = create();
        await someoneWaitsOnUses(watcher, creating);
        await deleter.query('commit');
        const res = await creating;
        assert.equal(res.status, 400, res.text);
        assert.equal(res.body.code, 'invalid_field_value');
        assert.equal(res.body.param, 'mediaItems[0].mediaId');
        assert.match(res.body.error, new RegExp(`no media ${m}`));
        if (idempotent) assert.equal((await create()).text, res.text, 'the replay answers the same');
      } finally {
        await deleter.end();
        await watcher.end();
      }
      const { rows } = await sql<{ n: string }>`select count(*) as n from media_uses where media_id = ${m}`.execute(w.h.runtime.db.kysely);
      assert.equal(Number(rows[0]!.n), 0, 'no use of the deleted file');
      const after = (await w.h.runtime.db.kysely.selectFrom('posts').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n;
      assert.equal(Number(after), Number(before), 'no post written');
    });
  }
});


test('migration 0011 keeps the uses a database holds, in one B-tree per use', async () => {
  const database = await createTestDatabase();
  const db = openDatabase({ dataDir: database.dataDir, databaseUrl: database.databaseUrl });
  try {
    await migrateTo(db, '0010_lean_indexes');
    const rows = [
      { media_id: 'med_a', post_id: 'post_1' },
      { media_id: 'med_a', post_id: 'post_2' },
      { media_id: 'med_b', post_id: 'post_1' },
    ];
    await db.writable.insertInto('media_uses').values(rows).execute();
    assert.deepEqual((await migrateTo(db, '0011_media_uses_lean')).applied, ['0011_media_uses_lean']);
    const after = await db.writable.selectFrom('media_uses').selectAll().orderBy('media_id').orderBy('post_id').execute();
    assert.deepEqual(after, rows);
    if (usingPostgres) {
      const { rows: indexes } = await sql<{ indexname: string }>`select indexname from pg_indexes where tablename = 'media_uses'`.execute(db.writable);
      assert.deepEqual(indexes.map((i) => i.indexname), ['media_uses_pk']);
    } else {
      const { rows: objects } = await sql<{ type: string; name: string; sql: string | null }>`select type, name, sql from sqlite_master where tbl_name = 'media_uses'`.execute(db.writable);
      assert.deepEqual(objects.map((o) => `${o.type} ${o.name}`), ['table media_uses']);
      assert.match(objects[0]!.sql!, /without rowid/i);
    }
    // The key still refuses a use recorded twice.
    await assert.rejects(db.writable.insertInto('media_uses').values(rows[0]!).execute());
  } finally {
    await db.close();
    await database.drop();
  }
});
