// Idempotency-Key (API.md section 5). The first request with a key claims it with a lease; its completed
// response is stored for 24 h and replayed. The claim is one conditional insert, so concurrent duplicates
// (even in other processes) cannot both proceed. A claimer that crashed loses its lease: the next request
// takes over, and if the first one had already created its post, that post is answered instead of a new one.
//
// Every claim carries a fresh claim id and every later write is fenced on it: a claimer that was only slow
// (its lease ran out while another request took over) can neither bind a second post to the key nor store
// or drop the answer of the request that now holds it.
//
// The lease is short (the publish lease, 10 s by default) and renewed by one heartbeat for every claim
// this process holds, so a request of a process that died stops blocking its key within a lease: the
// client's retry then gets the resource that request created, instead of 409 for the longest request time.
import type { DbTx } from '../db/schema.ts';
import type { Insertable } from 'kysely';
import { executeText, prepare, prepareRow } from '../db/prepared.ts';
import type { IdempotencyKeysTable } from '../db/schema.ts';
import { together, type Writer } from '../db/writer.ts';
import type { Clock } from '../lib/clock.ts';
import { createHeartbeat } from '../lib/heartbeat.ts';
import { newAttemptId } from '../lib/ids.ts';
import { errors } from '../contract/errors.ts';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60_000;

/** Which request holds a key: the fence for every write after the claim. */
export interface ClaimRef {
  apiKeyId: string;
  key: string;
  claimId: string;
  /** Set once the answer was stored with the resource (attachAnswer): the HTTP layer stores nothing more. */
  answered?: boolean;
}

export type Claim =
  | { kind: 'claimed'; claimId: string }
  /** The earlier claimer vanished after creating this resource: answer with it. */
  | { kind: 'recovered'; claimId: string; resourceId: string }
  | { kind: 'replay'; status: number; body: string }
  | { kind: 'in_flight' }
  | { kind: 'mismatch' };

/** A claim written inside another statement (IdempotencyStore.claimInside). */
export interface ClaimInside {
  /** The insert, reading the CTEs `found` (the key's row) and `limited`, run only when `allowed`; returns the claim id as `also_value`. */
  text(param: (value: unknown) => string, allowed: string): string;
  /**
   * Sends the statement (`statement` runs it through `run`) and `alongside`'s reads on one connection, in
   * one write; `run` is undefined without reads alongside (the statement then runs where it likes).
   */
  send<T>(statement: (run: RunText | undefined) => Promise<T>, alongside?: (trx: DbTx) => Promise<void>): Promise<T>;
  /** The claim, given the key's id and what the insert returned (null when it wrote nothing). */
  settle(apiKeyId: string, inserted: unknown): Promise<Claim>;
}

/** Runs a statement of SQL text on a connection of the caller's choosing. */
export type RunText = (query: { text: string; values: unknown[] }) => Promise<{ rows: unknown[] }>;

export interface IdempotencyStore {
  /**
   * Claims `key` for a request. `ttlMs` (default 24 h) is how long its answer is replayed, from this
   * claim on; a claim is never given up while its lease runs, whatever the ttl.
   * `alongside`: reads the request will need whatever the claim's outcome, sent with the claim's insert
   * in one round trip where the database allows it (PostgreSQL: writeEach); elsewhere not run at all (the
   * caller reads as usual).
   */
  claim(apiKeyId: string, key: string, requestHash: string, ttlMs?: number, alongside?: (trx: DbTx) => Promise<void>): Promise<Claim>;
  /**
   * PostgreSQL: claim() of a request whose API key is not checked yet, as an insert to run inside the
   * statement that checks the key and counts its rate limit (see http/auth.ts and RateLimiter's Also), so
   * both take one round trip: the claim is written only when the key is valid and within its limit, as
   * the key's own row (`found.id`). Once the key passed, `settle` gives the claim that insert made, or,
   * when the key was already there, the read-and-decide of claim(). Absent on SQLite.
   */
  claimInside?(key: string, requestHash: string, ttlMs?: number): ClaimInside;
  /**
   * Records, inside the creating transaction, what the request created. Throws (409 IDEMPOTENCY_KEY_IN_USE)
   * when another request has taken the key over, so the creating transaction rolls back.
   */
  attachResource(trx: DbTx, claim: ClaimRef, resourceId: string): Promise<void>;
  /**
   * As attachResource, and stores the answer in the same transaction, for requests whose answer is
   * known before they commit (nothing left to wait for): the key is done when the resource exists.
   */
  attachAnswer(trx: DbTx, claim: ClaimRef, resourceId: string, status: number, body: string): Promise<void>;
  complete(claim: ClaimRef, status: number, body: string): Promise<void>;
  /** The request holding `claim` is over (its answer was stored with the resource): stop renewing it. */
  forget(claim: ClaimRef): void;
  /**
   * Gives the key up (the response is not one to replay: 5xx). A key that already names what it created
   * stays, unlocked, so the next request with it is answered with that resource.
   */
  release(claim: ClaimRef): Promise<void>;
  /** Deletes expired records; returns how many. */
  purgeExpired(): Promise<number>;
}

