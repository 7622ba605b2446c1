// The resumable upload protocol (§8.5): a POST with the metadata opens a session (its URI comes back in
// Location); PUTs carry the bytes in chunks of 256 KiB multiples; 308 Resume Incomplete says with Range
// how much the server kept; the last chunk answers 200/201 with the video. After a lost answer, a PUT with
// `Content-Range: bytes */TOTAL` asks the session where it stands, and the upload resumes from there.
// A session creates at most one video, so asking it is always safe.
import type { AdapterDeps } from '../deps.ts';
import type { HttpResult } from '../http.ts';
import { failure, type PlatformFailure } from '../types.ts';
import { asObject, asString, callApi, type Json } from './client.ts';
import { answeredFailure, unansweredFailure } from './errors.ts';
import { CHUNK_GRANULARITY } from './info.ts';

export interface Session {
  uri: string;
  size: number;
}

export type SessionState =
  | { kind: 'incomplete'; offset: number }
  | { kind: 'complete'; video: Json }
  /** The session URI is unknown or expired: it cannot tell whether it made a video. */
  | { kind: 'gone' };

export interface UploadOptions {
  /** Bytes per PUT; rounded down to a multiple of 256 KiB. */
  chunkBytes: number;
  maxVideoBytes: number;
  /** Time-out per chunk PUT; by default the client's, or scaled to a big chunk (at least ~100 kB/s). */
  chunkTimeoutMs?: number;
}

/**
 * A chunk gets the client's usual time-out (HERALD_PLATFORM_TIMEOUT_MS), or more when it is big enough to
 * need it at ~100 kB/s.
 */
export function chunkTimeout(options: Pick<UploadOptions, 'chunkTimeoutMs'>, bytes: number): number | undefined {
  if (options.chunkTimeoutMs !== undefined) return options.chunkTimeoutMs;
  return bytes > 1_000_000 ? 30_000 + Math.ceil(bytes / 100) : undefined;
}

/** `Range: bytes=0-N` → the next offset N+1; no Range header (nothing kept yet) → 0. */
export function nextOffset(range: string | null): number | null {
  if (range === null || range.trim() === '') return 0;
  const m = /^bytes=0-(\d+)$/.exec(range.trim());
  return m ? Number(m[1]) + 1 : null;
}

/** The chunk to send from `offset`: a multiple of 256 KiB unless it is the last one. */
export function chunkEnd(offset: number, size: number, chunkBytes: number): number {
  const step = Math.max(CHUNK_GRANULARITY, Math.floor(chunkBytes / CHUNK_GRANULARITY) * CHUNK_GRANULARITY);
  return Math.min(offset + step, size) - 1;
}

export interface SessionRequest {
  token: string;
  /** The video resource to insert (snippet and status). */
  metadata: Json;
  size: number;
  mimeType: string;
  notifySubscribers: boolean;
  signal?: AbortSignal;
}

/**
 * Opens a session. It creates no video by itself (only bytes reaching its URI do), so a POST whose answer
 * is lost is safe to send again: the orphan session is never completed.
 */
export async function openSession(deps: AdapterDeps, req: SessionRequest): Promise<Session | PlatformFailure> {
  const res = await callApi(deps, {
    method: 'POST',
    path: '/upload/youtube/v3/videos',
    token: req.token,
    query: { uploadType: 'resumable', part: 'snippet,status', ...(req.notifySubscribers ? {} : { notifySubscribers: 'false' }) },
    headers: {
      'content-type': 'application/json; charset=UTF-8',
      'x-upload-content-length': String(req.size),
      'x-upload-content-type': req.mimeType,
    },
    json: req.metadata,
    creates: false,
    signal: req.signal,
  });
  if (!res.ok) return res;
  const uri = res.headers.get('location');
  if (!uri) return failure('platform_unavailable', 'YouTube opened an upload session without a session URI (no Location header)', { httpStatus: res.status });
  return { uri, size: req.size };
}

type Put = { kind: 'answer'; state: SessionState } | { kind: 'failure'; failure: PlatformFailure; answered: boolean; unknown: boolean };

