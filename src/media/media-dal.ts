// Data access for the media library. Reads are scoped by API key (the public URL reads by token); every
// method that writes takes the transaction it belongs to.
import { sql, type Kysely } from 'kysely';
import type { Cursor } from '../contract/cursor.ts';
import type { Database, DbTx, MediaRenditionRow, MediaRow } from '../db/schema.ts';
import type { Insertable } from 'kysely';
import type { MediaTable, MediaRenditionsTable } from '../db/schema.ts';
import { holdWrites, type DialectName } from '../db/dialect.ts';
import { prepareByShape } from '../db/prepared.ts';
import { systemClock, type Clock } from '../lib/clock.ts';

/** Posts in these states, or with a target still to be final, hold their media (DELETE answers 409). */
const OPEN_POST_STATUSES = ['draft', 'scheduled', 'publishing'] as const;
const OPEN_TARGET_STATUSES = ['pending', 'publishing'] as const;

// Run with every create and publish that names library media: built and compiled once per list length.
const MEDIA_COLUMNS = [
  'id', 'api_key_id', 'type', 'content_type', 'bytes', 'sha256', 'width', 'height', 'duration_ms', 'frame_rate', 'video_codec',
  'audio_codec', 'pages', 'facts', 'alt_text', 'filename', 'token', 'store_key', 'stored_bytes', 'created_at', 'last_used_at',
] as const satisfies readonly (keyof MediaRow)[];
// By id alone, the key compared on the rows read: with `api_key_id = ? and id in (…)` SQLite (which keeps
// no statistics) reads the key's whole library through media_key_created and filters it, a cost that grew
// with the library (about 96 µs for 1,900 files against 10 µs by id); by id it is one primary-key seek per
// file on both databases.
const manyQuery = prepareByShape<MediaRow>(
  (n) => n,
  (db, _n, ids) => db.selectFrom('media').select(MEDIA_COLUMNS).where('id', 'in', ids as string[]),
);
/** What a post's create-time checks read of a library file: its kind, its probe facts, its public path. */
export type PostMediaRow = Pick<MediaRow, 'id' | 'api_key_id' | 'type' | 'facts' | 'token' | 'filename'>;
// As manyQuery, with only those columns: read with every create that names library media, where the other
// columns are a third of the read's cost.
const POST_MEDIA_COLUMNS = ['id', 'api_key_id', 'type', 'facts', 'token', 'filename'] as const satisfies readonly (keyof PostMediaRow)[];
const forPostsQuery = prepareByShape<PostMediaRow>(
  (n) => n,
  (db, _n, ids) => db.selectFrom('media').select(POST_MEDIA_COLUMNS).where('id', 'in', ids as string[]),
);
// The uses of the files that are still in the library: a file deleted since the checks read it gets none,
// which the count of rows written shows. A use already recorded is left as it is (a PATCH records every
// media the post names, kept ones too).
const insertUses = prepareByShape(
  (n) => 1 + n,
  (db, _n, [postId, ...ids]) =>
    db
      .insertInto('media_uses')
      .columns(['media_id', 'post_id'])
      .expression(db.selectFrom('media').select(['id', sql<string>`cast(${postId} as text)`.as('post_id')]).where('id', 'in', ids as string[]))
      .onConflict((oc) => oc.columns(['media_id', 'post_id']).doNothing()),
);
const presentQuery = prepareByShape<{ id: string }>(
  (n) => n,
  (db, _n, ids) => db.selectFrom('media').select('id').where('id', 'in', ids as string[]),
);

/** The key's files among `ids`, read by id: another key's file is not there, as an unknown id is not. */
async function readByIds<R extends { api_key_id: string }>(
  query: { execute(executor: DbTx, shape: number, args: unknown[]): Promise<{ rows: R[] }> },
  apiKeyId: string,
  ids: readonly string[],
  executor: DbTx,
): Promise<R[]> {
  if (ids.length === 0) return [];
  const unique = [...new Set(ids)];
  return (await query.execute(executor, unique.length, unique)).rows.filter((r) => r.api_key_id === apiKeyId);
}

// What the checks read of a library file (PostMediaRow) never changes while the file exists: its kind,
// probe facts and public path are fixed at upload. Creates and PATCHes that name files named shortly before
// (a campaign's images across many posts, a bulk import) find them here instead of reading them again. A file
// deleted meanwhile, by this process or another, is caught where it matters: the write records uses only of
// files still in the library and fails whole otherwise (setUses; 'media_gone' of the one-statement create).
// Bounded in size and in age, so a deleted file's entry does not linger (and dropped when this process
// deletes the file); validate reads afresh.
const CHECKS_CACHE_MAX = 4096;
const CHECKS_CACHE_MS = 60_000;

