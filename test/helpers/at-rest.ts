// What Herald keeps at rest: every table's values scanned for strings that must never be stored in plain
// text, and the tokens emulators issue, captured so tests know exactly what to look for.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { Db } from '../../src/db/database.ts';
import type { Emulator } from '../../src/sandbox/kit/emulator.ts';

export interface Found {
  /** On PostgreSQL, the table's schema; null on SQLite. */
  schema: string | null;
  table: string;
  column: string;
  needle: string;
}

function asText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (value instanceof Uint8Array) return Buffer.from(value).toString('latin1');
  if (typeof value === 'object' && !(value instanceof Date)) return JSON.stringify(value);
  return String(value);
}

/**
 * Reads every column of every table (on PostgreSQL every schema but the system ones)
 * and reports where any needle appears. Also returns what was scanned, so a test can check it looked.
 */
export async function findInDatabase(db: Db, needles: string[]): Promise<{ found: Found[]; tables: string[]; values: number }> {
  const k = db.kysely;
  const tables: { schema: string | null; name: string }[] =
    db.dialect === 'postgres'
      ? (
          await sql<{ schema: string; name: string }>`select table_schema as schema, table_name as name from information_schema.tables
            where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`.execute(k)
        ).rows
      : (await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(k)).rows.map((r) => ({
          schema: null,
          name: r.name,
        }));
  const found: Found[] = [];
  let values = 0;
  for (const t of tables) {
    const table = t.schema ? sql.id(t.schema, t.name) : sql.id(t.name);
    const rows = (await sql<Record<string, unknown>>`select * from ${table}`.execute(k)).rows;
    for (const row of rows) {
      for (const [column, value] of Object.entries(row)) {
        const text = asText(value);
        if (text === null) continue;
        values++;
        for (const needle of needles) if (text.includes(needle)) found.push({ schema: t.schema, table: t.name, column, needle });
      }
    }
  }
  return { found, tables: tables.map((t) => t.name), values };
}

/** On SQLite: which needles appear anywhere in the files of the data directory (database, WAL, journal, media). */
export function findInFiles(dataDir: string, needles: string[]): string[] {
  // Every file below it, the media folder's included.
  const files = readdirSync(dataDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  const bytes = files.map((e) => readFileSync(join(e.parentPath, e.name)));
  return needles.filter((n) => bytes.some((b) => b.includes(Buffer.from(n, 'utf8'))));
}

/** Records every access and refresh token the emulators issue from now on, until stop(). */
export function captureIssuedTokens(emulators: Emulator[]): { tokens(): string[]; stop(): void } {
  const issued: string[] = [];
  const restore: (() => void)[] = [];
  for (const emu of emulators) {
    const oauth = emu.oauth;
    const original = oauth.issueTokens;
    oauth.issueTokens = function (this: typeof oauth, ...args: Parameters<typeof original>) {
      const out = original.apply(this, args);
      issued.push(out.accessToken, ...(out.refreshToken ? [out.refreshToken] : []));
      return out;
    };
    restore.push(() => {
      oauth.issueTokens = original;
    });
  }
  return { tokens: () => [...issued], stop: () => restore.forEach((r) => r()) };
}
