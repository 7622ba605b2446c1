// Per-account publishing limits (X's per-user posts, Threads' 250 a day, ...): a target over a limit
// waits for the window to make room instead of failing. Counted from Herald's own record of what it
// published for that platform account, across API keys, plus the attempts of that account in flight
// that started before this one (so that of two racing for the last slot exactly one goes).
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { RateWindow } from '../platforms/types.ts';

/** The attempt asking: in-flight attempts that started before it count against the limit. */
export interface Asker {
  targetId: string;
  startedAt: number;
}

/** Epoch ms when the account may publish again, or null when it may publish now. */
export async function limitFreesAt(
  db: Kysely<Database>,
  platform: string,
  accountId: string,
  windows: readonly RateWindow[],
  now: number,
  asker: Asker,
): Promise<number | null> {
  if (windows.length === 0) return null;
  const ahead = await db
    .selectFrom('post_targets')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('status', '=', sql.lit('publishing'))
    .where('lease_expires_at', '>', now)
    .where('platform', '=', platform)
    .where('account_id', '=', accountId)
    .where('id', '!=', asker.targetId)
    .where((eb) =>
      eb.or([eb('attempt_started_at', '<', asker.startedAt), eb.and([eb('attempt_started_at', '=', asker.startedAt), eb('id', '<', asker.targetId)])]),
    )
    .executeTakeFirstOrThrow();
  const inFlight = Number(ahead.n);

  let freesAt: number | null = null;
  for (const w of windows) {
    const room = w.max - inFlight;
    let at: number;
    if (room <= 0) {
      // Earlier attempts alone fill the window: look again once they are likely done.
      at = now + Math.min(w.windowMs, 30_000);
    } else {
      const rows = await db
        .selectFrom('post_targets')
        .select('published_at')
        .where('status', '=', sql.lit('published'))
        .where('platform', '=', platform)
        .where('account_id', '=', accountId)
        .where('published_at', '>', now - w.windowMs)
        .orderBy('published_at', 'desc')
        .limit(room)
        .execute();
      if (rows.length < room) continue;
      // The window makes room when the oldest of the last `room` publishes leaves it.
      at = rows[rows.length - 1]!.published_at! + w.windowMs;
    }
    freesAt = freesAt === null ? at : Math.max(freesAt, at);
  }
  return freesAt;
}
