// Data access for the media library. Reads are scoped by API key (the public URL reads by token); every
// method that writes takes the transaction it belongs to.
import { sql, type Kysely } from 'kysely';
import type { Cursor } from '../posts/cursor.ts';
import type { Database, DbTx, MediaRenditionRow, MediaRow } from '../db/schema.ts';
import type { Insertable } from 'kysely';
import type { MediaTable, MediaRenditionsTable } from '../db/schema.ts';

/** Posts in these states, or with a target still to be final, hold their media (DELETE answers 409). */
const OPEN_POST_STATUSES = ['draft', 'scheduled', 'publishing'] as const;
const OPEN_TARGET_STATUSES = ['pending', 'publishing'] as const;

export function createMediaDal(deps: { db: Kysely<Database> }) {
  const { db } = deps;

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

    async getMany(apiKeyId: string, ids: readonly string[]): Promise<MediaRow[]> {
      if (ids.length === 0) return [];
      return db.selectFrom('media').selectAll().where('api_key_id', '=', apiKeyId).where('id', 'in', [...new Set(ids)]).execute();
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
    async usedBytes(trx: DbTx, apiKeyId: string): Promise<number> {
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

    /** The media a post names, replacing what it named before (create, PATCH); [] when it is deleted. */
    async setUses(trx: DbTx, postId: string, mediaIds: readonly string[], now: number): Promise<void> {
      await trx.deleteFrom('media_uses').where('post_id', '=', postId).execute();
      const ids = [...new Set(mediaIds)];
      if (ids.length === 0) return;
      await trx.insertInto('media_uses').values(ids.map((media_id) => ({ media_id, post_id: postId }))).execute();
      await trx.updateTable('media').set({ last_used_at: now }).where('id', 'in', ids).execute();
    },

    async touch(trx: DbTx, ids: readonly string[], now: number): Promise<void> {
      if (ids.length === 0) return;
      await trx.updateTable('media').set({ last_used_at: now }).where('id', 'in', [...new Set(ids)]).execute();
    },

    /** Media nothing has used since `cutoff` and no open post holds: what retention deletes. */
    async unusedSince(cutoff: number, limit: number): Promise<MediaRow[]> {
      const rows = await db.selectFrom('media').selectAll().where('last_used_at', '<', cutoff).orderBy('last_used_at').limit(limit).execute();
      const held = await inUse(db, rows.map((r) => r.id));
      return rows.filter((r) => !held.has(r.id));
    },
  };
}

export type MediaDal = ReturnType<typeof createMediaDal>;