// Run with every idempotent request: built and compiled once (see db/prepared.ts).
const insertClaimQuery = prepareRow<Insertable<IdempotencyKeysTable>>(
  [
    'api_key_id',
    'key',
    'request_hash',
    'state',
    'response_status',
    'response_body',
    'resource_id',
    'claim_id',
    'locked_until',
    'created_at',
    'expires_at',
  ],
  (db, row) => db.insertInto('idempotency_keys').values(row).onConflict((oc) => oc.columns(['api_key_id', 'key']).doNothing()),
);
const attachQuery = prepare<[string, string, string, string]>(4, (db, resourceId, apiKeyId, key, claimId) =>
  db
    .updateTable('idempotency_keys')
    .set({ resource_id: resourceId })
    .where('api_key_id', '=', apiKeyId)
    .where('key', '=', key)
    .where('claim_id', '=', claimId),
);
const attachAnswerQuery = prepare<[string, number, string, string, string, string]>(6, (db, resourceId, status, body, apiKeyId, key, claimId) =>
  db
    .updateTable('idempotency_keys')
    .set({ resource_id: resourceId, state: 'done', response_status: status, response_body: body })
    .where('api_key_id', '=', apiKeyId)
    .where('key', '=', key)
    .where('claim_id', '=', claimId),
);
const completeQuery = prepare<[number, string, string, string, string]>(5, (db, status, body, apiKeyId, key, claimId) =>
  db
    .updateTable('idempotency_keys')
    .set({ state: 'done', response_status: status, response_body: body })
    .where('api_key_id', '=', apiKeyId)
    .where('key', '=', key)
    .where('claim_id', '=', claimId),
);

export interface IdempotencyStoreDeps {
  write: Writer['write'];
  /** For the single-statement writes (the claim of a fresh key, renewals, storing the answer); default write. */
  writeOne?: Writer['writeOne'];
  /** PostgreSQL: the claim's insert and the reads sent alongside it, on one connection (see claim). */
  writeEach?: Writer['writeEach'];
  clock: Clock;
  /** How long a claim stays locked after its process stops renewing it. */
  leaseMs: number;
  /** A claim held longer than this is no longer renewed (a request cannot run that long). */
  maxHoldMs: number;
  onRenewError?: (err: unknown) => void;
}

