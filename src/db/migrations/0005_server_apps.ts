// Platforms whose accounts live on servers the user names (a Mastodon instance) need an app of Herald's
// registered on each server: kept per platform, server and redirect URL, its secret sealed. An OAuth
// state remembers the app (so the server) it was started for.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('platform_apps')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('platform', 'text', (c) => c.notNull())
    .addColumn('server_url', 'text', (c) => c.notNull())
    .addColumn('redirect_url', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('client_secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('platform_apps_server_redirect', ['platform', 'server_url', 'redirect_url'])
    .execute();
  await db.schema.alterTable('oauth_states').addColumn('server_app_id', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('oauth_states').dropColumn('server_app_id').execute();
  await db.schema.dropTable('platform_apps').ifExists().execute();
}
