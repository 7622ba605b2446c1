// "Did the earlier attempt publish?" Every create happened under a key saved beforehand, so the answer is
// read, not guessed: getRecord of each planned key. Confirmed posts go into the checkpoint; the first one
// the PDS positively does not have means found: false, and the next attempt resumes there under the same
// key (so a create still in flight cannot land twice: the PDS refuses a second record under one key).
import type { AdapterDeps } from '../deps.ts';
import type { PublishRequest, ReconcileOutcome } from '../types.ts';
import { planCheckpoint, readPlan } from './checkpoint.ts';
import { postUrl } from './info.ts';
import { confirmPlanned, repoContext } from './publish.ts';
import { chainOf } from './thread.ts';

export async function reconcileChain(deps: AdapterDeps, request: PublishRequest): Promise<ReconcileOutcome> {
  const chain = chainOf(request);
  const plan = readPlan(request.checkpoint).slice(0, chain.length);
  // No key saved: no create was ever sent (the key is saved before every create).
  if (plan.length === 0) return { ok: true, found: false };
  const confirmed = await confirmPlanned(repoContext(deps, request), plan, chain);
  if (!confirmed.ok) return confirmed;
  if (confirmed.changed) await request.saveCheckpoint(planCheckpoint(plan));
  const done = plan.length === chain.length && plan.every((p) => p.ref);
  const first = plan[0]?.ref;
  if (done && first) {
    return { ok: true, found: true, platformPostId: first.uri, platformPostUrl: postUrl(request.account.username || request.account.accountId, first.uri) };
  }
  // What is missing is positively absent; what is there is in the checkpoint, and publishing resumes after it.
  return { ok: true, found: false };
}
