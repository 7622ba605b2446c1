// Per-account publishing limits (X's per-user posts, Threads' 250 a day, ...): a target over a limit
// waits for the window to make room instead of failing. Counted from Herald's own record of what it
// published for that platform account, across API keys.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { RateWindow } from '../platforms/types.ts';

/** Epoch ms when the account may publish again, or null when it may publish now. */
export async function limitFreesAt(
  db: Kysely<Database>,
  platform: string,
  accountId: string,
  windows: readonly RateWindow[],
  now: number,
): Promise<number | null> {
  let freesAt: number | null = null;
  for (const w of windows) {
    const since = now - w.windowMs;
    const rows = await db
      .selectFrom('post_targets')
      .select('published_at')
      .where('status', '=', sql.lit('published'))
      .where('platform', '=', platform)
      .where('account_id', '=', accountId)
      .where('published_at', '>', since)
      .orderBy('published_at', 'desc')
      .limit(w.max)
      .execute();
    if (rows.length < w.max) continue;
    // The window makes room when the oldest of the last `max` publishes leaves it.
    const oldest = rows[rows.length - 1]!.published_at!;
    const at = oldest + w.windowMs;
    freesAt = freesAt === null ? at : Math.max(freesAt, at);
  }
  return freesAt;
}