function readAnswer(result: Extract<HttpResult, { sent: true }>, now: number): Put {
  if (result.status === 308) {
    const offset = nextOffset(result.headers.get('range'));
    if (offset === null) return { kind: 'failure', failure: failure('platform_unavailable', `YouTube answered the upload with an unreadable Range (${result.headers.get('range')})`), answered: true, unknown: false };
    return { kind: 'answer', state: { kind: 'incomplete', offset } };
  }
  if (result.status === 200 || result.status === 201) {
    const video = asObject(result.body);
    if (!asString(video.id)) return { kind: 'failure', failure: failure('outcome_unknown', 'YouTube completed the upload without a video id'), answered: true, unknown: true };
    return { kind: 'answer', state: { kind: 'complete', video } };
  }
  if (result.status === 404 || result.status === 410) return { kind: 'answer', state: { kind: 'gone' } };
  const f = answeredFailure(result, now);
  // A 5xx may come after the server acted; asking the session settles it.
  return { kind: 'failure', failure: f, answered: true, unknown: result.status >= 500 };
}

async function put(deps: AdapterDeps, token: string, session: Session, headers: Record<string, string>, body: { bytes: Uint8Array; contentType: string } | undefined, timeoutMs: number | undefined, signal?: AbortSignal): Promise<Put> {
  const result = await deps.http.request({
    method: 'PUT',
    url: session.uri,
    headers: { authorization: `Bearer ${token}`, ...headers },
    ...(body ? { body } : {}),
    timeoutMs,
    signal,
  });
  if (result.sent !== true) return { kind: 'failure', failure: unansweredFailure(result, true), answered: false, unknown: result.sent === 'unknown' };
  return readAnswer(result, deps.clock.now());
}

/** Asks the session how far it got: `Content-Range: bytes *\/TOTAL` with no body. */
export async function querySession(deps: AdapterDeps, token: string, session: Session, signal?: AbortSignal): Promise<SessionState | PlatformFailure> {
  const r = await put(deps, token, session, { 'content-range': `bytes */${session.size}` }, undefined, undefined, signal);
  if (r.kind === 'answer') return r.state;
  // Asking changes nothing, so an unanswered query is only "not reachable".
  return r.answered ? r.failure : failure('platform_unavailable', `YouTube could not be asked about the upload (${r.failure.message})`);
}

export interface UploadJob {
  token: string;
  session: Session;
  bytes: Uint8Array;
  mimeType: string;
  signal?: AbortSignal;
}

const MAX_RECOVERIES = 3;
const MAX_STALLS = 3;

/**
 * Sends the bytes from `offset` until the session answers with the video. A chunk whose answer is lost (or
 * a 5xx) is followed by a status query and the upload resumes where the server says; the server may keep
 * fewer bytes than were sent, so the next chunk always starts where its Range ends.
 */
export async function uploadFrom(deps: AdapterDeps, options: UploadOptions, job: UploadJob, startOffset: number): Promise<SessionState | PlatformFailure> {
  const { session, bytes } = job;
  let offset = startOffset;
  let recoveries = 0;
  let stalls = 0;
  for (;;) {
    const end = chunkEnd(offset, session.size, options.chunkBytes);
    const chunk = bytes.subarray(offset, end + 1);
    const final = end === session.size - 1;
    const r = await put(
      deps,
      job.token,
      session,
      { 'content-range': `bytes ${offset}-${end}/${session.size}` },
      { bytes: chunk, contentType: job.mimeType },
      chunkTimeout(options, chunk.byteLength),
      job.signal,
    );
    let state: SessionState;
    if (r.kind === 'answer') {
      state = r.state;
    } else {
      // A refusal (or a request that never left) changed nothing that asking would reveal.
      if (!r.unknown) return r.failure;
      if (++recoveries > MAX_RECOVERIES) return final ? failure('outcome_unknown', `${r.failure.message}; the upload may have completed`) : r.failure;
      const asked = await querySession(deps, job.token, session, job.signal);
      if ('ok' in asked) {
        // Neither the chunk nor the question got through: only the last chunk can have made a video.
        return final ? failure('outcome_unknown', `the last chunk of the video got no answer and YouTube could not be asked whether the upload completed (${asked.message})`) : asked;
      }
      state = asked;
    }
    if (state.kind !== 'incomplete') return state;
    if (state.offset > session.size) return failure('platform_unavailable', `YouTube reports ${state.offset} bytes received of ${session.size}`);
    stalls = state.offset <= offset ? stalls + 1 : 0;
    if (stalls > MAX_STALLS) return failure('platform_unavailable', `the upload makes no progress: YouTube keeps ${state.offset} of ${session.size} bytes`);
    offset = state.offset;
  }
}
