// Publishing a TikTok target: resume from an earlier attempt's publish id when there is one, else
// query creator_info (TikTok requires it before every Direct Post), then post a video or photos.
import type { AdapterDeps } from '../deps.ts';
import { failure, type PublishOutcome, type PublishRequest } from '../types.ts';
import { isDeadPublish, readCheckpoint, type TikTokCheckpoint } from './checkpoint.ts';
import { isFailure } from './client.ts';
import { queryCreatorInfo } from './creator.ts';
import { checkPrivacy, readSettings, requirePrivacy } from './post-options.ts';
import { publishPhotos } from './publish-photo.ts';
import { publishVideo, type VideoUploadOptions } from './publish-video.ts';
import { fetchStatus, pollUntilPublished } from './status.ts';
import { mediaShape } from './validate.ts';

/**
 * Continues an earlier attempt's publish, or returns null when it can never become a post and a
 * fresh one is safe. Errors while looking are returned: the engine retries, the checkpoint stays.
 */
async function resume(deps: AdapterDeps, request: PublishRequest, cp: TikTokCheckpoint): Promise<PublishOutcome | null> {
  const token = request.account.accessToken;
  const res = await fetchStatus(deps, token, cp.publishId, request.signal);
  if (!res.ok) return res;
  if (isDeadPublish(cp, res.status)) return null;
  return pollUntilPublished(deps, token, { publishId: cp.publishId, kind: cp.kind, username: request.account.username }, request.signal);
}

export async function publishTikTok(deps: AdapterDeps, options: VideoUploadOptions, request: PublishRequest): Promise<PublishOutcome> {
  const shape = mediaShape(request.media);
  if ('error' in shape) return failure('content_rejected', shape.error.message);
  const settings = readSettings(request.settings);
  const privacy = requirePrivacy(settings);
  if (typeof privacy !== 'string') return privacy;

  const cp = readCheckpoint(request.checkpoint);
  if (cp) {
    const resumed = await resume(deps, request, cp);
    if (resumed) return resumed;
  }

  const info = await queryCreatorInfo(deps, request.account.accessToken, request.signal);
  if (isFailure(info)) return info;
  const refused = checkPrivacy(info.creator, privacy);
  if (refused) return refused;
  // creator_info is the freshest source of the handle the post URL needs.
  const username = info.creator.username ?? request.account.username;

  const common = { deps, request, creator: info.creator, privacy, settings, username };
  if (shape.kind === 'video') return publishVideo({ ...common, options }, shape.video);
  return publishPhotos(common, shape.photos);
}
