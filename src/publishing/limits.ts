// Per-account publishing limits (X's per-user posts, Threads' 250 a day, ...): a target over a limit
// waits for the window to make room instead of failing. Counted from Herald's own record of what it
// published for that platform account, across API keys, plus the attempts of that account that hold a
// slot right now.
//
// An attempt takes its slot in a write transaction that holds the account's lock, so the attempts of
// one account take slots one at a time, each seeing every slot taken before it: of two racing for the
// last slot exactly one gets it, whatever order their claims committed in. A slot is given back when the
// attempt ends (attempts.ts clears it with the lease) and lapses with the lease of an attempt that died.
import type { DbTx } from '../db/schema.ts';
import { sql } from 'kysely';
import { exclusive, type DialectName } from '../db/dialect.ts';
import type { Writer } from '../db/writer.ts';
import { StaleAttemptError, type RateWindow } from '../platforms/types.ts';

/** The attempt asking for a slot. */
export interface SlotRequest {
  targetId: string;
  attemptId: string;
  platform: string;
  accountId: string;
}

export function createLimits(deps: { write: Writer['write']; dialect: DialectName }) {
  const { write, dialect } = deps;

  return {
    /**
     * Takes a slot for the attempt and returns null, or returns the epoch ms when the account may
     * publish again and takes nothing. Throws StaleAttemptError when the attempt no longer owns its target.
     */
    async takeSlot(req: SlotRequest, windows: readonly RateWindow[], now: number): Promise<number | null> {
      if (windows.length === 0) return null;
      return write(async (trx) => {
        await exclusive(dialect, trx, `publish-limit:${req.platform}:${req.accountId}`);
        const freesAt = await limitFreesAt(trx, req, windows, now);
        if (freesAt !== null) return freesAt;
        const taken = await trx
          .updateTable('post_targets')
          .set({ holds_limit_slot: 1 })
          .where('id', '=', req.targetId)
          .where('attempt_id', '=', req.attemptId)
          .where('status', '=', sql.lit('publishing'))
          .executeTakeFirst();
        if (Number(taken.numUpdatedRows) !== 1) throw new StaleAttemptError();
        return null;
      });
    },
  };
}

export type Limits = ReturnType<typeof createLimits>;

/** Epoch ms when the account may publish again, or null when a window has room now. */
async function limitFreesAt(trx: DbTx, req: SlotRequest, windows: readonly RateWindow[], now: number): Promise<number | null> {
  const held = await trx
    .selectFrom('post_targets')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('status', '=', sql.lit('publishing'))
    .where('lease_expires_at', '>', now)
    .where('platform', '=', req.platform)
    .where('account_id', '=', req.accountId)
    .where('holds_limit_slot', '=', 1)
    .where('id', '!=', req.targetId)
    .executeTakeFirstOrThrow();
  const inFlight = Number(held.n);

  let freesAt: number | null = null;
  for (const w of windows) {
    const room = w.max - inFlight;
    let at: number;
    if (room <= 0) {
      // Attempts in flight alone fill the window: look again once they are likely done.
      at = now + Math.min(w.windowMs, 30_000);
    } else {
      const rows = await trx
        .selectFrom('post_targets')
        .select('published_at')
        .where('status', '=', sql.lit('published'))
        .where('platform', '=', req.platform)
        .where('account_id', '=', req.accountId)
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