export function createMediaDal(deps: { db: Kysely<Database>; dialect: DialectName; clock?: Clock }) {
  const { db, dialect } = deps;
  const clock = deps.clock ?? systemClock;
  const forChecks = new Map<string, { row: PostMediaRow; until: number }>();

  /** Media ids among `ids` that an open post uses (draft, scheduled, publishing, or a target not final). */
  async function inUse(trx: DbTx, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await trx
      .selectFrom('media_uses as u')
      .innerJoin('posts as p', 'p.id', 'u.post_id')
      .select('u.media_id')
      .where('u.media_id', 'in', ids)
      .where((eb) =>
        eb.or([
          eb('p.status', 'in', OPEN_POST_STATUSES),
          eb.exists(
            eb.selectFrom('post_targets as t').select(sql.lit(1).as('one')).whereRef('t.post_id', '=', 'p.id').where('t.status', 'in', OPEN_TARGET_STATUSES),
          ),
        ]),
      )
      .execute();
    return new Set(rows.map((r) => r.media_id));
  }

  return {
    get(apiKeyId: string, id: string, trx: DbTx = db): Promise<MediaRow | undefined> {
      return trx.selectFrom('media').selectAll().where('api_key_id', '=', apiKeyId).where('id', '=', id).executeTakeFirst();
    },

    getMany(apiKeyId: string, ids: readonly string[], executor: DbTx = db): Promise<MediaRow[]> {
      return readByIds(manyQuery, apiKeyId, ids, executor);
    },

    /** As getMany, with what a post's checks need only (PostMediaRow). */
    getForPosts(apiKeyId: string, ids: readonly string[], executor: DbTx = db): Promise<PostMediaRow[]> {
      return readByIds(forPostsQuery, apiKeyId, ids, executor);
    },

    /** Drops what the checks kept of a file: called once its delete has committed. */
    forget(id: string): void {
      forChecks.delete(id);
    },

    /**
     * As getForPosts, answering from the rows read in the last minute (see CHECKS_CACHE_MS): for checks
     * whose write then records the uses, which fails for a file deleted since.
     */
    async getForPostsCached(apiKeyId: string, ids: readonly string[], executor: DbTx = db): Promise<PostMediaRow[]> {
      const now = clock.now();
      const found: PostMediaRow[] = [];
      const missing: string[] = [];
      for (const id of new Set(ids)) {
        const kept = forChecks.get(id);
        if (kept && kept.until > now) found.push(kept.row);
        else missing.push(id);
      }
      if (missing.length > 0) {
        // Every key's rows are kept (they do not change either); the key is compared below, as readByIds does.
        for (const row of (await forPostsQuery.execute(executor, missing.length, missing)).rows) {
          forChecks.delete(row.id);
          if (forChecks.size >= CHECKS_CACHE_MAX) forChecks.delete(forChecks.keys().next().value!);
          forChecks.set(row.id, { row, until: now + CHECKS_CACHE_MS });
          found.push(row);
        }
      }
      return found.filter((r) => r.api_key_id === apiKeyId);
    },

    byToken(token: string): Promise<MediaRow | undefined> {
      return db.selectFrom('media').selectAll().where('token', '=', token).executeTakeFirst();
    },

    async list(apiKeyId: string, after: Cursor | null, limit: number): Promise<{ items: MediaRow[]; hasMore: boolean }> {
      let q = db.selectFrom('media').selectAll().where('api_key_id', '=', apiKeyId);
      if (after) {
        q = q.where((eb) => eb.or([eb('created_at', '<', after.createdAt), eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)])]));
      }
      const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit + 1).execute();
      return { items: rows.slice(0, limit), hasMore: rows.length > limit };
    },

    rendition(mediaId: string, ruleKey: string): Promise<MediaRenditionRow | undefined> {
      return db.selectFrom('media_renditions').selectAll().where('media_id', '=', mediaId).where('rule_key', '=', ruleKey).executeTakeFirst();
    },

    renditionsOf(mediaId: string, trx: DbTx = db): Promise<MediaRenditionRow[]> {
      return trx.selectFrom('media_renditions').selectAll().where('media_id', '=', mediaId).execute();
    },

    /** Bytes the key stores now (originals and renditions). */
    async usedBytes(trx: DbTx = db, apiKeyId: string): Promise<number> {
      const row = await trx.selectFrom('media').select((eb) => eb.fn.sum<number | string | null>('stored_bytes').as('total')).where('api_key_id', '=', apiKeyId).executeTakeFirst();
      return Number(row?.total ?? 0);
    },

    async insert(trx: DbTx, row: Insertable<MediaTable>): Promise<void> {
      await trx.insertInto('media').values(row).execute();
    },

    async setAltText(trx: DbTx, apiKeyId: string, id: string, altText: string | null): Promise<boolean> {
      const r = await trx.updateTable('media').set({ alt_text: altText }).where('api_key_id', '=', apiKeyId).where('id', '=', id).executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    inUse,

    /** Deletes the row, its renditions' rows and its uses; the caller deletes the stored files after commit. */
    async delete(trx: DbTx, id: string): Promise<void> {
      await trx.deleteFrom('media_renditions').where('media_id', '=', id).execute();
      await trx.deleteFrom('media_uses').where('media_id', '=', id).execute();
      await trx.deleteFrom('media').where('id', '=', id).execute();
    },

    /** Records a rendition once; false when another process recorded it first. */
    async insertRendition(trx: DbTx, row: Insertable<MediaRenditionsTable>): Promise<boolean> {
      const r = await trx.insertInto('media_renditions').values(row).onConflict((oc) => oc.columns(['media_id', 'rule_key']).doNothing()).executeTakeFirst();
      const inserted = Number(r.numInsertedOrUpdatedRows ?? 0n) === 1;
      if (inserted) {
        await trx.updateTable('media').set((eb) => ({ stored_bytes: eb('stored_bytes', '+', row.bytes) })).where('id', '=', row.media_id).execute();
      }
      return inserted;
    },

    /**
     * Records the media a post names now (create, PATCH; [] when it is deleted), given the media it named
     * before (from the stored post; [] for a new one). Uses are keyed by (media, post) only, so the ones
     * the post dropped are removed by that key, and every media it names is recorded (kept ones are left
     * as they are). A use counts for retention as long as its post changed within the retention period,
     * so nothing else is written here.
     *
     * Returns the ids newly named that are no longer in the library (deleted since the checks read them):
     * the caller must not commit then. A DELETE of the file cannot slip in between: on SQLite it is
     * serialized with this write; on PostgreSQL it waits for this transaction or makes it wait (lockUses),
     * and this statement reads after.
     */
    async setUses(trx: DbTx, postId: string, mediaIds: readonly string[], before: readonly string[] = []): Promise<string[]> {
      const ids = [...new Set(mediaIds)];
      const had = new Set(before);
      const dropped = [...had].filter((id) => !ids.includes(id));
      if (dropped.length > 0) await trx.deleteFrom('media_uses').where('post_id', '=', postId).where('media_id', 'in', dropped).execute();
      if (ids.length === 0) return [];
      const written = await insertUses.execute(trx, ids.length, [postId, ...ids]);
      // A new post has no uses yet: every file still there got one. A PATCH's kept files may have had theirs.
      if (had.size === 0 && Number(written.numAffectedRows ?? 0n) === ids.length) return [];
      return this.absent(ids.filter((id) => !had.has(id)), trx);
    },

    /** The ids among `ids` that are not in the library (of any key): files deleted since they were read. */
    async absent(ids: readonly string[], executor: DbTx = db): Promise<string[]> {
      if (ids.length === 0) return [];
      const present = new Set((await presentQuery.execute(executor, ids.length, [...ids])).rows.map((r) => r.id));
      return ids.filter((id) => !present.has(id));
    },

    /**
     * Before a delete looks for uses: waits for the transactions writing uses now and holds new ones back
     * until it commits (holdWrites), so it sees every use committed before it and every later write of a
     * use sees the file gone. Deletes of media run one at a time on PostgreSQL; SQLite serializes writes.
     */
    lockUses(trx: DbTx): Promise<void> {
      return holdWrites(dialect, trx, 'media_uses');
    },

    async touch(trx: DbTx, ids: readonly string[], now: number): Promise<void> {
      if (ids.length === 0) return;
      await trx.updateTable('media').set({ last_used_at: now }).where('id', 'in', [...new Set(ids)]).execute();
    },

    /**
     * Media nothing has used since `cutoff`: not uploaded, published or named by a post changed since
     * then, and held by no open post. What retention deletes.
     */
    async unusedSince(cutoff: number, limit: number, trx: DbTx = db, id?: string): Promise<MediaRow[]> {
      let q = trx
        .selectFrom('media as m')
        .selectAll('m')
        .where('m.last_used_at', '<', cutoff)
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom('media_uses as u').innerJoin('posts as p', 'p.id', 'u.post_id').select('u.post_id').whereRef('u.media_id', '=', 'm.id').where('p.updated_at', '>=', cutoff))),
        );
      if (id !== undefined) q = q.where('m.id', '=', id);
      const rows = await q.orderBy('m.last_used_at').limit(limit).execute();
      const held = await inUse(trx, rows.map((r) => r.id));
      return rows.filter((r) => !held.has(r.id));
    },

    /** As unusedSince for one media, inside the deleting transaction (nothing took it meanwhile). */
    async stillUnused(trx: DbTx, id: string, cutoff: number): Promise<boolean> {
      return (await this.unusedSince(cutoff, 1, trx, id)).length === 1;
    },
  };
}

export type MediaDal = ReturnType<typeof createMediaDal>;
