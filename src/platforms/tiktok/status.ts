// Post status: one fetch, and the polling loop that waits for PUBLISH_COMPLETE and the public post id.
import type { AdapterDeps } from '../deps.ts';
import { failure, type PlatformFailure, type PublishOutcome } from '../types.ts';
import { asNumber, asString, callApi } from './client.ts';
import { failReasonFailure } from './errors.ts';
import { POST_ID_WAIT_MS, postUrl, profileUrl } from './info.ts';

export interface PublishStatus {
  status: string;
  failReason: string;
  /** publicaly_available_post_id[0], read from the raw text: it is an int64 beyond 2^53. */
  postId?: string;
  uploadedBytes?: number;
}

const POST_ID = /"publicaly_available_post_id"\s*:\s*\[\s*"?(\d+)/;

export function readPostId(text: string): string | undefined {
  return POST_ID.exec(text)?.[1];
}

export async function fetchStatus(
  deps: AdapterDeps,
  token: string,
  publishId: string,
  signal?: AbortSignal,
): Promise<{ ok: true; status: PublishStatus } | PlatformFailure> {
  const res = await callApi(deps, { method: 'POST', path: '/v2/post/publish/status/fetch/', token, json: { publish_id: publishId }, signal });
  if (!res.ok) return res;
  return {
    ok: true,
    status: {
      status: asString(res.data.status) ?? 'UNKNOWN',
      failReason: asString(res.data.fail_reason) ?? '',
      postId: readPostId(res.text),
      uploadedBytes: asNumber(res.data.uploaded_bytes),
    },
  };
}

export interface PollTarget {
  publishId: string;
  kind: 'video' | 'photo';
  /** For the post URL. */
  username: string;
}

/**
 * The post is live but its public id is not known yet (moderation pending, or a private post that
 * never gets one): Herald reports the publish id and the profile URL rather than holding the target
 * in "publishing" for hours or calling a live post unknown.
 */
export function pendingIdOutcome(target: PollTarget): PublishOutcome {
  return { ok: true, platformPostId: target.publishId, platformPostUrl: profileUrl(target.username) };
}

export function completedOutcome(target: PollTarget, status: PublishStatus): PublishOutcome | null {
  if (!status.postId) return null;
  return { ok: true, platformPostId: status.postId, platformPostUrl: postUrl(target.username, status.postId, target.kind) };
}

/** The end state of a status, or null while TikTok is still working on it. */
export function terminalOutcome(target: PollTarget, status: PublishStatus, now: number): PublishOutcome | null {
  switch (status.status) {
    case 'PUBLISH_COMPLETE':
      return completedOutcome(target, status);
    case 'FAILED':
      return failReasonFailure(status.failReason, now);
    case 'SEND_TO_USER_INBOX':
      return failure('content_rejected', 'TikTok sent the post to the creator\'s inbox instead of publishing it', { platformCode: 'SEND_TO_USER_INBOX' });
    default:
      return null;
  }
}

/**
 * Polls until the post is published (with its id, or past the id wait), fails, or the processing
 * budget runs out (outcome unknown: the engine reconciles later from the checkpointed publish id).
 * Transient errors of a status fetch do not end the wait: the post is already in TikTok's hands.
 */
export async function pollUntilPublished(deps: AdapterDeps, token: string, target: PollTarget, signal?: AbortSignal): Promise<PublishOutcome> {
  const deadline = deps.clock.now() + deps.timing.maxProcessingMs;
  let completeSince: number | undefined;
  let lastProblem = '';
  for (;;) {
    const res = await fetchStatus(deps, token, target.publishId, signal);
    const now = deps.clock.now();
    let wait = deps.timing.pollIntervalMs;
    if (!res.ok) {
      if (res.category === 'auth_expired' || res.category === 'permission_missing') return res;
      lastProblem = ` (last status check: ${res.message})`;
      if (res.retryAt !== undefined) wait = Math.max(wait, res.retryAt - now);
    } else {
      const done = terminalOutcome(target, res.status, now);
      if (done) return done;
      if (res.status.status === 'PUBLISH_COMPLETE') {
        completeSince ??= now;
        if (now - completeSince >= POST_ID_WAIT_MS) return pendingIdOutcome(target);
      }
    }
    if (now >= deadline) {
      if (completeSince !== undefined) return pendingIdOutcome(target);
      return failure('outcome_unknown', `TikTok was still processing publish ${target.publishId} when Herald stopped waiting${lastProblem}`);
    }
    try {
      await deps.clock.sleep(Math.max(0, Math.min(wait, deadline - now)), signal);
    } catch {
      return completeSince !== undefined
        ? pendingIdOutcome(target)
        : failure('outcome_unknown', `waiting for TikTok to process publish ${target.publishId} was interrupted`);
    }
  }
}
