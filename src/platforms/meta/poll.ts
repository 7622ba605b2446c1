// Waiting for Meta-side processing (Instagram containers, Facebook videos) within the publish budget.
import type { AdapterDeps } from '../deps.ts';

export type PollStep<T> = { done: true; value: T } | { done: false };

/**
 * Calls `step` until it is done, sleeping `pollIntervalMs` between calls. Gives up (returns
 * `{ timedOut: true }`) once `maxProcessingMs` has passed, or when the signal aborts.
 */
export async function pollUntil<T>(
  deps: AdapterDeps,
  step: () => Promise<PollStep<T>>,
  signal?: AbortSignal,
): Promise<{ timedOut: false; value: T } | { timedOut: true }> {
  const deadline = deps.clock.now() + deps.timing.maxProcessingMs;
  for (;;) {
    const r = await step();
    if (r.done) return { timedOut: false, value: r.value };
    if (deps.clock.now() >= deadline || signal?.aborted) return { timedOut: true };
    try {
      await deps.clock.sleep(deps.timing.pollIntervalMs, signal);
    } catch {
      return { timedOut: true };
    }
  }
}
