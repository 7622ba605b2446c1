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

export interface RateLimiter {
  consume(key: string): Promise<RateDecision>;
  /**
   * PostgreSQL only: runs `lookup` and, when it finds a row, consumes a point of that row's `id`, in one
   * statement (one round trip instead of two); the limit and its stored rows are those of consume. Null
   * when nothing was found (nothing consumed).
   */
  consumeAfter?<Row extends { id: string }>(name: string, lookup: Lookup): Promise<{ row: Row; decision: RateDecision } | null>;
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
    consumeAfter = async <Row extends { id: string }>(name: string, lookup: Lookup) => {
      const n = lookup.values.length;
      const text = `with found as (${lookup.text}),
        limited as (
          insert into ${TABLE} (key, points, expire) select $${n + 1}::text || found.id, 1, $${n + 2}::bigint from found
          on conflict (key) do update set
            points = case when ${TABLE}.expire <= $${n + 3}::bigint then 1 else ${TABLE}.points + 1 end,
            expire = case when ${TABLE}.expire <= $${n + 3}::bigint then $${n + 2}::bigint else ${TABLE}.expire end
          returning points, expire)
        select found.*, limited.points as rate_points, limited.expire as rate_expire from found left join limited on true`;
      const now = Date.now();
      const { rows } = await pool.query({ name, text, values: [...lookup.values, keyPrefix, now + durationMs, now] });
      const r = rows[0] as (Row & { rate_points: number; rate_expire: number | string | null }) | undefined;
      if (!r) return null;
      const { rate_points: consumed, rate_expire: expire, ...row } = r;
      const msBeforeNext = expire === null ? -1 : Math.max(Number(expire) - now, 0);
      const allowed = consumed <= options.points;
      return {
        row: row as unknown as Row,
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
