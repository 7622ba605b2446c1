// Publishing a YouTube target: one video by the resumable protocol. The session URI is checkpointed before
// the first byte (resuming it can only ever complete that one video), the video id as soon as YouTube
// gives it. Then the thumbnail (never fails the post) and YouTube's processing verdict.
import type { AdapterDeps } from '../deps.ts';
import { failure, type MediaItem, type PlatformFailure, type PublishOutcome, type PublishRequest } from '../types.ts';
import { asObject, asString, isFailure, type Json } from './client.ts';
import { readCheckpoint, toCheckpoint, type YouTubeCheckpoint } from './checkpoint.ts';
import { DEFAULT_CATEGORY_ID, DEFAULT_PRIVACY, watchUrl, type PrivacyStatus } from './info.ts';
import { sniffVideo } from './media-file.ts';
import { awaitProcessing } from './processing.ts';
import { findUpload } from './reconcile.ts';
import { setThumbnail } from './thumbnail.ts';
import { openSession, querySession, uploadFrom, type Session, type UploadOptions } from './upload.ts';
import { videoShape } from './validate.ts';

export interface VideoSettings {
  title: string;
  madeForKids: boolean;
  privacyStatus: PrivacyStatus;
  tags: string[];
  categoryId: string;
  notifySubscribers: boolean;
  thumbnail?: MediaItem;
}

/** The target's settings as publishing needs them; title and madeForKids were required at create. */
export function readSettings(s: Record<string, unknown>): VideoSettings | PlatformFailure {
  if (typeof s.title !== 'string' || !s.title.trim()) return failure('content_rejected', 'YouTube needs a video title (platformSpecificData.title)');
  if (typeof s.madeForKids !== 'boolean') return failure('content_rejected', 'YouTube needs madeForKids (platformSpecificData.madeForKids)');
  const privacy = s.privacyStatus === 'private' || s.privacyStatus === 'unlisted' || s.privacyStatus === 'public' ? s.privacyStatus : DEFAULT_PRIVACY;
  const out: VideoSettings = {
    title: s.title,
    madeForKids: s.madeForKids,
    privacyStatus: privacy,
    tags: Array.isArray(s.tags) ? s.tags.filter((t): t is string => typeof t === 'string') : [],
    categoryId: typeof s.categoryId === 'string' ? s.categoryId : DEFAULT_CATEGORY_ID,
    notifySubscribers: s.notifySubscribers !== false,
  };
  const thumb = s.thumbnail as MediaItem | undefined;
  if (thumb && typeof thumb.url === 'string') out.thumbnail = thumb;
  return out;
}

/** The video resource sent when the session opens (only snippet and status are written). */
export function videoMetadata(settings: VideoSettings, description: string): Json {
  const snippet: Json = { title: settings.title, description, categoryId: settings.categoryId };
  if (settings.tags.length > 0) snippet.tags = settings.tags;
  return { snippet, status: { privacyStatus: settings.privacyStatus, selfDeclaredMadeForKids: settings.madeForKids } };
}

type Loaded = { bytes: Uint8Array; mimeType: string };

async function loadVideo(deps: AdapterDeps, options: UploadOptions, item: MediaItem): Promise<Loaded | PlatformFailure> {
  const fetched = await deps.media.fetch(item, { maxBytes: options.maxVideoBytes });
  if (!fetched.ok) return failure(fetched.transient ? 'platform_unavailable' : 'media_rejected', fetched.message);
  if (fetched.bytes.byteLength === 0) return failure('media_rejected', `${item.url} is empty`);
  const sniffed = sniffVideo(fetched.bytes);
  if (sniffed.kind === 'not_video') return failure('media_rejected', `${item.url} is ${sniffed.what}, not a video`);
  const declared = fetched.contentType.toLowerCase();
  const mimeType = sniffed.kind === 'video' ? sniffed.mimeType : declared.startsWith('video/') ? declared : 'application/octet-stream';
  return { bytes: fetched.bytes, mimeType };
}

interface Job {
  deps: AdapterDeps;
  request: PublishRequest;
  settings: VideoSettings;
}

