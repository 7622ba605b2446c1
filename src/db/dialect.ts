// Everything that differs between SQLite and PostgreSQL lives here, and it is little: row locks
// (PostgreSQL needs them across processes; SQLite serialises writers anyway) and how a connection is made.
import type { DbTx } from './schema.ts';
import { sql, type SelectQueryBuilder } from 'kysely';

export type DialectName = 'sqlite' | 'postgres';

/** `FOR UPDATE` on PostgreSQL; a no-op on SQLite, where a write transaction already excludes others. */
export function forUpdate<DB, TB extends keyof DB, O>(
  dialect: DialectName,
  query: SelectQueryBuilder<DB, TB, O>,
): SelectQueryBuilder<DB, TB, O> {
  return dialect === 'postgres' ? query.forUpdate() : query;
}

/**
 * Makes the calling transaction the only one holding `name` until it ends, across processes: an
 * advisory lock on PostgreSQL; on SQLite the single writer already excludes every other transaction.
 */
export async function exclusive(dialect: DialectName, trx: DbTx, name: string): Promise<void> {
  if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext(${name}))`.execute(trx);
}

/** True when an error is a unique-constraint violation, whichever database raised it. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
