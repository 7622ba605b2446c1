// The media library (API.md section 10): one row per uploaded or imported file with what its probe found,
// the renditions made of it for platforms (one per media and platform rule, kept beside the original), and
// which posts use which media (kept by create, PATCH and delete, so a delete can refuse media still in use
// and retention can tell what nothing needs any more).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('media')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('api_key_id', 'text', (c) => c.notNull().references('api_keys.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('bytes', 'bigint', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('duration_ms', 'bigint')
    .addColumn('frame_rate', 'double precision')
    .addColumn('video_codec', 'text')
    .addColumn('audio_codec', 'text')
    .addColumn('pages', 'integer')
    // Every fact of the probe (MediaFacts: format, frames, orientation, alpha, rotation, …), for the rules.
    .addColumn('facts', 'text', (c) => c.notNull())
    .addColumn('alt_text', 'text')
    .addColumn('filename', 'text', (c) => c.notNull())
    // The unguessable part of the public URL (at least 128 random bits).
    .addColumn('token', 'text', (c) => c.notNull().unique())
    .addColumn('store_key', 'text', (c) => c.notNull())
    // Original plus renditions: what counts against the key's quota.
    .addColumn('stored_bytes', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint', (c) => c.notNull())
    .execute();
  // Keyset pagination, newest first; retention by last use.
  await db.schema.createIndex('media_key_created').on('media').columns(['api_key_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('media_last_used').on('media').columns(['last_used_at']).execute();

  await db.schema
    .createTable('media_renditions')
    .addColumn('media_id', 'text', (c) => c.notNull().references('media.id').onDelete('cascade'))
    .addColumn('rule_key', 'text', (c) => c.notNull())
    .addColumn('store_key', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('bytes', 'bigint', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('media_renditions_pk', ['media_id', 'rule_key'])
    .execute();

  await db.schema
    .createTable('media_uses')
    .addColumn('media_id', 'text', (c) => c.notNull())
    .addColumn('post_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('media_uses_pk', ['media_id', 'post_id'])
    .execute();
  await db.schema.createIndex('media_uses_post').on('media_uses').columns(['post_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('media_uses').ifExists().execute();
  await db.schema.dropTable('media_renditions').ifExists().execute();
  await db.schema.dropTable('media').ifExists().execute();
}
