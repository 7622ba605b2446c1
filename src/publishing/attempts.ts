// The states of one publish attempt in the database. A target is claimed (marked `publishing` with a new
// attempt id and a lease) before any platform call; every later write is fenced on that attempt id, so
// an attempt that lost its lease can never overwrite a newer one. Status, events and follow-up jobs are
// written in one transaction.
import type { DbTx } from '../db/schema.ts';
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { DialectName } from '../db/dialect.ts';
import { prepare, type Prepared } from '../db/prepared.ts';
import type { AccountRow, Database, PostRow, TargetRow, TargetUpdate } from '../db/schema.ts';
import { together, type TxEnd, type Writer } from '../db/writer.ts';
import { newAttemptId } from '../lib/ids.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { FailureCategory } from '../platforms/types.ts';
import { StaleAttemptError } from '../platforms/types.ts';
import { nextPostStatus, sendPostStatus } from '../posts/status.ts';
import { scheduleFirstComment } from './comments.ts';
import { postFailed, postPublished, type CatalogEvent } from '../events/catalog.ts';
import { subscribed, type Outbox, type WebhookSettingsRow } from '../webhooks/outbox.ts';

export type Claim =
  | { kind: 'gone' }
  | { kind: 'final' }
  | { kind: 'not_due'; at: number }
  /** Another attempt holds a live lease until `until`. */
  | { kind: 'busy'; until: number }
  | {
      kind: 'claimed';
      attemptId: string;
      /** 'reconcile': an earlier attempt's outcome is unknown; ask the platform before sending. */
      mode: 'publish' | 'reconcile';
      target: TargetRow;
      post: PostRow;
      /** When the attempt being reconciled started (bounds the platform-side search). */
      reconcileFrom: number | null;
      /**
       * Taken over from an attempt whose process vanished: when that attempt's lease ran out. A call it
       * had in flight may still be answered by the platform for a while after.
       */
      vanishedLeaseEnd: number | null;
      /** Seconds late against scheduledFor, on a scheduled target's first attempt. */
      lateness: number | null;
      /** The target's account as the claim read it (null: not connected). */
      account: AccountRow | null;
    };

export type ErrorCode = FailureCategory | 'account_disconnected' | 'internal';

export type Finish =
  /** firstComment: the target asks for a first comment its platform can post; it becomes due now. */
  | { kind: 'published'; platformPostId: string; platformPostUrl: string; firstComment?: boolean }
  /**
   * needsReconcile: the outcome of an earlier attempt is still unknown (the platform never answered the
   * question), so whatever comes next must ask before sending; kept through failures and retries.
   */
  | { kind: 'failed'; code: ErrorCode; message: string; needsReconcile?: number }
  | { kind: 'retry'; at: number; code: ErrorCode; message: string; needsReconcile?: number }
  /** Outcome unknown: ask the platform at `at`; `reconciles` is the new needs_reconcile value. */
  | { kind: 'reconcile'; at: number; reconciles: number; message: string }
  /** A per-account limit: wait without using up an attempt. */
  | { kind: 'defer'; at: number; message: string };

const FINAL_TARGET = new Set(['published', 'failed']);

// Run for every attempt, twice (claim and write-back): built and compiled once (see db/prepared.ts). The
// post's row is locked on PostgreSQL; SQLite's one writer already excludes every other transaction.
// Beside the post, a claim reads the accounts of its targets (for the attempts it starts) and a write-back
// the webhook settings of the post's key (for the events it records, see webhooks/outbox.ts): on
// PostgreSQL as a JSON column of the statement that locks the post, on SQLite each in a statement of its own.
type Beside = 'accounts' | 'webhook';
type By = 'post' | 'target';
/** The post (found by its id, or by one of its targets' id) as a WHERE on `posts p`. */
const postWhere = (by: By, id: unknown) => (by === 'post' ? sql`p.id = ${id}` : sql`p.id = (select post_id from post_targets where id = ${id})`);
const besideJson = (beside: Beside, by: By, id: unknown) =>
  beside === 'webhook'
    ? sql`(select to_json(w) from (select url, events, disabled_at from webhook_settings where api_key_id = p.api_key_id) w)`
    : sql`(select coalesce(json_agg(a.*), '[]'::json) from accounts a join post_targets t
            on t.api_key_id = a.api_key_id and t.platform = a.platform and t.account_id = a.account_id
            where ${by === 'post' ? sql`t.post_id = p.id` : sql`t.id = ${id}`})`;
