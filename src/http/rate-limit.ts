// Per-key rate limits (API.md section 4) on rate-limiter-flexible: in memory on the embedded database,
// in PostgreSQL when several processes share the limit.
import type pg from 'pg';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Epoch ms when the window resets. */
  resetAt: number;
}

/** A read of one row by `id`, as SQL text with its values ($1 …), to run before consuming (see consumeAfter). */
export interface Lookup {
  text: string;
  values: unknown[];
}

/**
 * A statement to run inside consumeAfter's, only when the lookup found its row and the point consumed was
 * within the limit: `text(param, allowed)` is a data-modifying statement that may read the CTEs `found`
 * (the lookup's row) and `limited` (its window), must be conditioned on `allowed` (SQL true only when the
 * point was within the limit), and returns at most one row of one column named `also_value`. `param(value)`
 * adds a value and gives its placeholder.
 */
export interface Also {
  name: string;
  text(param: (value: unknown) => string, allowed: string): string;
  /** Where to run the whole statement (a connection of the caller's); default the pool. */
  run?(query: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

export interface RateLimiter {
  consume(key: string): Promise<RateDecision>;
  /**
   * PostgreSQL only: runs `lookup` and, when it finds a row, consumes a point of that row's `id`, in one
   * statement (one round trip instead of two); the limit and its stored rows are those of consume. Null
   * when nothing was found (nothing consumed). With `also`, that statement runs inside this one (see Also)
   * and its `also_value` column comes back as `also` (null when it did not run or returned nothing).
   */
  consumeAfter?<Row extends { id: string }>(name: string, lookup: Lookup, also?: Also): Promise<{ row: Row; decision: RateDecision; also: unknown } | null>;
  /** Drops windows that ended over an hour ago from the shared store (the memory store expires its own). */
  purgeExpired(): Promise<void>;
}

export interface RateLimiterOptions {
  points: number;
  durationSeconds: number;
  keyPrefix: string;
  pgPool: pg.Pool | null;
}

const TABLE = 'herald_rate_limits';

export async function createRateLimiter(options: RateLimiterOptions): Promise<RateLimiter> {
  const base = { points: options.points, duration: options.durationSeconds, keyPrefix: options.keyPrefix };
  let limiter: RateLimiterAbstract;
  let purgeExpired = async (): Promise<void> => {};
  let consumeAfter: RateLimiter['consumeAfter'];
  if (options.pgPool) {
    const pool = options.pgPool;
    limiter = await new Promise<RateLimiterAbstract>((resolve, reject) => {
      const l: RateLimiterPostgres = new RateLimiterPostgres(
        { ...base, storeClient: pool, storeType: 'pool', tableName: TABLE, clearExpiredByTimeout: false },
        (err?: Error) => (err ? reject(err) : resolve(l)),
      );
    });
    // The library's own purge timer is off (it would outlive the pool at shutdown); Herald's
    // maintenance schedule runs the same delete instead. `expire` is the window's end in epoch ms.
    purgeExpired = async () => {
      await pool.query(`DELETE FROM ${TABLE} WHERE expire < $1`, [Date.now() - 60 * 60_000]);
    };
    // The library's own upsert (RateLimiterPostgres._upsert: the window restarts once its expire has
    // passed), on the row the lookup found, keyed as the library keys it ("<prefix>:<key>").
    const keyPrefix = `${options.keyPrefix}:`;
    const durationMs = options.durationSeconds * 1000;
    consumeAfter = async <Row extends { id: string }>(name: string, lookup: Lookup, also?: Also) => {
      const values: unknown[] = [...lookup.values];
      const param = (v: unknown) => `$${values.push(v)}`;
      const now = Date.now();
      const [prefix, until, at] = [param(keyPrefix), param(now + durationMs), param(now)];
      let text = `with found as (${lookup.text}),
        limited as (
          insert into ${TABLE} (key, points, expire) select ${prefix}::text || found.id, 1, ${until}::bigint from found
          on conflict (key) do update set
            points = case when ${TABLE}.expire <= ${at}::bigint then 1 else ${TABLE}.points + 1 end,
            expire = case when ${TABLE}.expire <= ${at}::bigint then ${until}::bigint else ${TABLE}.expire end
          returning points, expire)`;
      if (also) {
        const allowed = `limited.points <= ${param(options.points)}::integer`;
        text += `,
        also_run as (${also.text(param, allowed)})
        select found.*, limited.points as rate_points, limited.expire as rate_expire, (select also_value from also_run) as also_value from found left join limited on true`;
      } else {
        text += `
        select found.*, limited.points as rate_points, limited.expire as rate_expire from found left join limited on true`;
      }
      const query = { name: also ? also.name : name, text, values };
      const { rows } = also?.run ? await also.run(query) : await pool.query(query);
      const r = rows[0] as (Row & { rate_points: number; rate_expire: number | string | null; also_value?: unknown }) | undefined;
      if (!r) return null;
      const { rate_points: consumed, rate_expire: expire, also_value: alsoValue = null, ...row } = r;
      const msBeforeNext = expire === null ? -1 : Math.max(Number(expire) - now, 0);
      const allowed = consumed <= options.points;
      return {
        row: row as unknown as Row,
        also: alsoValue,
        decision: { allowed, limit: options.points, remaining: allowed ? Math.max(options.points - consumed, 0) : 0, resetAt: now + msBeforeNext },
      };
    };
  } else {
    limiter = new RateLimiterMemory(base);
  }
  return {
    purgeExpired,
    consumeAfter,
    async consume(key) {
      const now = Date.now();
      try {
        const res = await limiter.consume(key, 1);
        return { allowed: true, limit: options.points, remaining: res.remainingPoints, resetAt: now + res.msBeforeNext };
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) {
          return { allowed: false, limit: options.points, remaining: 0, resetAt: now + rejection.msBeforeNext };
        }
        throw rejection;
      }
    },
  };
}
