// Three indexes that held an entry for every row whose indexed time is NULL, which no query looks up: the
// calendar finds posts by a range of `published_at` or `scheduled_for` (0009), and the sweep of overdue
// targets by a range of `next_attempt_at` (0001). A range comparison is never true of NULL, so both
// databases use an index restricted to "IS NOT NULL" for those queries, as before. What changes is what a
// write costs: every post is created with `published_at` NULL (one B-tree fewer to write per create, on
// every create: measured by bench/create-waits.ts' WAL frames), drafts and publish-now posts have no
// `scheduled_for`, and a draft's targets no `next_attempt_at`. Publishing a post now adds its entry to
// posts_key_published instead of moving it from the NULLs.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('posts_key_published').execute();
  await sql`create index "posts_key_published" on "posts" ("api_key_id", "published_at") where "published_at" is not null`.execute(db);
  await db.schema.dropIndex('posts_key_scheduled').execute();
  await sql`create index "posts_key_scheduled" on "posts" ("api_key_id", "scheduled_for") where "scheduled_for" is not null`.execute(db);
  await db.schema.dropIndex('post_targets_due').execute();
  await sql`create index "post_targets_due" on "post_targets" ("next_attempt_at") where "status" = 'pending' and "next_attempt_at" is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('post_targets_due').execute();
  await sql`create index "post_targets_due" on "post_targets" ("next_attempt_at") where "status" = 'pending'`.execute(db);
  await db.schema.dropIndex('posts_key_scheduled').execute();
  await db.schema.createIndex('posts_key_scheduled').on('posts').columns(['api_key_id', 'scheduled_for']).execute();
  await db.schema.dropIndex('posts_key_published').execute();
  await db.schema.createIndex('posts_key_published').on('posts').columns(['api_key_id', 'published_at']).execute();
}
