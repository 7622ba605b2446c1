// One token refresh per account across processes: a process takes a short lease on the account row before
// it asks the platform for new tokens; another process that needs new tokens meanwhile waits for them.
// Without it, two processes refreshing a rotating refresh token (X, TikTok, …) at once made the loser see
// "invalid refresh token", mark the account needs_reconnect and announce a false account.disconnected.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('accounts').addColumn('refresh_lease_id', 'text').execute();
  await db.schema.alterTable('accounts').addColumn('refresh_lease_until', 'bigint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('accounts').dropColumn('refresh_lease_until').execute();
  await db.schema.alterTable('accounts').dropColumn('refresh_lease_id').execute();
}
