// Runs the migrations in src/db/migrations, in name order, on either database.
import { Migrator, type Migration, type MigrationResultSet } from 'kysely/migration';
import type { Db } from './database.ts';
import type { DialectName } from './dialect.ts';
import * as m0001 from './migrations/0001_initial.ts';
import * as m0002 from './migrations/0002_webhooks.ts';
import * as m0003 from './migrations/0003_limit_slots.ts';
import * as m0004 from './migrations/0004_post_settings.ts';
import * as m0005 from './migrations/0005_server_apps.ts';
import * as m0006 from './migrations/0006_refresh_lease.ts';
import * as m0007 from './migrations/0007_posts_round_two.ts';
import * as m0008 from './migrations/0008_media.ts';
import * as m0009 from './migrations/0009_dashboard_sessions.ts';
import * as m0010 from './migrations/0010_lean_indexes.ts';
import * as m0011 from './migrations/0011_media_uses_lean.ts';
import * as m0012 from './migrations/0012_partial_post_indexes.ts';
import * as m0013 from './migrations/0013_accounts_expiry.ts';

const MIGRATIONS: Record<string, Migration> = {
  '0001_initial': m0001,
  '0002_webhooks': m0002,
  '0003_limit_slots': m0003,
  '0004_post_settings': m0004,
  '0005_server_apps': m0005,
  '0006_refresh_lease': m0006,
  '0007_posts_round_two': m0007,
  '0008_media': m0008,
  '0009_dashboard_sessions': m0009,
  '0010_lean_indexes': m0010,
};

/** Every migration, those that differ between the databases given the one they run on. */
function migrationsFor(dialect: DialectName): Record<string, Migration> {
  return {
    ...MIGRATIONS,
    '0011_media_uses_lean': { up: (db) => m0011.up(db, dialect), down: (db) => m0011.down(db, dialect) },
    '0012_partial_post_indexes': m0012,
    '0013_accounts_expiry': m0013,
  };
}

export interface MigrationReport {
  applied: string[];
}

export async function migrateToLatest(db: Db): Promise<MigrationReport> {
  return migrate(db, (m) => m.migrateToLatest());
}

/** Up (or down) to the named migration: what a database an earlier Herald made looks like. */
export async function migrateTo(db: Db, name: string): Promise<MigrationReport> {
  return migrate(db, (m) => m.migrateTo(name));
}

async function migrate(db: Db, run: (m: Migrator) => Promise<MigrationResultSet>): Promise<MigrationReport> {
  const migrator = new Migrator({
    db: db.writable,
    provider: { getMigrations: async () => migrationsFor(db.dialect) },
    migrationTableName: 'herald_migrations',
    migrationLockTableName: 'herald_migrations_lock',
  });
  const { error, results } = await run(migrator);
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${(error as Error).message ?? String(error)}`);
  }
  return { applied: (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName) };
}
