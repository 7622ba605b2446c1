// Dashboard sessions (API.md section 13): an API key exchanged for a cookie. Only the SHA-256 hash of the
// session id is stored, so a copy of the database opens no session. A session ends when its key is
// revoked (the key row is read on every request), after 12 hours without use, or at sign-out.
// Numbered 0009: 0008 is the media library's (another branch), which lands first.
// The calendar reads posts by their scheduled and published times, so both get an index per key.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('dashboard_sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('api_key_id', 'text', (c) => c.notNull().references('api_keys.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dashboard_sessions_key').on('dashboard_sessions').columns(['api_key_id']).execute();
  await db.schema.createIndex('dashboard_sessions_seen').on('dashboard_sessions').columns(['last_seen_at']).execute();
  await db.schema.createIndex('posts_key_scheduled').on('posts').columns(['api_key_id', 'scheduled_for']).execute();
  await db.schema.createIndex('posts_key_published').on('posts').columns(['api_key_id', 'published_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('posts_key_published').ifExists().execute();
  await db.schema.dropIndex('posts_key_scheduled').ifExists().execute();
  await db.schema.dropTable('dashboard_sessions').ifExists().execute();
}
