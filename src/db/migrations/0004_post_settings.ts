// A post's post-level platform settings (SPEC's tiktokSettings and facebookSettings, and any a later
// platform adds) live in one JSON column keyed by the create body's field name, so that a platform's
// settings need no column of their own: the platform's descriptor names its field.
import type { Kysely } from 'kysely';

// The column names as the first migration made them; this file is history and must not follow renames.
const OLD = [
  ['tiktok_settings', 'tiktokSettings'],
  ['facebook_settings', 'facebookSettings'],
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('posts').addColumn('post_settings', 'text').execute();
  for (const [column, field] of OLD) {
    // Row by row in TypeScript rather than JSON functions, which SQLite and PostgreSQL spell differently.
    const rows = await db.selectFrom('posts').select(['id', column, 'post_settings']).where(column, 'is not', null).execute();
    for (const row of rows) {
      const settings = row.post_settings ? JSON.parse(row.post_settings) : {};
      settings[field] = JSON.parse(row[column]);
      await db.updateTable('posts').set({ post_settings: JSON.stringify(settings) }).where('id', '=', row.id).execute();
    }
  }
  for (const [column] of OLD) await db.schema.alterTable('posts').dropColumn(column).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [column] of OLD) await db.schema.alterTable('posts').addColumn(column, 'text').execute();
  const rows = await db.selectFrom('posts').select(['id', 'post_settings']).where('post_settings', 'is not', null).execute();
  for (const row of rows) {
    const settings = JSON.parse(row.post_settings);
    const values: Record<string, string | null> = {};
    for (const [column, field] of OLD) values[column] = settings[field] === undefined ? null : JSON.stringify(settings[field]);
    await db.updateTable('posts').set(values).where('id', '=', row.id).execute();
  }
  await db.schema.alterTable('posts').dropColumn('post_settings').execute();
}
