// "Did the earlier attempt publish?" From the checkpoint when there is one (the pending container's
// status), otherwise from the account's recent posts.
import type { AdapterDeps } from '../deps.ts';
import type { PublishRequest, ReconcileOutcome } from '../types.ts';
import type { ThreadsApi } from './api.ts';
import { readContainerStatus } from './containers.ts';
import { findPost, permalinkOf } from './locate.ts';
import { publishContext } from './publish.ts';
import { buildSteps, mediaTypeOf, readCheckpoint } from './steps.ts';

const CLOCK_SLACK_MS = 60_000;

/**
 * found:true only when the whole thread is public. A thread cut short (some posts public, the rest
 * not) answers found:false: publishing again is safe because publish() resumes from the checkpoint
 * and never re-posts what it lists, which is how the thread gets finished.
 */
export async function threadsReconcile(deps: AdapterDeps, api: ThreadsApi, request: PublishRequest): Promise<ReconcileOutcome> {
  const ctx = publishContext(deps, api, request);
  const steps = buildSteps(request);
  const last = steps.length - 1;
  const cp = readCheckpoint(request.checkpoint);

  const foundRoot = async (rootId: string, permalink?: string): Promise<ReconcileOutcome> => ({
    ok: true,
    found: true,
    platformPostId: rootId,
    platformPostUrl: permalink ?? (await permalinkOf(ctx, rootId)),
  });

  if (!cp.pending) {
    const root = cp.published[0];
    if (root && cp.published.length > last) return foundRoot(root.id);
    if (root) return { ok: true, found: false };
    // Nothing was checkpointed, so no container was ever about to be published; look anyway.
    const first = steps[0]!;
    const found = await findPost(ctx, { text: first.text, notBefore: request.attemptStartedAt - CLOCK_SLACK_MS, mediaType: mediaTypeOf(first) });
    if (!found.ok) return found;
    if (!found.post) return { ok: true, found: false };
    return foundRoot(found.post.id, found.post.permalink);
  }

  const pending = cp.pending;
  const status = await readContainerStatus(ctx, pending.containerId);
  if (!status.ok) return status;
  switch (status.status) {
    case 'FINISHED': // ready and never published: publishing it is safe
    case 'ERROR':
    case 'EXPIRED':
      return { ok: true, found: false };
    case 'IN_PROGRESS':
      return { ok: true, found: 'unknown', message: 'Threads is still processing the container; ask again shortly' };
    case 'PUBLISHED':
      break;
  }
  if (pending.index < last) return { ok: true, found: false };
  const step = steps[pending.index]!;
  const replyToId = pending.index === 0 ? undefined : cp.published[pending.index - 1]?.id;
  const found = await findPost(ctx, { text: step.text, replyToId, notBefore: pending.createdAt - CLOCK_SLACK_MS, mediaType: mediaTypeOf(step) });
  if (!found.ok) return found;
  if (!found.post) return { ok: true, found: 'unknown', message: 'Threads shows the container as published but does not list the post yet' };
  const root = pending.index === 0 ? found.post : { id: cp.published[0]!.id, permalink: undefined };
  return foundRoot(root.id, root.permalink);
}
