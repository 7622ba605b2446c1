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

/**
 * Waits for the transactions writing `table` now and holds new writes to it back until the calling
 * transaction ends; the caller may write to it itself. PostgreSQL: SHARE ROW EXCLUSIVE, which conflicts
 * with the ROW EXCLUSIVE every write takes and with itself, so two holders run one after the other (SHARE
 * would let both in, and both then wait for the other's SHARE to write: a deadlock). Readers are not held.
 * A no-op on SQLite, where the single writer already excludes every other transaction.
 */
export async function holdWrites(dialect: DialectName, trx: DbTx, table: string): Promise<void> {
  if (dialect === 'postgres') await sql`lock table ${sql.table(table)} in share row exclusive mode`.execute(trx);
}

/** True when an error is a unique-constraint violation, whichever database raised it. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
