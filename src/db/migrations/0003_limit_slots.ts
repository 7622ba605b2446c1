// Per-account publishing limits: an attempt takes one of its account's slots (under a lock on that
// account) before it calls the platform, and in-flight attempts are counted by the slots they hold.
// Counting "attempts that started earlier" instead let two attempts miss each other when the later one
// committed its claim first.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('post_targets')
    .addColumn('holds_limit_slot', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('post_targets').dropColumn('holds_limit_slot').execute();
}
