// What a TikTok publish attempt saves once TikTok has given it a publish id, and what a later attempt
// (or reconcile) concludes from that id's status.
import type { Checkpoint } from '../types.ts';
import type { PublishStatus } from './status.ts';

export interface TikTokCheckpoint {
  publishId: string;
  kind: 'video' | 'photo';
  /** FILE_UPLOAD size, to tell an upload that never finished from one being processed. */
  videoSize?: number;
}

export function readCheckpoint(cp: Checkpoint | null): TikTokCheckpoint | null {
  if (!cp || typeof cp.publishId !== 'string' || !cp.publishId) return null;
  const kind = cp.kind === 'photo' ? 'photo' : 'video';
  const out: TikTokCheckpoint = { publishId: cp.publishId, kind };
  if (typeof cp.videoSize === 'number') out.videoSize = cp.videoSize;
  return out;
}

export function toCheckpoint(cp: TikTokCheckpoint): Checkpoint {
  return { ...cp };
}

/**
 * True when the earlier attempt's publish can never become a post: TikTok failed it, or its upload
 * stopped short (the upload URL died with that attempt, so nobody can finish it).
 */
export function isDeadPublish(cp: TikTokCheckpoint, status: PublishStatus): boolean {
  if (status.status === 'FAILED') return true;
  return (
    status.status === 'PROCESSING_UPLOAD' &&
    cp.videoSize !== undefined &&
    status.uploadedBytes !== undefined &&
    status.uploadedBytes < cp.videoSize
  );
}
