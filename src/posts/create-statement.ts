// PostgreSQL: a create written in one statement instead of a transaction. A draft, scheduled or
// publish-now post writes its post row, its targets, its publish job (with the NOTIFY that announces it),
// the uses of the library media it names, and what the idempotency key learns (the post, and for a draft
// or scheduled post the answer itself): in a transaction that is BEGIN, the statements, COMMIT — three
// round trips, six statements for the server to run. One statement with data-modifying WITH clauses is
// atomic by itself (it commits or fails whole, and the notification goes out only if it commits), so the
// same rows cost one round trip and one statement, prepared once per shape.
//
// Every insert is guarded by what the transaction would have checked first:
// - the idempotency key must still be held by this request (the claim id fence of attachResource and
//   attachAnswer in idempotency-store.ts): when another request has taken it over, nothing is written;
// - the key's webhooks must not want an event of this create: events are written by the outbox
//   (webhooks/outbox.ts), with a delivery and a job each, so such a create is left to the transaction
//   (the caller runs it), and this statement writes nothing.
// - every library media file it names must still be in the library: a DELETE /v1/media/{id} that committed
//   after the checks read the file leaves nothing written ('media_gone'). The media DELETE holds writes to
//   media_uses back before it looks for uses (media-dal.ts lockUses): it waits for this statement (which
//   holds ROW EXCLUSIVE on media_uses) or makes it wait, and PostgreSQL takes a statement's snapshot after
//   its locks, so either the DELETE sees these uses (409) or this statement sees the file gone.
// A create that takes a queue slot is always left to the transaction (the slot is read first).
import { sql, type RawBuilder } from 'kysely';
import type { NewPost, NewTarget } from '../db/schema.ts';
import { prepareByShape } from '../db/prepared.ts';
import type { Writer } from '../db/writer.ts';
import type { ClaimRef } from '../idempotency/idempotency-store.ts';
import { JOBS_CHANNEL } from '../jobs/pg-signals.ts';
import type { EnqueueJob, JobQueue } from '../jobs/queue.ts';
import { jobsFrom } from '../jobs/table-queue.ts';
import { POST_COLUMNS, TARGET_COLUMNS, valuesOf } from './posts-dal.ts';

export interface CreateWrite {
  apiKeyId: string;
  post: NewPost;
  targets: readonly NewTarget[];
  jobs: EnqueueJob[];
  /** The library media the post names (its uses: what keeps them from being deleted while it is open). */
  mediaIds: readonly string[];
  /** The names of the events this create announces (the outbox's catalog events). */
  events: readonly string[];
  /** The idempotency key this request holds, if any, and its answer when known before commit (201). */
  claim?: ClaimRef;
  answerJson: string | null;
}

/**
 * 'created': every row is written. 'claim_lost': another request holds the key now; nothing was written.
 * 'webhooks': the key's webhooks want an event of this create; nothing was written (use the transaction).
 * 'media_gone': a library file it names was deleted since the checks read it; nothing was written.
 */
export type CreateOutcome = 'created' | 'claim_lost' | 'webhooks' | 'media_gone';

// A statement's shape: target count, which idempotency write, whether jobs (and a NOTIFY) go with it,
// whether it announces events, and whether it records media uses.
const CLAIM_NONE = 0;
const CLAIM_RESOURCE = 1;
const CLAIM_ANSWER = 2;
const JOBS_NONE = 0;
const JOBS = 1;
const JOBS_NOTIFY = 2;

interface Shape {
  targets: number;
  claim: number;
  jobs: number;
  events: boolean;
  uses: boolean;
}

const encode = (s: Shape) => (((s.targets * 3 + s.claim) * 3 + s.jobs) * 2 + (s.events ? 1 : 0)) * 2 + (s.uses ? 1 : 0);
const decode = (n: number): Shape => {
  const m = Math.floor(n / 2);
  return { uses: n % 2 === 1, events: m % 2 === 1, jobs: Math.floor(m / 2) % 3, claim: Math.floor(m / 6) % 3, targets: Math.floor(m / 18) };
};

const arity = (s: Shape) =>
  (s.events ? 2 : 0) +
  (s.claim === CLAIM_ANSWER ? 6 : s.claim === CLAIM_RESOURCE ? 4 : 0) +
  POST_COLUMNS.length +
  s.targets * TARGET_COLUMNS.length +
  (s.jobs === JOBS_NONE ? 0 : 5) +
  (s.jobs === JOBS_NOTIFY ? 1 : 0) +
  (s.uses ? 2 : 0);

const columns = (keys: readonly string[]) => sql.join(keys.map((k) => sql.ref(k)));

