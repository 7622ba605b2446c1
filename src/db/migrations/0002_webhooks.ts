// Webhook delivery claims and the attempt log. A delivery is claimed (attempt_id + lease) before it is
// sent, so two workers never send the same attempt; each attempt's result is kept for the operations API.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // SQLite adds one column per statement.
  await db.schema.alterTable('webhook_deliveries').addColumn('attempt_id', 'text').execute();
  await db.schema.alterTable('webhook_deliveries').addColumn('lease_expires_at', 'bigint').execute();
  // The worker's sweep: due or abandoned pending deliveries.
  await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
  // GET /v1/webhooks/deliveries?status=…, newest first.
  await db.schema
    .createIndex('webhook_deliveries_key_status_created')
    .on('webhook_deliveries')
    .columns(['api_key_id', 'status', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('delivery_id', 'text', (c) => c.notNull().references('webhook_deliveries.id').onDelete('cascade'))
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('redelivery', 'integer', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('error', 'text')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_attempts_delivery').on('webhook_attempts').columns(['delivery_id', 'attempt']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('webhook_attempts').ifExists().execute();
  await db.schema.dropIndex('webhook_deliveries_key_status_created').ifExists().execute();
  await db.schema.dropIndex('webhook_deliveries_due').ifExists().execute();
  await db.schema.alterTable('webhook_deliveries').dropColumn('lease_expires_at').execute();
  await db.schema.alterTable('webhook_deliveries').dropColumn('attempt_id').execute();
}
