// Posts, round two: a version on every post (PATCH with If-Match), the queue slot a queued post holds
// (one post per slot and key, enforced by a unique index), weekly queue slots per key, the first comment
// of a target (its own status, attempt, lease and checkpoint: a comment is checkpointed and reconciled
// like a post, and never re-posts its target), and the expiry an account.expiring announced.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('posts').addColumn('version', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await db.schema.alterTable('posts').addColumn('queued_slot', 'bigint').execute();
  // Several NULLs are allowed by both databases: only queued posts hold a slot.
  await db.schema.createIndex('posts_key_queued_slot').unique().on('posts').columns(['api_key_id', 'queued_slot']).execute();

  for (const [name, type] of [
    ['comment_status', 'text'],
    ['comment_id', 'text'],
    ['comment_error', 'text'],
    ['comment_error_code', 'text'],
    ['comment_checkpoint', 'text'],
    ['comment_attempt_id', 'text'],
    ['comment_lease_expires_at', 'bigint'],
    ['comment_next_attempt_at', 'bigint'],
    ['comment_started_at', 'bigint'],
  ] as const) {
    await db.schema.alterTable('post_targets').addColumn(name, type).execute();
  }
  await db.schema.alterTable('post_targets').addColumn('comment_attempts', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('post_targets').addColumn('comment_needs_reconcile', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  // The recovery sweep's look for comments whose attempt vanished.
  await db.schema.createIndex('post_targets_comment_due').on('post_targets').columns(['comment_status', 'comment_lease_expires_at']).execute();

  await db.schema
    .createTable('queues')
    .addColumn('api_key_id', 'text', (c) => c.primaryKey().references('api_keys.id').onDelete('cascade'))
    .addColumn('timezone', 'text', (c) => c.notNull())
    .addColumn('slots', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema.alterTable('accounts').addColumn('expiry_announced_for', 'bigint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('accounts').dropColumn('expiry_announced_for').execute();
  await db.schema.dropTable('queues').ifExists().execute();
  await db.schema.dropIndex('post_targets_comment_due').ifExists().execute();
  for (const name of [
    'comment_needs_reconcile',
    'comment_attempts',
    'comment_started_at',
    'comment_next_attempt_at',
    'comment_lease_expires_at',
    'comment_attempt_id',
    'comment_checkpoint',
    'comment_error_code',
    'comment_error',
    'comment_id',
    'comment_status',
  ]) {
    await db.schema.alterTable('post_targets').dropColumn(name).execute();
  }
  await db.schema.dropIndex('posts_key_queued_slot').ifExists().execute();
  await db.schema.alterTable('posts').dropColumn('queued_slot').execute();
  await db.schema.alterTable('posts').dropColumn('version').execute();
}
