// The publishing engine: runs one attempt of a target from claim to write-back. Called by the
// publish-post job (a scheduled post at its time, the fallback of publishNow), the publish-target job
// (retries, back-offs, recovery) and directly by the API for publishNow, where the targets of a post run
// in parallel and the request waits for them.
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { CredentialsService, Credentials } from '../accounts/credentials.ts';
import type { AccountRow, Database, PostRow, TargetRow } from '../db/schema.ts';
import { settleWithin, type Clock } from '../lib/clock.ts';
import { createHeartbeat } from '../lib/heartbeat.ts';
import { fromJson } from '../lib/json.ts';
import type { Metrics } from '../observability/metrics.ts';
import type { PostSettings } from '../posts/post-settings.ts';
import { targetContent } from '../posts/target-content.ts';
import { StaleAttemptError, failure, type MediaItem, type PlatformAdapter, type PlatformFailure, type PublishRequest } from '../platforms/types.ts';
import type { Platform } from '../platforms/registry.ts';
import type { AttemptsStore, Finish } from './attempts.ts';
import type { Limits } from './limits.ts';
import type { MediaPreparer } from './prepare-media.ts';
import { firstCommentOf } from './comments.ts';
import { UNKNOWN_OUTCOME_MESSAGE, decide, isPermanent, type RetryPolicy } from './policy.ts';

export interface EngineDeps {
  db: Kysely<Database>;
  clock: Clock;
  log: Logger;
  attempts: AttemptsStore;
  limits: Limits;
  adapters: Record<Platform, PlatformAdapter>;
  credentials: CredentialsService;
  metrics: Metrics;
  policy: RetryPolicy;
  leaseMs: number;
  /** The time-out of one platform call (HERALD_PLATFORM_TIMEOUT_MS). */
  callTimeoutMs: number;
  /** How often a waiting publishNow request re-reads target statuses written by other processes. */
  settlePollMs?: number;
  /** Library media: the file (or fitted rendition) and URL each library item really sends, with its alt text. */
  media?: MediaPreparer;
}

type Claim = Awaited<ReturnType<AttemptsStore['claim']>>;
type Claimed = Extract<Claim, { kind: 'claimed' }>;

interface Progress {
  /** A platform call began: after a crash from here on, the outcome is unknown. */
  platformCalled: boolean;
  /** In reconcile mode: the platform said whether the earlier attempt published. */
  reconcileAnswered: boolean;
}

function publishContent(post: PostRow, target: TargetRow) {
  return targetContent({
    platform: target.platform as Platform,
    content: post.content,
    media: fromJson<MediaItem[]>(post.media_items, []),
    postSettings: fromJson<PostSettings | null>(post.post_settings, null) ?? {},
    customContent: target.custom_content,
    customMedia: fromJson<MediaItem[] | null>(target.custom_media, null),
    platformSpecificData: fromJson<Record<string, unknown> | null>(target.platform_specific_data, null),
  });
}

