import type { Config } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';

export async function migrateCommand(config: Config): Promise<number> {
  const db = openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  try {
    const { applied } = await migrateToLatest(db);
    console.log(applied.length > 0 ? `applied: ${applied.join(', ')}` : `${db.describe} is up to date`);
    return 0;
  } finally {
    await db.close();
  }
}
