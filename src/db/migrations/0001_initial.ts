// The first schema. Column types are the portable subset (text, integer, bigint) so the same migration
// runs on SQLite and PostgreSQL. Every index serves a query the API or the workers make.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('default_redirect_url', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();

  await db.schema
    .createTable('accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('api_key_id', 'text', (c) => c.notNull().references('api_keys.id'))
    .addColumn('platform', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('display_name', 'text')
    .addColumn('avatar_url', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('access_token', 'text', (c) => c.notNull())
    .addColumn('refresh_token', 'text')
    .addColumn('token_expires_at', 'bigint')
    .addColumn('refresh_expires_at', 'bigint')
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('meta', 'text', (c) => c.notNull())
    .addColumn('connected_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('accounts_key_platform_account', ['api_key_id', 'platform', 'account_id'])
    .execute();
  // Token care scans for tokens nearing expiry.
  // Token care: per platform, the active accounts whose token expires soonest.
  await db.schema.createIndex('accounts_token_expiry').on('accounts').columns(['platform', 'token_expires_at']).where(sql.ref('status'), '=', 'active').execute();

  await db.schema
    .createTable('oauth_states')
    .addColumn('state_hash', 'text', (c) => c.primaryKey())
    .addColumn('api_key_id', 'text', (c) => c.notNull().references('api_keys.id'))
    .addColumn('platform', 'text', (c) => c.notNull())
    .addColumn('redirect_url', 'text', (c) => c.notNull())
    .addColumn('code_verifier', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  // "Newest unused state of this key, platform and redirect URL" when the caller sends no state.
  await db.schema
    .createIndex('oauth_states_lookup')
    .on('oauth_states')
    .columns(['api_key_id', 'platform', 'redirect_url', 'created_at'])
    .execute();
  await db.schema.createIndex('oauth_states_expiry').on('oauth_states').columns(['expires_at']).execute();

  await db.schema
    .createTable('posts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('api_key_id', 'text', (c) => c.notNull().references('api_keys.id'))
    .addColumn('content', 'text')
    .addColumn('media_items', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('scheduled_for', 'bigint')
    .addColumn('timezone', 'text', (c) => c.notNull())
    .addColumn('is_draft', 'integer', (c) => c.notNull())
    .addColumn('tags', 'text', (c) => c.notNull())
    .addColumn('tiktok_settings', 'text')
    .addColumn('facebook_settings', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('published_at', 'bigint')
    .execute();
  // Keyset pagination: newest first, ties by id; with and without a status filter.
  await db.schema.createIndex('posts_key_created').on('posts').columns(['api_key_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('posts_key_status_created').on('posts').columns(['api_key_id', 'status', 'created_at', 'id']).execute();

  await db.schema
    .createTable('post_targets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('post_id', 'text', (c) => c.notNull().references('posts.id').onDelete('cascade'))
    .addColumn('api_key_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('platform', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('custom_content', 'text')
    .addColumn('custom_media', 'text')
    .addColumn('platform_specific_data', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('platform_post_id', 'text')
    .addColumn('platform_post_url', 'text')
    .addColumn('error', 'text')
    .addColumn('error_code', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('attempt_id', 'text')
    .addColumn('attempt_started_at', 'bigint')
    .addColumn('lease_expires_at', 'bigint')
    .addColumn('next_attempt_at', 'bigint')
    .addColumn('checkpoint', 'text')
    .addColumn('needs_reconcile', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('published_at', 'bigint')
    .addColumn('edit_count', 'integer', (c) => c.notNull().defaultTo(0))
    // JSON claim of an edit in flight at X ({claim, content, previous, until}); see publishing/edit.ts.
    .addColumn('edit_pending', 'text')
    .addColumn('original_platform_post_id', 'text')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // Targets of a post (with the platform filter of the list).
  await db.schema.createIndex('post_targets_post').on('post_targets').columns(['post_id', 'platform']).execute();
  // Partial indexes: a row is indexed only in the state its query looks for, so inserting a pending
  // target (the hot path) does not touch them.
  // Per-account publishing counts (limits).
  await db.schema
    .createIndex('post_targets_account_published')
    .on('post_targets')
    .columns(['platform', 'account_id', 'published_at'])
    .where(sql.ref('status'), '=', 'published')
    .execute();
  // Recovery: attempts whose lease ran out; due targets whose job went missing.
  await db.schema.createIndex('post_targets_lease').on('post_targets').column('lease_expires_at').where(sql.ref('status'), '=', 'publishing').execute();
  await db.schema.createIndex('post_targets_due').on('post_targets').column('next_attempt_at').where(sql.ref('status'), '=', 'pending').execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('api_key_id', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('resource_id', 'text')
    .addColumn('claim_id', 'text', (c) => c.notNull())
    .addColumn('locked_until', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['api_key_id', 'key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_expiry').on('idempotency_keys').columns(['expires_at']).execute();

  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('queue', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('run_at', 'bigint', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('locked_until', 'bigint')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // The poller's two claims: due queued jobs, and active jobs whose worker's lease ran out.
  await db.schema.createIndex('jobs_due').on('jobs').columns(['queue', 'run_at']).where(sql.ref('state'), '=', 'queued').execute();
  await db.schema.createIndex('jobs_lease').on('jobs').columns(['queue', 'locked_until']).where(sql.ref('state'), '=', 'active').execute();

  await db.schema
    .createTable('webhook_settings')
    .addColumn('api_key_id', 'text', (c) => c.primaryKey().references('api_keys.id'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('disabled_at', 'bigint')
    .addColumn('disabled_reason', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('webhook_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('api_key_id', 'text', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_events_created').on('webhook_events').columns(['created_at']).execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('event_id', 'text', (c) => c.notNull().references('webhook_events.id').onDelete('cascade'))
    .addColumn('api_key_id', 'text', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint')
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('last_duration_ms', 'integer')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('delivered_at', 'bigint')
    .execute();
  await db.schema.createIndex('webhook_deliveries_key_created').on('webhook_deliveries').columns(['api_key_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('webhook_deliveries_created').on('webhook_deliveries').columns(['created_at']).execute();
  // The retention purge deletes events; their deliveries go by cascade, found through this index.
  await db.schema.createIndex('webhook_deliveries_event').on('webhook_deliveries').column('event_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'webhook_deliveries',
    'webhook_events',
    'webhook_settings',
    'jobs',
    'idempotency_keys',
    'post_targets',
    'posts',
    'oauth_states',
    'accounts',
    'api_keys',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