export function createPublishingEngine(deps: EngineDeps) {
  const { clock, log, attempts, limits, adapters, credentials, metrics, policy, leaseMs } = deps;
  const settlePollMs = deps.settlePollMs ?? 250;
  const waiters = new Map<string, Set<() => void>>();
  const running = new Set<Promise<void>>();
  // Every attempt of this process renews its lease in one statement, three times a lease.
  const heartbeat = createHeartbeat({
    everyMs: Math.floor(leaseMs / 3),
    renew: async (held) => attempts.renew(held.map((h) => ({ attemptId: h.id, targetId: h.ref })), clock.now()),
    onError: (err) => log.warn({ err }, 'could not renew publish leases; trying again'),
    lost: () => new StaleAttemptError(),
  });

  function notify(postId: string) {
    for (const wake of waiters.get(postId) ?? []) wake();
  }

  /** Decides what a failure means for the target (retry, reconcile later, or final). */
  function onFailure(f: PlatformFailure, target: TargetRow, reconciles: number): Finish {
    const now = clock.now();
    const d = decide(policy, f, target.attempts, reconciles, now);
    if (d.kind === 'reconcile') return { kind: 'reconcile', at: d.at, reconciles: reconciles + 1, message: `outcome unknown, checking with the platform: ${f.message}` };
    if (d.kind === 'retry') {
      // A gateway error (502, 504) may come after the platform behind it acted: the retry asks first.
      const ambiguous = f.httpStatus === 502 || f.httpStatus === 504;
      return { kind: 'retry', at: d.at, code: f.category, message: `will retry: ${f.message}`, ...(ambiguous ? { needsReconcile: 1 } : {}) };
    }
    if (f.category === 'outcome_unknown') return { kind: 'failed', code: 'outcome_unknown', message: UNKNOWN_OUTCOME_MESSAGE };
    return { kind: 'failed', code: f.category, message: f.message };
  }

  async function runAttempt(c: Claimed, progress: Progress, signal: AbortSignal): Promise<Finish> {
    const { target, post } = c;
    const platform = target.platform as Platform;
    const adapter = adapters[platform];
    // Read by the claim, in the transaction that took the target.
    let row: AccountRow | undefined = c.account ?? undefined;
    if (!row) {
      return { kind: 'failed', code: 'account_disconnected', message: `the ${platform} account ${target.account_id} was disconnected; connect it again, then retry` };
    }
    let cred: Credentials = await credentials.forAccount(row);
    if (!cred.ok) {
      if (cred.unreadable) return { kind: 'failed', code: 'internal', message: cred.failure.message };
      return cred.disconnected ? { kind: 'failed', code: 'auth_expired', message: cred.failure.message } : onFailure(cred.failure, target, 0);
    }

    let prepared = publishContent(post, target);
    if (deps.media) {
      const p = await deps.media.prepare(target.api_key_id, platform, prepared);
      if (!p.ok) return p.category === 'media_rejected' ? { kind: 'failed', code: 'media_rejected', message: p.message } : onFailure(failure(p.category, p.message), target, 0);
      prepared = p.content;
    }
    const { content, media, settings } = prepared;
    // Posted once the target is published, by the comment runner (comments.ts), never by publish.
    const firstComment = Boolean(adapter.comment && firstCommentOf(settings));
    const request: PublishRequest = {
      account: cred.creds,
      content,
      media,
      settings,
      checkpoint: fromJson<Record<string, unknown> | null>(target.checkpoint, null),
      saveCheckpoint: async (checkpoint) => {
        await attempts.checkpoint(target.id, c.attemptId, checkpoint, clock.now());
        request.checkpoint = checkpoint;
      },
      attemptStartedAt: c.reconcileFrom ?? target.attempt_started_at ?? clock.now(),
      signal,
    };

    /** Calls the platform; after an auth failure refreshes the token once and calls again. */
    async function withRefresh<T extends { ok: boolean }>(call: () => Promise<T | PlatformFailure>): Promise<T | PlatformFailure> {
      const first = await call();
      if (first.ok || (first as PlatformFailure).category !== 'auth_expired') return first;
      const refreshed = await credentials.refreshAfterAuthFailure(row!);
      if (!refreshed.ok) {
        return refreshed.disconnected || refreshed.unreadable ? (first as PlatformFailure) : refreshed.failure;
      }
      row = refreshed.row;
      cred = refreshed;
      request.account = refreshed.creds;
      const second = await call();
      // Still refused right after a fresh token: treat as passing trouble, within the retry budget.
      if (!second.ok && (second as PlatformFailure).category === 'auth_expired') {
        return failure('platform_unavailable', `${(second as PlatformFailure).message} (even after refreshing the token)`);
      }
      return second;
    }

    if (c.mode === 'reconcile') {
      // Until the platform answers, the target keeps needing reconciliation: a transient failure here
      // must never turn into a plain retry that would send again.
      const askings = Math.max(1, target.needs_reconcile);
      progress.platformCalled = true;
      const r = await withRefresh(() => adapter.reconcile(request));
      if (!r.ok) {
        const f = r as PlatformFailure;
        return onFailure(isPermanent(f.category) ? f : failure('outcome_unknown', f.message), target, askings);
      }
      if (r.found === true) return { kind: 'published', platformPostId: r.platformPostId, platformPostUrl: r.platformPostUrl, firstComment };
      if (r.found === 'unknown') return onFailure(failure('outcome_unknown', r.message), target, askings);
      // A process that vanished may have had a call in flight that the platform has not finished yet:
      // "not there" is trusted once that call can no longer be answered (its time-out after the last
      // moment the process renewed its lease), and asked again then, without using up an asking.
      const inFlightUntil = c.vanishedLeaseEnd === null ? null : c.vanishedLeaseEnd - leaseMs + Math.ceil(leaseMs / 3) + deps.callTimeoutMs;
      if (inFlightUntil !== null && clock.now() < inFlightUntil) {
        return { kind: 'reconcile', at: inFlightUntil, reconciles: askings, message: 'outcome unknown: the attempt that stopped may still be answered by the platform; checking again once it cannot' };
      }
      // The platform positively shows no post from the earlier attempt: publishing is safe.
      progress.reconcileAnswered = true;
    }
    const slot = { targetId: target.id, attemptId: c.attemptId, platform, accountId: target.account_id };
    const freesAt = await limits.takeSlot(slot, adapter.info.publishLimits, clock.now());
    if (freesAt !== null) {
      return { kind: 'defer', at: freesAt, message: `waiting for ${adapter.info.displayName}'s publishing limit for this account (until ${new Date(freesAt).toISOString()})` };
    }
    progress.platformCalled = true;
    const outcome = await withRefresh(() => adapter.publish(request));
    if (outcome.ok) return { kind: 'published', platformPostId: outcome.platformPostId, platformPostUrl: outcome.platformPostUrl, firstComment };
    return onFailure(outcome, target, 0);
  }

  async function processTarget(targetId: string): Promise<void> {
    return runClaim(targetId, await attempts.claim(targetId, clock.now()));
  }

  /** Runs what a claim decided: nothing, a look later, or the attempt it claimed. */
  async function runClaim(targetId: string, claim: Claim): Promise<void> {
    if (claim.kind === 'gone' || claim.kind === 'final') return;
    if (claim.kind === 'not_due') return attempts.revisit([targetId], claim.at);
    if (claim.kind === 'busy') return attempts.revisit([targetId], claim.until + 1000);

    const { target } = claim;
    const ctx = { postId: target.post_id, targetId, platform: target.platform, attemptId: claim.attemptId, mode: claim.mode };
    if (claim.lateness !== null) metrics.schedulingLateness.observe(claim.lateness);
    let result: Finish;
    const progress: Progress = { platformCalled: false, reconcileAnswered: false };
    // Renewed from the claim until the result is written; a lost lease aborts the attempt.
    const signal = heartbeat.add(claim.attemptId, targetId);
    try {
      result = await runAttempt(claim, progress, signal);
    } catch (err) {
      if (err instanceof StaleAttemptError || signal.aborted) {
        heartbeat.remove(claim.attemptId);
        log.warn(ctx, 'attempt superseded by a newer one; its result is dropped');
        return;
      }
      log.error({ ...ctx, err }, 'publish attempt failed unexpectedly');
      if (progress.platformCalled) {
        // A bug after the platform call began: it may have gone out, so the outcome is unknown.
        result = onFailure(failure('outcome_unknown', 'internal error during publishing'), claim.target, claim.target.needs_reconcile);
      } else {
        // Nothing was sent: an ordinary retry is safe, and the target says it was Herald's fault.
        const d = onFailure(failure('platform_unavailable', 'internal error before contacting the platform'), claim.target, 0);
        result = d.kind === 'retry' ? { ...d, code: 'internal' } : { kind: 'failed', code: 'internal', message: 'Herald failed internally before contacting the platform; the logs name the cause' };
      }
    }
    // Until the platform has answered whether the earlier attempt published, that question stays open,
    // whatever else ended this attempt (a disconnected account, a failed refresh, a bug).
    if (claim.mode === 'reconcile' && !progress.reconcileAnswered && (result.kind === 'failed' || result.kind === 'retry')) {
      result = { ...result, needsReconcile: Math.max(1, claim.target.needs_reconcile, result.needsReconcile ?? 0) };
    }
    const outcome = result.kind === 'published' ? 'published' : result.kind === 'failed' ? result.code : result.kind;
    metrics.publishOutcomes.inc({ platform: target.platform, outcome });
    const written = await attempts.finish(targetId, claim.attemptId, result, clock.now()).finally(() => heartbeat.remove(claim.attemptId));
    if (!written.owned) log.warn(ctx, 'attempt lost its target before writing back; result dropped');
    else log.info({ ...ctx, result: result.kind, ...(result.kind === 'failed' ? { errorCode: result.code } : {}) }, 'publish attempt finished');
    notify(target.post_id);
  }

  function track(p: Promise<void>) {
    running.add(p);
    void p.finally(() => running.delete(p));
  }

  return {
    processTarget,

    /** The publish-post job: every open target of the post, in parallel (each one claims itself). */
    async processPost(postId: string): Promise<void> {
      // Every open target claimed in one transaction, then each attempt runs on its own.
      const claims = await attempts.claimPost(postId, clock.now());
      await Promise.all([...claims].map(([id, claim]) => runClaim(id, claim)));
    },

    /** Fallback jobs of publishNow targets run this long after creation (after a lease, if we died). */
    fallbackDelayMs: leaseMs,

    startNow(postId: string, targetIds: string[]) {
      for (const id of targetIds) {
        track(
          processTarget(id).catch((err: unknown) => {
            log.error({ err, postId, targetId: id }, 'direct publish failed; the fallback job will take over');
          }),
        );
      }
    },

    async waitUntilSettled(postId: string, timeoutMs: number): Promise<void> {
      const deadline = clock.now() + timeoutMs;
      for (;;) {
        const targets = await attempts.targetStatuses(postId);
        // Done when nothing can change before the deadline: every target final, or waiting to retry later.
        const settledBy = (t: { status: string; nextAttemptAt: number | null }) =>
          t.status === 'published' || t.status === 'failed' || (t.status === 'pending' && t.nextAttemptAt !== null && t.nextAttemptAt > deadline);
        if (targets.every(settledBy)) return;
        const remaining = deadline - clock.now();
        if (remaining <= 0) return;
        await new Promise<void>((resolve) => {
          const set = waiters.get(postId) ?? new Set();
          const wake = () => {
            clearTimeout(timer);
            set.delete(wake);
            if (set.size === 0) waiters.delete(postId);
            resolve();
          };
          const timer = setTimeout(wake, Math.min(remaining, settlePollMs));
          set.add(wake);
          waiters.set(postId, set);
        });
      }
    },

    /** Re-creates jobs for targets whose attempt vanished or whose job went missing. */
    async sweep(): Promise<number> {
      const now = clock.now();
      // A due target twice a lease late has lost its job (or its worker): queue it again. Extra jobs
      // are harmless; the claim lets one through.
      const ids = await attempts.orphans(now, Math.max(5_000, 2 * leaseMs), 500);
      await attempts.revisit(ids, now);
      if (ids.length > 0) log.info({ count: ids.length }, 'recovery sweep re-queued targets');
      return ids.length;
    },

    /** Waits (bounded) for direct publishNow executions of this process. */
    async drain(timeoutMs: number): Promise<void> {
      await settleWithin(running, timeoutMs);
    },
  };
}

export type PublishingEngine = ReturnType<typeof createPublishingEngine>;
