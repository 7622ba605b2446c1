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

export interface RateLimiter {
  consume(key: string): Promise<RateDecision>;
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
  } else {
    limiter = new RateLimiterMemory(base);
  }
  return {
    purgeExpired,
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
