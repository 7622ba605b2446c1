import type { Config } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { adoptPgBossJobs } from '../jobs/pgboss-adopt.ts';

export async function migrateCommand(config: Config): Promise<number> {
  const db = openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  try {
    const { applied } = await migrateToLatest(db);
    const adoptedJobs = await adoptPgBossJobs(db, Date.now());
    console.log(applied.length > 0 ? `applied: ${applied.join(', ')}` : `${db.describe} is up to date`);
    if (adoptedJobs > 0) console.log(`moved ${adoptedJobs} waiting jobs from pg-boss (schema pgboss) into Herald's jobs table`);
    return 0;
  } finally {
    await db.close();
  }
}