const createStatement = prepareByShape<{ webhooks: boolean; created: boolean; media: boolean }>(
  (shape) => arity(decode(shape)),
  (db, shape, slots) => {
    const s = decode(shape);
    let i = 0;
    const next = () => slots[i++];
    const take = (n: number) => Array.from({ length: n }, next);
    const ctes: RawBuilder<unknown>[] = [];
    // `free`: what every write (the claim's too) waits on besides the claim: the key's webhooks want none
    // of the events (jsonb ?| : any of the names), and every library file named is still there.
    let free: RawBuilder<unknown> = sql`true`;
    if (s.events) {
      const [apiKeyId, names] = take(2);
      ctes.push(sql`wanted as (select 1 from webhook_settings where api_key_id = ${apiKeyId} and disabled_at is null and events::jsonb ?| ${names}::text[])`);
      free = sql`not exists (select 1 from wanted)`;
    }
    let media: RawBuilder<unknown> = sql`true`;
    let mediaIds: unknown;
    if (s.uses) {
      // The ids are distinct: all of them still in the library, or nothing is written.
      mediaIds = next();
      ctes.push(sql`present as (select count(*) = cardinality(${mediaIds}::text[]) as ok from media where id = any(${mediaIds}::text[]))`);
      media = sql`(select ok from present)`;
      free = sql`${free} and ${media}`;
    }
    let go = free;
    if (s.claim !== CLAIM_NONE) {
      // As attachAnswer and attachResource: fenced on the claim id.
      const set =
        s.claim === CLAIM_ANSWER
          ? (() => {
              const [resourceId, status, body] = take(3);
              return sql`resource_id = ${resourceId}, state = 'done', response_status = ${status}, response_body = ${body}`;
            })()
          : sql`resource_id = ${next()}`;
      const [apiKeyId, key, claimId] = take(3);
      ctes.push(sql`claimed as (update idempotency_keys set ${set} where api_key_id = ${apiKeyId} and key = ${key} and claim_id = ${claimId} and ${free} returning 1)`);
      go = sql`exists (select 1 from claimed)`;
    }
    ctes.push(sql`post as (insert into posts (${columns(POST_COLUMNS)}) select ${sql.join(take(POST_COLUMNS.length))} where ${go})`);
    for (let t = 0; t < s.targets; t++) {
      ctes.push(sql`target_${sql.raw(String(t))} as (insert into post_targets (${columns(TARGET_COLUMNS)}) select ${sql.join(take(TARGET_COLUMNS.length))} where ${go})`);
    }
    if (s.uses) {
      // As setUses: one row per (media, post). A new post has no uses, and the ids are distinct, so no row
      // can conflict: a plain insert, without ON CONFLICT's speculative insertion (a check of the key, then
      // a confirmation, for every row).
      const postId = next();
      ctes.push(sql`uses as (insert into media_uses (media_id, post_id) select m, ${postId} from unnest(${mediaIds}::text[]) as m where ${go})`);
    }
    let notify: RawBuilder<unknown> = sql``;
    if (s.jobs !== JOBS_NONE) {
      const [ids, queues, payloads, runAts, now] = take(5);
      ctes.push(sql`job as (${jobsFrom(ids, queues, payloads, runAts, now)} where ${go})`);
      // Sent by PostgreSQL when (if) the statement commits, as enqueue's.
      if (s.jobs === JOBS_NOTIFY) notify = sql`, case when ${go} then pg_notify(${JOBS_CHANNEL}, ${next()}) end as notified`;
    }
    const webhooks = s.events ? sql`exists (select 1 from wanted)` : sql`false`;
    const q = sql<{ webhooks: boolean; created: boolean; media: boolean }>`with ${sql.join(ctes)} select ${webhooks} as webhooks, ${go} as created, ${media} as media${notify}`;
    return { compile: () => q.compile(db) };
  },
);

/** The one-statement create, or null where jobs are not rows of a PostgreSQL table (SQLite). */
export function createInOneStatement(deps: { writeOne: Writer['writeOne']; queue: Pick<JobQueue, 'rowsOf'> }): ((w: CreateWrite) => Promise<CreateOutcome>) | null {
  const rowsOf = deps.queue.rowsOf;
  if (!rowsOf) return null;
  return async (w) => {
    const shape: Shape = {
      targets: w.targets.length,
      claim: !w.claim ? CLAIM_NONE : w.answerJson !== null ? CLAIM_ANSWER : CLAIM_RESOURCE,
      jobs: JOBS_NONE,
      events: w.events.length > 0,
      uses: w.mediaIds.length > 0,
    };
    // In the order the statement takes them (above).
    const args: unknown[] = [];
    if (shape.events) args.push(w.apiKeyId, [...new Set(w.events)]);
    if (shape.uses) args.push([...new Set(w.mediaIds)]);
    if (w.claim) {
      const postId = w.post.id as string;
      if (w.answerJson !== null) args.push(postId, 201, w.answerJson);
      else args.push(postId);
      args.push(w.claim.apiKeyId, w.claim.key, w.claim.claimId);
    }
    args.push(...valuesOf(POST_COLUMNS, w.post));
    for (const t of w.targets) args.push(...valuesOf(TARGET_COLUMNS, t));
    if (shape.uses) args.push(w.post.id);
    if (w.jobs.length > 0) {
      const rows = rowsOf(w.jobs);
      args.push(...rows.columns);
      shape.jobs = JOBS;
      if (rows.notify !== null) {
        args.push(rows.notify);
        shape.jobs = JOBS_NOTIFY;
      }
    }
    const { rows } = await deps.writeOne((trx) => createStatement.execute(trx, encode(shape), args));
    const r = rows[0]!;
    if (r.webhooks) return 'webhooks';
    if (r.created) return 'created';
    return r.media ? 'claim_lost' : 'media_gone';
  };
}
