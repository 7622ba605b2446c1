// "Did the earlier attempt publish?" The checkpointed container says: PUBLISHED (find the post),
// FINISHED/ERROR/EXPIRED (it never went out), IN_PROGRESS (cannot tell yet).
import type { PublishRequest, ReconcileOutcome } from '../types.ts';
import { containerStatus } from './containers.ts';
import { findPublished, readCheckpoint, type InstagramContext } from './lookup.ts';

export async function reconcileInstagram(ctx: InstagramContext, req: PublishRequest): Promise<ReconcileOutcome> {
  const cp = readCheckpoint(req.checkpoint);
  // Without a checkpoint media_publish was never called; the media search only double-checks.
  if (!cp) return findPublished(ctx, req);
  const s = await containerStatus(ctx.graph, cp.containerId, req.account.accessToken, req.signal);
  if (!s.ok) return s.failure;
  switch (s.state) {
    case 'PUBLISHED': {
      const found = await findPublished(ctx, req);
      if (found.ok && found.found === false) {
        return { ok: true, found: 'unknown', message: 'the Instagram container is published but the post is not among the recent media' };
      }
      return found;
    }
    case 'IN_PROGRESS':
      return { ok: true, found: 'unknown', message: 'the Instagram container is still being processed' };
    default:
      return { ok: true, found: false };
  }
}
