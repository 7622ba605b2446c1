// Two indexes that every new post touched for nothing: the queue-slot index held a NULL for every post that
// is not queued, and the first-comment index a row for every target, though only queued posts and targets
// with a first comment are ever looked up through them. Partial, they cost nothing on the create path (two
// B-trees fewer to write per post, on both databases) and answer the same queries: the slot lookups and the
// uniqueness of a slot name `queued_slot` (so it is not NULL), the comment sweep names `comment_status`.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('posts_key_queued_slot').execute();
  await db.schema
    .createIndex('posts_key_queued_slot')
    .unique()
    .on('posts')
    .columns(['api_key_id', 'queued_slot'])
    .where(sql.ref('queued_slot'), 'is not', null)
    .execute();
  await db.schema.dropIndex('post_targets_comment_due').execute();
  await db.schema
    .createIndex('post_targets_comment_due')
    .on('post_targets')
    .columns(['comment_status', 'comment_lease_expires_at'])
    .where(sql.ref('comment_status'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('post_targets_comment_due').execute();
  await db.schema.createIndex('post_targets_comment_due').on('post_targets').columns(['comment_status', 'comment_lease_expires_at']).execute();
  await db.schema.dropIndex('posts_key_queued_slot').execute();
  await db.schema.createIndex('posts_key_queued_slot').unique().on('posts').columns(['api_key_id', 'queued_slot']).execute();
}
