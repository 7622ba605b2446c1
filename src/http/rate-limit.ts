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
}

export interface RateLimiterOptions {
  points: number;
  durationSeconds: number;
  keyPrefix: string;
  pgPool: pg.Pool | null;
}

export async function createRateLimiter(options: RateLimiterOptions): Promise<RateLimiter> {
  const base = { points: options.points, duration: options.durationSeconds, keyPrefix: options.keyPrefix };
  let limiter: RateLimiterAbstract;
  if (options.pgPool) {
    const pool = options.pgPool;
    limiter = await new Promise<RateLimiterAbstract>((resolve, reject) => {
      const l: RateLimiterPostgres = new RateLimiterPostgres(
        { ...base, storeClient: pool, storeType: 'pool', tableName: 'herald_rate_limits', clearExpiredByTimeout: false },
        (err?: Error) => (err ? reject(err) : resolve(l)),
      );
    });
  } else {
    limiter = new RateLimiterMemory(base);
  }
  return {
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
