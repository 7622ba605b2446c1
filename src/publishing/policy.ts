// When to try a target again. Pure functions of attempts, failure and time, table-tested.
import type { FailureCategory, PlatformFailure } from '../platforms/types.ts';

export interface RetryPolicy {
  /** Wait before attempt n+1 after a transient failure of attempt n (last value repeats). */
  delaysMs: number[];
  /** Attempts a target gets before a transient failure becomes final. */
  maxAttempts: number;
  /** Waits before asking the platform again about an unknown outcome; their count bounds the asking. */
  reconcileDelaysMs: number[];
  /** Never wait longer than this for a platform's rate-limit or quota reset before giving up. */
  maxWaitMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  delaysMs: [2_000, 10_000, 60_000, 5 * 60_000, 15 * 60_000],
  maxAttempts: 6,
  reconcileDelaysMs: [2_000, 15_000, 60_000],
  maxWaitMs: 26 * 60 * 60_000,
};

/** Categories that end a target at once: trying again cannot help (auth: refresh was already tried). */
const PERMANENT: ReadonlySet<FailureCategory> = new Set(['permission_missing', 'content_rejected', 'media_rejected', 'auth_expired']);

export const isPermanent = (category: FailureCategory) => PERMANENT.has(category);

export type Decision =
  | { kind: 'fail' }
  | { kind: 'retry'; at: number }
  /** Outcome unknown: ask the platform at `at` before anything is re-sent. */
  | { kind: 'reconcile'; at: number };

/**
 * `attempts` counts attempts made so far (including the one that just failed); `reconciles` counts the
 * askings about an unknown outcome already scheduled (0 when the failure happened while publishing).
 */
export function decide(policy: RetryPolicy, failure: PlatformFailure, attempts: number, reconciles: number, now: number): Decision {
  if (failure.category === 'outcome_unknown') {
    const delay = policy.reconcileDelaysMs[reconciles];
    // Publish → unknown → "not there" → publish → unknown … must end too.
    const exhausted = attempts >= policy.maxAttempts + policy.reconcileDelaysMs.length;
    return delay === undefined || exhausted ? { kind: 'fail' } : { kind: 'reconcile', at: now + delay };
  }
  if (PERMANENT.has(failure.category)) return { kind: 'fail' };
  if (attempts >= policy.maxAttempts) return { kind: 'fail' };
  const backoff = policy.delaysMs[Math.min(attempts - 1, policy.delaysMs.length - 1)] ?? 0;
  const at = Math.max(now + backoff, failure.retryAt ?? 0);
  if (at - now > policy.maxWaitMs) return { kind: 'fail' };
  return { kind: 'retry', at };
}

/** What a target that ends with an unknown outcome tells the caller. */
export const UNKNOWN_OUTCOME_MESSAGE =
  'Herald could not confirm whether this post was published (the platform accepted the request but never answered, and asking it afterwards did not tell). Check the account before retrying, or it may be posted twice.';
