// Publishing a chain: the post, then each thread item as a reply (root = the post, parent = the one
// before). For each post: compose (facets, uploads, card), choose its record key and save it in the
// checkpoint, then create it under that key. A key saved by an earlier attempt is read back first and
// reused when absent, so a post the PDS already has is never sent again (docs/internal/bluesky-pds.md).
import type { AdapterDeps } from '../deps.ts';
import { failure, type PlatformFailure, type PublishOutcome, type PublishRequest } from '../types.ts';
import { serverOf } from './client.ts';
import { composePost } from './compose.ts';
import { planCheckpoint, readPlan, type PlannedPost } from './checkpoint.ts';
import { postUrl } from './info.ts';
import { createPost, isOurs, KEY_TAKEN, readPost, type RepoContext } from './records.ts';
import { chainOf, langsOf, type ChainItem } from './thread.ts';
import type { TidSource } from './tid.ts';

export function where(index: number): string {
  return index === 0 ? '' : `reply ${index} of the thread: `;
}

export function repoContext(deps: AdapterDeps, request: Pick<PublishRequest, 'account' | 'signal'>): RepoContext {
  return {
    deps,
    server: serverOf(request.account, deps.app.apiUrl),
    token: request.account.accessToken,
    repo: request.account.accountId,
    ...(request.signal ? { signal: request.signal } : {}),
  };
}

/**
 * Reads back planned posts the checkpoint has no confirmation of, and stops at the first that is not
 * there. A key that holds a different text is another post's (two posts drew the same TID): the plan
 * forgets it, so a new key is chosen.
 */
export async function confirmPlanned(ctx: RepoContext, plan: PlannedPost[], chain: ChainItem[]): Promise<{ ok: true; changed: boolean } | PlatformFailure> {
  let changed = false;
  for (const [i, p] of plan.entries()) {
    if (p.ref) continue;
    const back = await readPost(ctx, ctx.repo, p.rkey);
    if (!back.ok) return back;
    if (back.found && isOurs(back.value, chain[i]?.text ?? '')) {
      p.ref = back.ref;
      changed = true;
      continue;
    }
    if (back.found) {
      plan.length = i;
      changed = true;
    }
    return { ok: true, changed };
  }
  return { ok: true, changed };
}

export async function publishChain(deps: AdapterDeps, tids: TidSource, request: PublishRequest): Promise<PublishOutcome> {
  const chain = chainOf(request);
  const ctx = repoContext(deps, request);
  const plan = readPlan(request.checkpoint).slice(0, chain.length);
  const save = () => request.saveCheckpoint(planCheckpoint(plan));

  const confirmed = await confirmPlanned(ctx, plan, chain);
  if (!confirmed.ok) return confirmed;
  if (confirmed.changed) await save();

  const langs = langsOf(request.settings);
  for (let i = 0; i < chain.length; i++) {
    if (plan[i]?.ref) continue;
    const item = chain[i]!;
    const root = plan[0]?.ref;
    const parent = plan[i - 1]?.ref;
    const composed = await composePost(
      { deps, server: ctx.server, token: ctx.token, now: deps.clock.now(), ...(ctx.signal ? { signal: ctx.signal } : {}) },
      { text: item.text, media: item.media, ...(langs ? { langs } : {}), ...(i > 0 && root && parent ? { reply: { root, parent } } : {}), where: where(i) },
    );
    if (!composed.ok) return composed;

    // The key is chosen, and saved, before the irreversible step; an earlier attempt's key is kept.
    const label = `Bluesky refused ${i === 0 ? 'the post' : `reply ${i} of the thread`}`;
    let planned: PlannedPost = plan[i] ?? { rkey: tids.next() };
    plan[i] = planned;
    await save();
    let created = await createPost(ctx, planned.rkey, composed.record, label);
    if (!created.ok && created.platformCode === KEY_TAKEN) {
      planned = { rkey: tids.next() };
      plan[i] = planned;
      await save();
      created = await createPost(ctx, planned.rkey, composed.record, label);
    }
    if (!created.ok) return created;
    planned.ref = created.ref;
    await save();
  }
  const first = plan[0]?.ref;
  if (!first) return failure('content_rejected', 'nothing to publish');
  return { ok: true, platformPostId: first.uri, platformPostUrl: postUrl(request.account.username || request.account.accountId, first.uri) };
}