const pgLock = (by: By, beside: Beside) =>
  prepare<[string], PostRow & { beside_json: unknown }>(1, (db, id) => ({
    compile: () => sql`select p.*, ${besideJson(beside, by, id)} as beside_json from posts p where ${postWhere(by, id)} for update of p`.compile(db as Kysely<Database>),
  }));
const PG_LOCK: Record<By, Record<Beside, ReturnType<typeof pgLock>>> = {
  post: { accounts: pgLock('post', 'accounts'), webhook: pgLock('post', 'webhook') },
  target: { accounts: pgLock('target', 'accounts'), webhook: pgLock('target', 'webhook') },
};
const sqlitePost: Record<By, ReturnType<typeof prepare<[string], PostRow>>> = {
  post: prepare<[string], PostRow>(1, (db, postId) => db.selectFrom('posts').selectAll().where('id', '=', postId)),
  target: prepare<[string], PostRow>(1, (db, targetId) =>
    db
      .selectFrom('posts')
      .selectAll()
      .where('id', '=', db.selectFrom('post_targets').select('post_id').where('post_targets.id', '=', targetId)),
  ),
};
const joinAccounts = (db: Parameters<Parameters<typeof prepare>[1]>[0]) =>
  (db as Kysely<Database>)
    .selectFrom('accounts')
    .innerJoin('post_targets', (j) =>
      j.onRef('post_targets.api_key_id', '=', 'accounts.api_key_id').onRef('post_targets.platform', '=', 'accounts.platform').onRef('post_targets.account_id', '=', 'accounts.account_id'),
    )
    .selectAll('accounts');
/** The webhook settings of the key `keyOf` selects (a post's or a target's api_key_id). */
const webhookOfKey = (db: Parameters<Parameters<typeof prepare>[1]>[0], keyOf: (d: Kysely<Database>) => SelectQueryBuilder<Database, keyof Database, { api_key_id: string }>) =>
  (db as Kysely<Database>).selectFrom('webhook_settings').select(['url', 'events', 'disabled_at']).where('api_key_id', '=', keyOf(db as Kysely<Database>));
const sqliteBeside: Record<By, Record<Beside, ReturnType<typeof prepare<[string], AccountRow | WebhookSettingsRow>>>> = {
  post: {
    accounts: prepare<[string], AccountRow>(1, (db, postId) => joinAccounts(db).where('post_targets.post_id', '=', postId)),
    webhook: prepare<[string], WebhookSettingsRow>(1, (db, postId) => webhookOfKey(db, (d) => d.selectFrom('posts').select('posts.api_key_id').where('posts.id', '=', postId))),
  },
  target: {
    accounts: prepare<[string], AccountRow>(1, (db, targetId) => joinAccounts(db).where('post_targets.id', '=', targetId)),
    webhook: prepare<[string], WebhookSettingsRow>(1, (db, targetId) =>
      webhookOfKey(db, (d) => d.selectFrom('post_targets').select('post_targets.api_key_id').where('post_targets.id', '=', targetId)),
    ),
  },
};
const targetsOf: Record<By, ReturnType<typeof prepare<[string], TargetRow>>> = {
  post: prepare<[string], TargetRow>(1, (db, postId) => db.selectFrom('post_targets').selectAll().where('post_id', '=', postId).orderBy('position')),
  target: prepare<[string], TargetRow>(1, (db, targetId) =>
    db
      .selectFrom('post_targets')
      .selectAll()
      .where('post_id', '=', db.selectFrom('post_targets as t').select('t.post_id').where('t.id', '=', targetId))
      .orderBy('position'),
  ),
};

