// "Did the earlier attempt publish?" The checkpointed session knows: a completed session answers with its
// video, an incomplete one holds none (publishing resumes it). A session that can no longer be asked
// (expired, unknown) leaves the channel's uploads since it was opened, matched by title and description.
import type { AdapterDeps } from '../deps.ts';
import type { PublishRequest, ReconcileOutcome } from '../types.ts';
import { asString } from './client.ts';
import { readCheckpoint, toCheckpoint, type YouTubeCheckpoint } from './checkpoint.ts';
import { watchUrl } from './info.ts';
import { querySession } from './upload.ts';
import { uploadsSince } from './uploads.ts';

const CLOCK_SKEW_MS = 60_000;
const MAX_PAGES = 4;

/** Text as compared: YouTube stores descriptions with \n line ends and may trim them. */
export function matchable(text: string): string {
  return text.normalize('NFC').replace(/\r\n?/g, '\n').trim();
}

function found(videoId: string): ReconcileOutcome {
  return { ok: true, found: true, platformPostId: videoId, platformPostUrl: watchUrl(videoId) };
}

/** Looks for the target's video among the uploads since `since`; saves its id when found. */
export async function findUpload(deps: AdapterDeps, request: PublishRequest, cp: YouTubeCheckpoint, since: number): Promise<ReconcileOutcome> {
  const title = typeof request.settings.title === 'string' ? matchable(request.settings.title) : '';
  if (!title) return { ok: true, found: 'unknown', message: 'a video without a title cannot be told apart among the uploads' };
  const listed = await uploadsSince(deps, request.account, since - CLOCK_SKEW_MS, { maxPages: MAX_PAGES, signal: request.signal });
  if (!listed.ok) return listed;
  const description = matchable(request.content);
  // Oldest first: the first matching upload after the session opened is the one it made.
  const match = [...listed.items].reverse().find((u) => matchable(u.title) === title && matchable(u.description) === description);
  if (match) {
    await request.saveCheckpoint(toCheckpoint({ ...cp, videoId: match.videoId }));
    return found(match.videoId);
  }
  if (!listed.complete) return { ok: true, found: 'unknown', message: 'too many recent uploads to be sure the video is not among them' };
  return { ok: true, found: false };
}

export async function reconcileYouTube(deps: AdapterDeps, request: PublishRequest): Promise<ReconcileOutcome> {
  const cp = readCheckpoint(request.checkpoint);
  if (cp.videoId) return found(cp.videoId);
  // The session is saved before its first byte is sent: without one, no byte left Herald.
  if (!cp.sessionUri || !cp.size) return { ok: true, found: false };
  const state = await querySession(deps, request.account.accessToken, { uri: cp.sessionUri, size: cp.size }, request.signal);
  if ('ok' in state) return state;
  if (state.kind === 'complete') {
    const videoId = asString(state.video.id)!;
    await request.saveCheckpoint(toCheckpoint({ ...cp, videoId }));
    return found(videoId);
  }
  // Bytes are missing: the session made no video, and publishing resumes it from where it stands.
  if (state.kind === 'incomplete') return { ok: true, found: false };
  return findUpload(deps, request, cp, cp.openedAt ?? request.attemptStartedAt);
}
