// What a YouTube publish attempt saves, in order: the session URI before the first byte is sent (a later
// attempt resumes that session, which can only ever make one video), then the video id once YouTube gives
// it, then how the thumbnail went.
import type { Checkpoint } from '../types.ts';

export interface YouTubeCheckpoint {
  /** The resumable session URI (a capability: it takes bytes without a token). */
  sessionUri?: string;
  /** The file size the session was opened for. */
  size?: number;
  /** When the session was opened (epoch ms): an expired session's video is looked for in uploads since then. */
  openedAt?: number;
  videoId?: string;
  /** 'set', or why the custom thumbnail could not be set. */
  thumbnail?: string;
  /** YouTube made the video private although another privacy was asked (an unaudited API project). */
  privacyLocked?: boolean;
  /** Processing had not finished (or could not be followed) when the target was reported published. */
  processing?: string;
}

export function readCheckpoint(cp: Checkpoint | null): YouTubeCheckpoint {
  if (!cp) return {};
  const out: YouTubeCheckpoint = {};
  if (typeof cp.sessionUri === 'string' && cp.sessionUri) out.sessionUri = cp.sessionUri;
  if (typeof cp.size === 'number' && Number.isInteger(cp.size) && cp.size > 0) out.size = cp.size;
  if (typeof cp.openedAt === 'number' && Number.isFinite(cp.openedAt)) out.openedAt = cp.openedAt;
  if (typeof cp.videoId === 'string' && cp.videoId) out.videoId = cp.videoId;
  if (typeof cp.thumbnail === 'string') out.thumbnail = cp.thumbnail;
  if (cp.privacyLocked === true) out.privacyLocked = true;
  if (typeof cp.processing === 'string') out.processing = cp.processing;
  return out;
}

export function toCheckpoint(cp: YouTubeCheckpoint): Checkpoint {
  return { ...cp };
}