// The updates of a claim's or write-back's targets, with the post's status (PostgreSQL: `status`), built
// and compiled once per shape: which columns each target's update sets (a few per kind of result).
const writesByShape = new Map<string, Prepared<unknown[], unknown>>();
function targetWrites(columns: string[][], status: boolean): Prepared<unknown[], unknown> {
  const shape = `${status}|${columns.map((c) => c.join(',')).join('|')}`;
  let statement = writesByShape.get(shape);
  if (statement) return statement;
  const arity = columns.reduce((n, c) => n + c.length + 1, 0) + (status ? 4 : 0);
  statement = prepare<unknown[]>(arity, (db, ...slots) => {
    let i = 0;
    const next = () => slots[i++];
    const targets = columns.map((c) => {
      const set = Object.fromEntries(c.map((k) => [k, next()]));
      return (db as Kysely<Database>).updateTable('post_targets').set(set).where('id', '=', next() as string);
    });
    if (!status) return targets[0]!;
    const post = (db as Kysely<Database>)
      .updateTable('posts')
      .set({ status: next() as PostRow['status'], updated_at: next() as number, published_at: next() as number | null })
      .where('id', '=', next() as string);
    return { compile: () => sql`with ${sql.join(targets.map((t, n) => sql`${sql.raw(`t${n}`)} as (${t})`))} ${post}`.compile(db as Kysely<Database>) };
  });
  // Shapes are few; should they not be, the rarest are not kept.
  if (writesByShape.size < 256) writesByShape.set(shape, statement);
  return statement;
}

const accountKey = (a: { api_key_id: string; platform: string; account_id: string }) => `${a.api_key_id}\n${a.platform}\n${a.account_id}`;

/** A locked post and what a claim or a write-back decides from, read with it. */
interface Locked {
  post: PostRow;
  targets: TargetRow[];
  /** The targets' accounts (a claim's read; else empty). */
  accounts: AccountRow[];
  /** The webhook settings of the post's key (a write-back's read; else null). */
  webhook: WebhookSettingsRow | null;
}

