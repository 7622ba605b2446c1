// The token-care sweeps (every 10 minutes on workers, accounts/credentials.ts) look for active accounts whose
// tokens end before a time, soonest first: refreshDue per platform, announceExpiring across platforms. No
// index served them, so each sweep read every account (eleven times: once per platform that refreshes, once
// to announce). This one gives both a range read in the order they ask for. Accounts whose tokens do not
// expire (NULL) are left out of it: a range comparison is never true of NULL.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index "accounts_expiry" on "accounts" ("status", "token_expires_at") where "token_expires_at" is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('accounts_expiry').execute();
}
