// What a Pinterest publish attempt saves before its irreversible steps: the registered video upload
// (so a later attempt reuses it instead of uploading again) and the time the Pin was first asked for
// (so every later attempt, and reconcile, knows a Pin may exist and where in time to look for it).
import type { Checkpoint } from '../types.ts';

export type PinKind = 'image' | 'carousel' | 'video';

export interface PinterestCheckpoint {
  kind: PinKind;
  /** POST /v5/media's media_id: the video upload this target uses. */
  mediaId?: string;
  /** When POST /v5/pins was first sent (epoch ms). Absent: no Pin was ever asked for. */
  pinSentAt?: number;
}

export function readCheckpoint(cp: Checkpoint | null): PinterestCheckpoint | null {
  if (!cp || (cp.kind !== 'image' && cp.kind !== 'carousel' && cp.kind !== 'video')) return null;
  const out: PinterestCheckpoint = { kind: cp.kind };
  if (typeof cp.mediaId === 'string' && /^\d+$/.test(cp.mediaId)) out.mediaId = cp.mediaId;
  if (typeof cp.pinSentAt === 'number' && Number.isFinite(cp.pinSentAt)) out.pinSentAt = cp.pinSentAt;
  return out;
}

export function toCheckpoint(cp: PinterestCheckpoint): Checkpoint {
  return { ...cp };
}