export function createIdempotencyStore(deps: IdempotencyStoreDeps): IdempotencyStore {
  const { write, clock, leaseMs } = deps;
  const writeOne = deps.writeOne ?? write;
  const heldSince = new Map<string, number>();
  const heartbeat = createHeartbeat({
    everyMs: Math.floor(leaseMs / 3),
    renew: async (held) => {
      const now = clock.now();
      const live = held.filter((h) => now - (heldSince.get(h.id) ?? now) <= deps.maxHoldMs);
      if (live.length === 0) return new Set();
      const refs = live.map((h) => h.ref.split('\n') as [string, string]);
      const rows = await writeOne((trx) =>
        trx
          .updateTable('idempotency_keys')
          .set({ locked_until: now + leaseMs })
          .where('api_key_id', 'in', [...new Set(refs.map((r) => r[0]))])
          .where('key', 'in', refs.map((r) => r[1]))
          .where('claim_id', 'in', live.map((h) => h.id))
          .where('state', '=', 'in_flight')
          .returning('claim_id')
          .execute(),
      );
      return new Set(rows.map((r) => r.claim_id));
    },
    onError: (err) => deps.onRenewError?.(err),
    lost: () => new Error('the idempotency claim was taken over'),
  });
  const hold = (apiKeyId: string, key: string, claimId: string) => {
    heldSince.set(claimId, clock.now());
    // Nobody listens for a lost claim: every write after it is fenced on the claim id anyway.
    heartbeat.add(claimId, `${apiKeyId}\n${key}`).addEventListener('abort', () => heldSince.delete(claimId), { once: true });
  };
  const letGo = (claimId: string) => {
    heldSince.delete(claimId);
    heartbeat.remove(claimId);
  };
  const byKey = (trx: DbTx, apiKeyId: string, key: string) =>
    trx.selectFrom('idempotency_keys').selectAll().where('api_key_id', '=', apiKeyId).where('key', '=', key);

  /** Inserts a fresh claim; returns its id, or null when the key is already there. */
  async function insertClaim(trx: DbTx, apiKeyId: string, key: string, requestHash: string, now: number, ttlMs: number): Promise<string | null> {
    const claimId = newAttemptId();
    const result = await insertClaimQuery.execute(trx, {
      api_key_id: apiKeyId,
      key,
      request_hash: requestHash,
      state: 'in_flight',
      response_status: null,
      response_body: null,
      resource_id: null,
      claim_id: claimId,
      locked_until: now + leaseMs,
      created_at: now,
      expires_at: now + Math.max(ttlMs, leaseMs),
    });
    return Number(result.numAffectedRows ?? 0n) === 1 ? claimId : null;
  }

  const fresh = (claimId: string | null): Claim => (claimId ? { kind: 'claimed', claimId } : { kind: 'in_flight' });

  /** The whole claim in one transaction: insert, or read what is there and decide. */
  const claimIn = (apiKeyId: string, key: string, requestHash: string, ttlMs = IDEMPOTENCY_TTL_MS) =>
    write(async (trx): Promise<Claim> => {
      const now = clock.now();
      const inserted = await insertClaim(trx, apiKeyId, key, requestHash, now, ttlMs);
      if (inserted) return { kind: 'claimed', claimId: inserted };
      const row = await byKey(trx, apiKeyId, key).executeTakeFirst();
      if (!row) return fresh(await insertClaim(trx, apiKeyId, key, requestHash, now, ttlMs));
      if (row.expires_at <= now) {
        await trx.deleteFrom('idempotency_keys').where('api_key_id', '=', apiKeyId).where('key', '=', key).execute();
        return fresh(await insertClaim(trx, apiKeyId, key, requestHash, now, ttlMs));
      }
      if (row.request_hash !== requestHash) return { kind: 'mismatch' };
      if (row.state === 'done') return { kind: 'replay', status: row.response_status ?? 200, body: row.response_body ?? '' };
      if (row.locked_until > now) return { kind: 'in_flight' };
      // The claimer's lease ran out: take over, unless another request just did.
      const claimId = newAttemptId();
      const took = await trx
        .updateTable('idempotency_keys')
        .set({ claim_id: claimId, locked_until: now + leaseMs })
        .where('api_key_id', '=', apiKeyId)
        .where('key', '=', key)
        .where('state', '=', 'in_flight')
        .where('claim_id', '=', row.claim_id)
        .executeTakeFirst();
      if (Number(took.numUpdatedRows) !== 1) return { kind: 'in_flight' };
      return row.resource_id ? { kind: 'recovered', claimId, resourceId: row.resource_id } : { kind: 'claimed', claimId };
    });

  /** The claim of a fresh insert (its claim id), or of the read-and-decide when the key was there; held while it runs. */
  async function settle(apiKeyId: string, key: string, requestHash: string, ttlMs: number, inserted: string | null): Promise<Claim> {
    const c: Claim = inserted ? { kind: 'claimed', claimId: inserted } : await claimIn(apiKeyId, key, requestHash, ttlMs);
    if (c.kind === 'claimed' || c.kind === 'recovered') hold(apiKeyId, key, c.claimId);
    return c;
  }

  return {
    async claim(apiKeyId, key, requestHash, ttlMs = IDEMPOTENCY_TTL_MS, alongside) {
      // Usually the key is new: one insert, a transaction of its own. Only a key already there needs
      // the read-and-decide of claimIn.
      const insert = (trx: DbTx) => insertClaim(trx, apiKeyId, key, requestHash, clock.now(), ttlMs);
      const inserted =
        alongside && deps.writeEach
          ? (await deps.writeEach((trx) => together([insert(trx), alongside(trx)])))[0]
          : await writeOne(insert);
      return settle(apiKeyId, key, requestHash, ttlMs, inserted || null);
    },

    claimInside: deps.writeEach
      ? (key, requestHash, ttlMs = IDEMPOTENCY_TTL_MS) => {
          const claimId = newAttemptId();
          const now = clock.now();
          return {
            // insertClaim's row, with the key's id from the statement it runs in.
            text: (param, allowed) =>
              `insert into idempotency_keys (api_key_id, key, request_hash, state, claim_id, locked_until, created_at, expires_at)
                select found.id, ${param(key)}::text, ${param(requestHash)}::text, 'in_flight', ${param(claimId)}::text,
                  ${param(now + leaseMs)}::bigint, ${param(now)}::bigint, ${param(now + Math.max(ttlMs, leaseMs))}::bigint
                from found join limited on ${allowed}
                on conflict (api_key_id, key) do nothing
                returning claim_id as also_value`,
            async send<T>(statement: (run: RunText | undefined) => Promise<T>, alongside?: (trx: DbTx) => Promise<void>): Promise<T> {
              if (!alongside) return statement(undefined);
              return deps.writeEach!(async (trx): Promise<T> => {
                const run: RunText = (q) => executeText(trx, q.text, q.values);
                const [out] = await together([statement(run), alongside(trx)] as const);
                return out as T;
              });
            },
            settle: (apiKeyId, inserted) => settle(apiKeyId, key, requestHash, ttlMs, inserted === claimId ? claimId : null),
          };
        }
      : undefined,

    forget(claim) {
      letGo(claim.claimId);
    },

    async attachResource(trx, claim, resourceId) {
      const r = await attachQuery.execute(trx, resourceId, claim.apiKeyId, claim.key, claim.claimId);
      if (Number(r.numAffectedRows ?? 0n) !== 1) throw errors.idempotencyInUse();
    },

    async attachAnswer(trx, claim, resourceId, status, body) {
      const r = await attachAnswerQuery.execute(trx, resourceId, status, body, claim.apiKeyId, claim.key, claim.claimId);
      if (Number(r.numAffectedRows ?? 0n) !== 1) throw errors.idempotencyInUse();
    },

    async complete(claim, status, body) {
      letGo(claim.claimId);
      await writeOne((trx) => completeQuery.execute(trx, status, body, claim.apiKeyId, claim.key, claim.claimId));
    },

    async release(claim) {
      letGo(claim.claimId);
      await write(async (trx) => {
        const gone = await trx
          .deleteFrom('idempotency_keys')
          .where('api_key_id', '=', claim.apiKeyId)
          .where('key', '=', claim.key)
          .where('claim_id', '=', claim.claimId)
          .where('state', '=', 'in_flight')
          .where('resource_id', 'is', null)
          .executeTakeFirst();
        if (Number(gone.numDeletedRows) === 1) return;
        await trx
          .updateTable('idempotency_keys')
          .set({ locked_until: clock.now() })
          .where('api_key_id', '=', claim.apiKeyId)
          .where('key', '=', claim.key)
          .where('claim_id', '=', claim.claimId)
          .where('state', '=', 'in_flight')
          .execute();
      });
    },

    async purgeExpired() {
      const r = await write((trx) => trx.deleteFrom('idempotency_keys').where('expires_at', '<=', clock.now()).executeTakeFirst());
      return Number(r.numDeletedRows);
    },
  };
}
