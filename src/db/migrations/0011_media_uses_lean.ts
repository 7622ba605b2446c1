// Which posts use which media, written with every create that names library media, in one B-tree instead
// of three. 0008 made `media_uses` an ordinary table keyed (media_id, post_id) with a second index by
// post: on SQLite each use went into the rowid table, the primary key's own index and the post index. The
// post index only served "remove this post's uses", and PATCH and post delete know the post's media from
// the stored post, so they now remove its uses by (media_id, post_id): the key is enough.
// SQLite: the table becomes WITHOUT ROWID, the rows stored in the key's B-tree itself (one B-tree per use).
// PostgreSQL (a heap and its indexes, no index-organised table): the post index goes, the heap and the
// primary key stay. Existing uses are kept.
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.ts';

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  if (dialect === 'postgres') {
    await db.schema.dropIndex('media_uses_post').execute();
    return;
  }
  // SQLite migrations run outside a transaction (Kysely's migrator): the swap is one, so a crash leaves
  // either the old table or the new one, never neither.
  await db.transaction().execute(async (trx) => {
    await trx.schema
      .createTable('media_uses_lean')
      .addColumn('media_id', 'text', (c) => c.notNull())
      .addColumn('post_id', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('media_uses_lean_pk', ['media_id', 'post_id'])
      .modifyEnd(sql`without rowid`)
      .execute();
    await sql`insert into media_uses_lean (media_id, post_id) select media_id, post_id from media_uses`.execute(trx);
    await trx.schema.dropTable('media_uses').execute();
    await trx.schema.alterTable('media_uses_lean').renameTo('media_uses').execute();
  });
}

export async function down(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  if (dialect === 'sqlite') {
    await db.transaction().execute(async (trx) => {
      await trx.schema
        .createTable('media_uses_rowid')
        .addColumn('media_id', 'text', (c) => c.notNull())
        .addColumn('post_id', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('media_uses_pk', ['media_id', 'post_id'])
        .execute();
      await sql`insert into media_uses_rowid (media_id, post_id) select media_id, post_id from media_uses`.execute(trx);
      await trx.schema.dropTable('media_uses').execute();
      await trx.schema.alterTable('media_uses_rowid').renameTo('media_uses').execute();
    });
  }
  await db.schema.createIndex('media_uses_post').on('media_uses').columns(['post_id']).execute();
}
