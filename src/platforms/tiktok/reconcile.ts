// "Did the earlier attempt publish?" TikTok can only answer that through the publish id: under these
// scopes there is no list of the creator's recent posts (video.list is a separate scope, and lists
// public videos only, after moderation).
import type { AdapterDeps } from '../deps.ts';
import type { PublishRequest, ReconcileOutcome } from '../types.ts';
import { isDeadPublish, readCheckpoint } from './checkpoint.ts';
import { completedOutcome, fetchStatus, pendingIdOutcome, type PollTarget } from './status.ts';

export async function reconcileTikTok(deps: AdapterDeps, request: PublishRequest): Promise<ReconcileOutcome> {
  const cp = readCheckpoint(request.checkpoint);
  if (!cp) {
    return {
      ok: true,
      found: 'unknown',
      message: 'TikTok gave no publish id before the attempt was cut off, and offers no way to list just-published posts',
    };
  }
  const res = await fetchStatus(deps, request.account.accessToken, cp.publishId, request.signal);
  if (!res.ok) return res;
  if (isDeadPublish(cp, res.status)) return { ok: true, found: false };

  const target: PollTarget = { publishId: cp.publishId, kind: cp.kind, username: request.account.username };
  if (res.status.status === 'PUBLISH_COMPLETE') {
    // Live, with or without its public id yet.
    const done = completedOutcome(target, res.status) ?? pendingIdOutcome(target);
    if (done.ok) return { ok: true, found: true, platformPostId: done.platformPostId, platformPostUrl: done.platformPostUrl };
  }
  return { ok: true, found: 'unknown', message: `TikTok reports publish ${cp.publishId} as ${res.status.status}` };
}