async function save(job: Job, cp: YouTubeCheckpoint): Promise<void> {
  await job.request.saveCheckpoint(toCheckpoint(cp));
}

/** The video exists: thumbnail, processing verdict, and the answer. Nothing here can post again. */
async function finish(job: Job, cp: YouTubeCheckpoint & { videoId: string }): Promise<PublishOutcome> {
  const { deps, request, settings } = job;
  const token = request.account.accessToken;
  let next = cp;
  if (settings.thumbnail && next.thumbnail === undefined) {
    const t = await setThumbnail(deps, token, next.videoId, settings.thumbnail, request.signal);
    next = { ...next, thumbnail: t.ok ? 'set' : t.message };
    await save(job, next);
  }
  const processed = await awaitProcessing(deps, token, next.videoId, request.signal);
  if (isFailure(processed)) return processed;
  if (processed.state === 'pending') await save(job, { ...next, processing: processed.note });
  return { ok: true, platformPostId: next.videoId, platformPostUrl: watchUrl(next.videoId) };
}

async function completed(job: Job, cp: YouTubeCheckpoint, video: Json): Promise<PublishOutcome> {
  const videoId = asString(video.id)!;
  const next: YouTubeCheckpoint & { videoId: string } = { ...cp, videoId };
  // An unaudited API project gets every upload locked private (§8.5): the call succeeds all the same.
  const privacy = asString(asObject(video.status).privacyStatus);
  if (privacy && privacy !== job.settings.privacyStatus) next.privacyLocked = true;
  await save(job, next);
  return finish(job, next);
}

export async function publishYouTube(deps: AdapterDeps, options: UploadOptions, request: PublishRequest): Promise<PublishOutcome> {
  const shape = videoShape(request.media);
  if ('error' in shape) return failure('content_rejected', shape.error.message);
  const settings = readSettings(request.settings);
  if (isFailure(settings)) return settings;
  const job: Job = { deps, request, settings };
  const token = request.account.accessToken;
  const cp = readCheckpoint(request.checkpoint);
  if (cp.videoId) return finish(job, { ...cp, videoId: cp.videoId });

  // An earlier attempt opened a session: it is asked first (before the file is fetched again), and resumed
  // rather than replaced.
  let resumable: { session: Session; offset: number } | null = null;
  if (cp.sessionUri && cp.size) {
    const earlier: Session = { uri: cp.sessionUri, size: cp.size };
    const state = await querySession(deps, token, earlier, request.signal);
    if ('ok' in state) return state;
    if (state.kind === 'complete') return completed(job, cp, state.video);
    if (state.kind === 'incomplete') resumable = { session: earlier, offset: state.offset };
    else {
      const found = await findUpload(deps, request, cp, cp.openedAt ?? request.attemptStartedAt);
      if (!found.ok) return found;
      if (found.found === true) return finish(job, { ...cp, videoId: found.platformPostId });
      if (found.found === 'unknown') return failure('outcome_unknown', `the earlier upload session expired and ${found.message}`);
    }
  }

  const video = await loadVideo(deps, options, shape.video);
  if (isFailure(video)) return video;
  // An incomplete session for a file of another size can never finish: a new one replaces it.
  let session: Session | null = resumable && resumable.session.size === video.bytes.byteLength ? resumable.session : null;
  const offset = session ? resumable!.offset : 0;
  let sessionCp: YouTubeCheckpoint = cp;
  if (!session) {
    const opened = await openSession(deps, {
      token,
      metadata: videoMetadata(settings, request.content),
      size: video.bytes.byteLength,
      mimeType: video.mimeType,
      notifySubscribers: settings.notifySubscribers,
      signal: request.signal,
    });
    if (isFailure(opened)) return opened;
    session = opened;
    sessionCp = { sessionUri: session.uri, size: session.size, openedAt: deps.clock.now() };
    await save(job, sessionCp);
  }
  const result = await uploadFrom(deps, options, { token, session, bytes: video.bytes, mimeType: video.mimeType, signal: request.signal }, offset);
  if ('ok' in result) return result;
  if (result.kind === 'complete') return completed(job, sessionCp, result.video);
  return failure('platform_unavailable', 'the upload session expired during the upload; the next attempt checks the channel before uploading again');
}