export function createAttemptsStore(deps: {
  db: Kysely<Database>;
  write: Writer['write'];
  /** A write that starts with reads (claims and write-backs lock a post and read its targets); default write. */
  writeFrom?: Writer['writeFrom'];
  /** For the single-statement writes (heartbeats, checkpoints); default write. */
  writeOne?: Writer['writeOne'];
  dialect: DialectName;
  queue: JobQueue;
  outbox: Outbox;
  leaseMs: number;
}) {
  const { db, write, dialect, queue, outbox, leaseMs } = deps;
  const writeOne = deps.writeOne ?? write;
  const writeFrom: Writer['writeFrom'] = deps.writeFrom ?? ((first, fn) => write(async (trx, end) => fn(trx, await first(trx), end)));

  /**
   * A post, its row locked (PostgreSQL), and all its targets: what a claim or a write-back decides from.
   * Every change of a target's status locks its post first, so the targets read here stay as they are
   * until this transaction ends. Found by the post's id, or by one of its targets'. The statements are
   * sent together (with BEGIN, see writeFrom): the server runs them in order, so the targets are read in
   * a statement of their own once the lock is held (a read in the locking statement would see the rows as
   * they were before it waited). `beside`: what else is read (see Beside).
   */
  function lockPost(trx: DbTx, by: { postId: string } | { targetId: string }, beside: Beside): Promise<Locked | null> {
    const [kind, id]: [By, string] = 'postId' in by ? ['post', by.postId] : ['target', by.targetId];
    const targets = targetsOf[kind];
    if (dialect === 'postgres') {
      return together([PG_LOCK[kind][beside].execute(trx, id), targets.execute(trx, id)] as const).then(([p, t]) => {
        const row = p.rows[0];
        if (!row) return null;
        const { beside_json: json, ...post } = row;
        return {
          post: post as PostRow,
          targets: t.rows,
          accounts: beside === 'accounts' ? ((json as AccountRow[] | null) ?? []) : [],
          webhook: beside === 'webhook' ? ((json as WebhookSettingsRow | null) ?? null) : null,
        };
      });
    }
    return together([sqlitePost[kind].execute(trx, id), targets.execute(trx, id), sqliteBeside[kind][beside].execute(trx, id)] as const).then(([p, t, b]) => {
      const post = p.rows[0];
      if (!post) return null;
      return {
        post,
        targets: t.rows,
        accounts: beside === 'accounts' ? (b.rows as AccountRow[]) : [],
        webhook: beside === 'webhook' ? ((b.rows[0] as WebhookSettingsRow | undefined) ?? null) : null,
      };
    });
  }

  /**
   * Sends target updates and the post's status that follows from them (`targets`: the post's targets as
   * they are once updated), without waiting. On PostgreSQL in one statement: the target updates are
   * data-modifying WITH clauses of the post's update, which run whether or not it reads them. Returns
   * what was sent and the events the post's new status announces.
   */
  function sendWrites(trx: DbTx, post: PostRow, now: number, updates: { id: string; update: TargetUpdate }[], targets: readonly TargetRow[]): { sent: Promise<unknown>[]; events: CatalogEvent[] } {
    const next = nextPostStatus(post, now, targets);
    const columns = updates.map((u) => Object.keys(u.update).filter((k) => u.update[k as keyof TargetUpdate] !== undefined));
    // Each update's values in its columns' order, then the target's id.
    const values = updates.map((u, i) => [...columns[i]!.map((k) => u.update[k as keyof TargetUpdate]), u.id]);
    if (dialect === 'postgres' && next && updates.length > 0) {
      const statement = targetWrites(columns, true);
      return { sent: [statement.execute(trx, ...values.flat(), next.status, now, next.publishedAt, post.id)], events: next.events };
    }
    const sent: Promise<unknown>[] = values.map((v, i) => targetWrites([columns[i]!], false).execute(trx, ...v));
    const status = sendPostStatus(trx, post, now, targets);
    if (status.written) sent.push(status.written);
    return { sent, events: status.events };
  }

  /** The targets as they are once `targetId` got `update`. */
  const withUpdate = (targets: TargetRow[], targetId: string, update: TargetUpdate) =>
    targets.map((t) => (t.id === targetId ? ({ ...t, ...update } as TargetRow) : t));

  type Decision = Exclude<Claim, { kind: 'claimed' }> | { kind: 'claim'; update: TargetUpdate; mode: 'publish' | 'reconcile'; reconcileFrom: number | null; vanishedLeaseEnd: number | null };

  /** What claiming `target` of `post` now means (pure): nothing to do, later, or the update that claims it. */
  function decide(post: PostRow, target: TargetRow, now: number): Decision {
    if (post.is_draft === 1) return { kind: 'gone' };
    if (FINAL_TARGET.has(target.status)) return { kind: 'final' };
    let mode: 'publish' | 'reconcile' = target.needs_reconcile > 0 ? 'reconcile' : 'publish';
    let reconcileFrom: number | null = mode === 'reconcile' ? target.attempt_started_at : null;
    let vanishedLeaseEnd: number | null = null;
    const update: TargetUpdate = { status: 'publishing', attempt_id: newAttemptId(), lease_expires_at: now + leaseMs, holds_limit_slot: 0, updated_at: now };
    if (target.status === 'publishing') {
      if ((target.lease_expires_at ?? 0) > now) return { kind: 'busy', until: target.lease_expires_at! };
      // The attempt that held it vanished mid-call: whatever it sent must be found before anything else.
      mode = 'reconcile';
      reconcileFrom = target.attempt_started_at;
      vanishedLeaseEnd = target.lease_expires_at;
      update.needs_reconcile = Math.max(1, target.needs_reconcile);
    } else {
      if (target.next_attempt_at === null) return { kind: 'gone' };
      if (target.next_attempt_at > now + 50) return { kind: 'not_due', at: target.next_attempt_at };
      update.attempts = target.attempts + 1;
      // A reconcile searches from the attempt whose outcome is unknown: that start time is kept.
      if (mode === 'publish') update.attempt_started_at = now;
    }
    return { kind: 'claim', update, mode, reconcileFrom, vanishedLeaseEnd };
  }

  /**
   * Claims the given targets of a locked post in the caller's transaction; the post's status follows once.
   * The updates are sent together, with the COMMIT behind them (see TxEnd).
   */
  function claimIn(trx: DbTx, found: Locked, accounts: readonly AccountRow[], targetIds: string[], now: number, end: TxEnd): Promise<Map<string, Claim>> {
    const { post } = found;
    let targets = found.targets;
    const out = new Map<string, Claim>();
    const updates: { id: string; update: TargetUpdate }[] = [];
    const accountOf = new Map(accounts.map((a) => [accountKey(a), a]));
    for (const targetId of targetIds) {
      const target = targets.find((t) => t.id === targetId);
      const d: Decision = target ? decide(post, target, now) : { kind: 'gone' };
      if (d.kind !== 'claim') {
        out.set(targetId, d);
        continue;
      }
      updates.push({ id: targetId, update: d.update });
      targets = withUpdate(targets, targetId, d.update);
      const lateness = target!.attempts === 0 && post.scheduled_for !== null ? Math.max(0, now - post.scheduled_for) / 1000 : null;
      const claimed = { ...target!, ...d.update } as TargetRow;
      out.set(targetId, {
        kind: 'claimed',
        attemptId: d.update.attempt_id!,
        mode: d.mode,
        target: claimed,
        post,
        reconcileFrom: d.reconcileFrom,
        vanishedLeaseEnd: d.vanishedLeaseEnd,
        lateness,
        account: accountOf.get(accountKey(target!)) ?? null,
      });
    }
    if (updates.length === 0) return Promise.resolve(out);
    return end.last(together(sendWrites(trx, post, now, updates, targets).sent)).then(() => out);
  }

  return {
    async claim(targetId: string, now: number): Promise<Claim> {
      return writeFrom(
        (trx) => lockPost(trx, { targetId }, 'accounts'),
        async (trx, found, end): Promise<Claim> => {
          if (!found) return { kind: 'gone' };
          return (await claimIn(trx, found, found.accounts, [targetId], now, end)).get(targetId)!;
        },
      );
    },

    /**
     * Claims every open target of a post at once (the publish-post job): one transaction for the post
     * however many targets it has. Returns each open target's claim.
     */
    async claimPost(postId: string, now: number): Promise<Map<string, Claim>> {
      return writeFrom(
        (trx) => lockPost(trx, { postId }, 'accounts'),
        async (trx, found, end) => {
          if (!found) return new Map();
          const open = found.targets.filter((t) => t.status === 'pending' || t.status === 'publishing').map((t) => t.id);
          return claimIn(trx, found, found.accounts, open, now, end);
        },
      );
    },

    /** Saves a checkpoint and extends the lease; throws StaleAttemptError when the attempt lost the target. */
    async checkpoint(targetId: string, attemptId: string, checkpoint: Record<string, unknown> | null, now: number): Promise<void> {
      const r = await writeOne((trx) =>
        trx
          .updateTable('post_targets')
          .set({ lease_expires_at: now + leaseMs, updated_at: now, ...(checkpoint ? { checkpoint: JSON.stringify(checkpoint) } : {}) })
          .where('id', '=', targetId)
          .where('attempt_id', '=', attemptId)
          .where('status', '=', 'publishing')
          .executeTakeFirst(),
      );
      if (Number(r.numUpdatedRows) !== 1) throw new StaleAttemptError();
    },

    /**
     * The heartbeat of every attempt of a process, in one statement: extends the leases of those that
     * still own their targets and returns their attempt ids (a missing one lost its target).
     */
    async renew(held: { attemptId: string; targetId: string }[], now: number): Promise<Set<string>> {
      if (held.length === 0) return new Set();
      // Found by target id (the key); an attempt id is unique, so a row matching both lists is one of the pairs.
      const rows = await writeOne((trx) =>
        trx
          .updateTable('post_targets')
          .set({ lease_expires_at: now + leaseMs, updated_at: now })
          .where('id', 'in', held.map((h) => h.targetId))
          .where('attempt_id', 'in', held.map((h) => h.attemptId))
          .where('status', '=', 'publishing')
          .returning('attempt_id')
          .execute(),
      );
      return new Set(rows.map((r) => r.attempt_id!));
    },

    /** Ends an attempt. Returns false (and writes nothing) when the attempt no longer owns the target. */
    async finish(targetId: string, attemptId: string, result: Finish, now: number): Promise<{ owned: boolean; postId?: string }> {
      // The key's webhook settings are read with the post, for the events the result announces.
      return writeFrom(
        (trx) => lockPost(trx, { targetId }, 'webhook'),
        async (trx, found, end) => {
        // Fenced: only the attempt that owns the target writes its result.
        const target = found?.targets.find((t) => t.id === targetId && t.attempt_id === attemptId && t.status === 'publishing');
        if (!found || !target) return { owned: false };
        const { post } = found;

        const released = { attempt_id: null, lease_expires_at: null, holds_limit_slot: 0, updated_at: now };
        const events: CatalogEvent[] = [];
        const base = { postId: post.id, platform: target.platform, accountId: target.account_id };
        let update: TargetUpdate;
        switch (result.kind) {
          case 'published':
            update = {
              ...released,
              status: 'published',
              platform_post_id: result.platformPostId,
              platform_post_url: result.platformPostUrl,
              original_platform_post_id: result.platformPostId,
              published_at: now,
              error: null,
              error_code: null,
              needs_reconcile: 0,
              next_attempt_at: null,
            };
            events.push(postPublished({ ...base, platformPostId: result.platformPostId, platformPostUrl: result.platformPostUrl }));
            break;
          case 'failed':
            update = { ...released, status: 'failed', error: result.message, error_code: result.code, needs_reconcile: result.needsReconcile ?? 0, next_attempt_at: null };
            events.push(postFailed({ ...base, error: result.message, errorCode: result.code }));
            break;
          case 'retry':
            update = { ...released, status: 'pending', error: result.message, error_code: result.code, needs_reconcile: result.needsReconcile ?? 0, next_attempt_at: result.at };
            break;
          case 'reconcile':
            update = {
              ...released,
              status: 'pending',
              error: result.message,
              error_code: 'outcome_unknown',
              needs_reconcile: result.reconciles,
              next_attempt_at: result.at,
            };
            break;
          case 'defer':
            update = { ...released, status: 'pending', error: result.message, error_code: 'rate_limited', next_attempt_at: result.at, attempts: Math.max(0, target.attempts - 1) };
            break;
        }
        // The target's row and the post's status, sent together.
        const written = sendWrites(trx, post, now, [{ id: targetId, update }], withUpdate(found.targets, targetId, update));
        const sent = written.sent;
        events.push(...written.events);
        const settings = found.webhook;
        const comment = result.kind === 'published' && result.firstComment === true;
        const again = result.kind === 'retry' || result.kind === 'reconcile' || result.kind === 'defer';
        // Nothing else to write (no first comment, no job, no webhook wants the events): COMMIT goes with them.
        if (!comment && !again && !subscribed(settings, events)) {
          await end.last(together(sent));
          return { owned: true, postId: post.id };
        }
        await together(sent);
        if (comment) await scheduleFirstComment(trx, queue, targetId, now);
        if (again) await queue.enqueue(trx, [{ queue: 'publish-target', payload: { targetId }, runAt: result.at }]);
        await outbox.record(trx, post.api_key_id, events, { settings });
        return { owned: true, postId: post.id };
        },
      );
    },

    /** Schedules a look at a target later (not due yet, or busy with a live attempt elsewhere). */
    /** Queues these targets again, in one write (the sweep may find hundreds after an outage). */
    async revisit(targetIds: string[], at: number): Promise<void> {
      if (targetIds.length === 0) return;
      await write((trx) => queue.enqueue(trx, targetIds.map((targetId) => ({ queue: 'publish-target' as const, payload: { targetId }, runAt: at }))));
    },

    async targetStatuses(postId: string): Promise<{ status: string; nextAttemptAt: number | null }[]> {
      const rows = await db.selectFrom('post_targets').select(['status', 'next_attempt_at']).where('post_id', '=', postId).execute();
      return rows.map((r) => ({ status: r.status, nextAttemptAt: r.next_attempt_at }));
    },

    /**
     * Targets whose attempt vanished (lease over) or whose due job went missing; for the recovery sweep.
     * A pending target is late by more than `graceMs` behind the oldest publishing job still waiting in the
     * queue, not behind now: while the workers have a backlog, a target due before it is waiting its
     * turn, not lost, and queuing it again would add a claim to every late target just when the workers
     * are behind.
     */
    async orphans(now: number, graceMs: number, limit: number): Promise<string[]> {
      const stale = await db
        .selectFrom('post_targets')
        .select('id')
        .where('status', '=', sql.lit('publishing'))
        .where('lease_expires_at', '<', now)
        .limit(limit)
        .execute();
      const waiting = await sql<{ post: number | null; target: number | null }>`
        select (select min(run_at) from jobs where queue = ${sql.lit('publish-post')} and state = ${sql.lit('queued')}) as post,
               (select min(run_at) from jobs where queue = ${sql.lit('publish-target')} and state = ${sql.lit('queued')}) as target
      `.execute(db);
      const oldest = Math.min(now, ...[waiting.rows[0]?.post, waiting.rows[0]?.target].filter((at) => at != null).map(Number));
      const overdue = await db
        .selectFrom('post_targets')
        .select('id')
        .where('status', '=', sql.lit('pending'))
        .where('next_attempt_at', '<', oldest - graceMs)
        .limit(limit)
        .execute();
      return [...stale, ...overdue].map((r) => r.id);
    },
  };
}

export type AttemptsStore = ReturnType<typeof createAttemptsStore>;
