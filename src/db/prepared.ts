// Hot queries, built and compiled once. Kysely builds and compiles every query on every call (about
// 20 µs each, more than SQLite takes to run most of them); a query whose shape never changes is built
// once with placeholder values, compiled by the database's own dialect, and then run with new values.
// The query is still written with the type-safe builder, once, for both databases.
import { CompiledQuery, type Compilable, type Kysely, type QueryResult } from 'kysely';

/** Any query executor: a Kysely instance or a write function's transaction (see DbTx). */
type AnyTx = Omit<Kysely<any>, 'transaction' | 'connection' | 'startTransaction' | 'destroy'>;

const SLOT = Symbol('slot');

/** Runs a compiled query on a connection directly (SQLite; see sqlite-connection.ts). */
export type DirectRunner = (sql: string, params: readonly unknown[]) => Promise<QueryResult<unknown>>;

// Executors whose prepared queries skip Kysely's executor, whose chain of promises and lock cost, on
// SQLite, as much as running the statement: the read instance (through the read gate) and each write
// transaction while it is open.
const direct = new WeakMap<object, DirectRunner>();

export function runDirectly(executor: AnyTx, runner: DirectRunner): void {
  direct.set(executor, runner);
}

export function stopRunningDirectly(executor: AnyTx): void {
  direct.delete(executor);
}

// Every prepared query's text, with a name of its own: on PostgreSQL these run as named statements, which
// each connection parses once (see database.ts), instead of the server parsing the text on every call.
const names = new Map<string, string>();

/** The statement name of a prepared query's SQL, or undefined for any other SQL. */
export function preparedName(sql: string): string | undefined {
  return names.get(sql);
}

/** A stand-in for the i-th value; Kysely passes it through as a query parameter. */
interface Placeholder {
  readonly [SLOT]: number;
}

function isPlaceholder(v: unknown): v is Placeholder {
  return typeof v === 'object' && v !== null && SLOT in v;
}

/** The placeholders a builder function receives, typed as the values they stand for. */
export type Slots<Args extends readonly unknown[]> = { [K in keyof Args]: Args[K] };

export interface Prepared<Args extends readonly unknown[], Row> {
  execute(executor: AnyTx, ...args: Args): Promise<QueryResult<Row>>;
}

/**
 * Prepares a query of `arity` values. `build` receives placeholders and must use each of them as a
 * value (never in a way that changes the query's shape, such as an `in` list of variable length).
 */
export function prepare<Args extends readonly unknown[], Row = unknown>(
  arity: Args['length'],
  build: (db: AnyTx, ...slots: Slots<Args>) => Compilable<Row>,
): Prepared<Args, Row> {
  // One compiled form per dialect (they differ in placeholders and quoting), keyed by the dialect
  // adapter, which a database and all its transactions share.
  const compiled = new WeakMap<object, { sql: string; params: readonly unknown[]; slots: number[] }>();
  const placeholders = Array.from({ length: arity }, (_, i) => ({ [SLOT]: i }) as Placeholder);
  const compiledFor = (db: AnyTx) => {
    const key = db.getExecutor().adapter;
    let entry = compiled.get(key);
    if (!entry) {
      const c = build(db, ...(placeholders as unknown as Slots<Args>)).compile();
      const slots = c.parameters.map((p) => (isPlaceholder(p) ? p[SLOT] : -1));
      entry = { sql: c.sql, params: c.parameters, slots };
      if (!names.has(c.sql)) names.set(c.sql, `herald_${names.size + 1}`);
      compiled.set(key, entry);
    }
    return entry;
  };
  return {
    execute(executor, ...args) {
      const c = compiledFor(executor);
      const params = c.slots.map((slot, i) => (slot >= 0 ? args[slot] : c.params[i]));
      const runner = direct.get(executor);
      if (runner) return runner(c.sql, params) as Promise<QueryResult<Row>>;
      return executor.executeQuery(CompiledQuery.raw(c.sql, params)) as Promise<QueryResult<Row>>;
    },
  };
}

/**
 * Prepares a query whose values come as one object (an inserted row). Every key listed is part of the
 * compiled query; an undefined value is sent as NULL.
 */
export function prepareRow<R extends object, Row = unknown>(
  keys: readonly (keyof R & string)[],
  build: (db: AnyTx, row: R) => Compilable<Row>,
): { execute(executor: AnyTx, row: R): Promise<QueryResult<Row>> } {
  const inner = prepare<unknown[], Row>(keys.length, (db, ...slots) => build(db, Object.fromEntries(keys.map((k, i) => [k, slots[i]])) as R));
  return {
    execute: (executor, row) => inner.execute(executor, ...keys.map((k) => (row[k] === undefined ? null : row[k]))),
  };
}

/**
 * Prepares a query whose shape is chosen by a small integer: the rows of an insert, the length of an
 * `in` list, which optional filters are present (as bits). Compiled once per shape, with
 * `arity(shape)` values.
 */
export function prepareByShape<Row = unknown>(
  arity: (shape: number) => number,
  build: (db: AnyTx, shape: number, slots: unknown[]) => Compilable<Row>,
): { execute(executor: AnyTx, shape: number, args: unknown[]): Promise<QueryResult<Row>> } {
  const byShape = new Map<number, Prepared<unknown[], Row>>();
  return {
    execute(executor, shape, args) {
      let inner = byShape.get(shape);
      if (!inner) {
        inner = prepare<unknown[], Row>(arity(shape), (db, ...slots) => build(db, shape, slots));
        byShape.set(shape, inner);
      }
      return inner.execute(executor, ...args);
    },
  };
}

/** Prepares a multi-row insert: one statement for however many rows, compiled once per row count. */
export function prepareRows<R extends object, Row = unknown>(
  keys: readonly (keyof R & string)[],
  build: (db: AnyTx, rows: R[]) => Compilable<Row>,
): { execute(executor: AnyTx, rows: readonly R[]): Promise<QueryResult<Row>> } {
  const inner = prepareByShape<Row>(
    (n) => keys.length * n,
    (db, n, slots) => build(db, Array.from({ length: n }, (_, r) => Object.fromEntries(keys.map((k, i) => [k, slots[r * keys.length + i]])) as R)),
  );
  return {
    execute: (executor, rows) => inner.execute(executor, rows.length, rows.flatMap((row) => keys.map((k) => (row[k] === undefined ? null : row[k])))),
  };
}
