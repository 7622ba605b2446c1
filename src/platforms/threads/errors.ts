// Threads answers in Meta's Graph error envelope (type "THApiException" or "OAuthException"), so the
// shared mapping does most of the work; this file adds what is particular to Threads.
import { graphFailure, parseGraphError } from '../meta/graph-errors.ts';
import type { HttpResult } from '../http.ts';
import { failure, type PlatformFailure } from '../types.ts';

/**
 * 'safe' calls make nothing public (reads, token calls, container creation), so an answer lost after
 * sending is just an outage. 'publish' is threads_publish: a lost answer may hide a published post.
 */
export type CallKind = 'safe' | 'publish';

// Documented container-creation error (developers.facebook.com/docs/threads, "Text Attachments").
const LINK_LIMIT = 'THREADS_API__LINK_LIMIT_EXCEEDED';

export function threadsFailure(res: HttpResult, now: number, label: string, kind: CallKind = 'safe'): PlatformFailure {
  if (res.sent === 'unknown' && kind === 'safe') return failure('platform_unavailable', `${label}: ${res.error}`);
  const f = graphFailure(res, now, label);
  if (res.sent !== true) return f;
  const err = parseGraphError(res.body);
  const said = `${err?.message ?? ''} ${err?.error_user_title ?? ''} ${err?.error_user_msg ?? ''}`;
  if (said.includes(LINK_LIMIT)) return { ...f, category: 'content_rejected', message: `${label}: Threads allows at most 5 links in a post` };
  return f;
}

/**
 * The code exchange: Threads refuses a bad, used or expired code with an OAuthException (code 100 or
 * 190). That is the user's grant being unusable, not a content problem.
 */
export function codeExchangeFailure(res: HttpResult, now: number): PlatformFailure {
  const f = threadsFailure(res, now, 'Threads code exchange');
  if (res.sent !== true || res.status >= 500) return f;
  const err = parseGraphError(res.body);
  if (res.status !== 404 && err && (err.code === 100 || err.code === 190 || err.type === 'OAuthException') && f.category === 'content_rejected') {
    return { ...f, category: 'auth_expired' };
  }
  return f;
}

/**
 * Token refresh: a dead token (190) means reconnecting; a refusal for another reason (the token is
 * younger than 24 hours, say) leaves the current token usable, so it is worth trying again later.
 */
export function refreshFailure(res: HttpResult, now: number): PlatformFailure {
  const f = threadsFailure(res, now, 'Threads token refresh');
  if (f.category === 'content_rejected' || f.category === 'media_rejected' || f.category === 'quota_exceeded') {
    return { ...f, category: 'platform_unavailable' };
  }
  return f;
}

// error_message values of a container in status ERROR (docs: "Threads API Troubleshooting").
const CONTAINER_ERRORS: Record<string, string> = {
  FAILED_DOWNLOADING_VIDEO: 'Threads could not download the video',
  FAILED_PROCESSING_AUDIO: "Threads could not process the video's audio",
  FAILED_PROCESSING_VIDEO: 'Threads could not process the video',
  INVALID_ASPEC_RATIO: 'the aspect ratio is not accepted',
  INVALID_BIT_RATE: 'the video bit rate is not accepted',
  INVALID_DURATION: 'the video duration is not accepted',
  INVALID_FRAME_RATE: 'the video frame rate is not accepted',
  INVALID_AUDIO_CHANNELS: 'the number of audio channels is not accepted',
  INVALID_AUDIO_CHANNEL_LAYOUT: 'the audio channel layout is not accepted',
  UNKNOWN: 'Threads could not process the media',
};

/** A container that ended in status ERROR: the media file itself was refused. */
export function containerErrorFailure(errorMessage: string | undefined): PlatformFailure {
  const code = errorMessage && errorMessage.length > 0 ? errorMessage : 'UNKNOWN';
  const human = CONTAINER_ERRORS[code] ?? 'Threads could not process the media';
  return failure('media_rejected', `Threads rejected the media: ${human} (${code})`, { platformCode: code });
}

/** A container not published within 24 hours; nothing was posted, a new container will do. */
export function containerExpiredFailure(): PlatformFailure {
  return failure('platform_unavailable', 'the Threads media container expired before it was published; it will be created again', {
    platformCode: 'EXPIRED',
  });
}
