// Photo Direct Post: TikTok pulls the images from their URLs (PULL_FROM_URL is the only source photos
// support), so the init call itself is the irreversible step.
import type { AdapterDeps } from '../deps.ts';
import { failure, type MediaItem, type PublishOutcome, type PublishRequest } from '../types.ts';
import { asString, callApi } from './client.ts';
import type { CreatorInfo } from './creator.ts';
import type { PrivacyLevel } from './info.ts';
import { toCheckpoint } from './checkpoint.ts';
import { photoPostInfo } from './post-options.ts';
import type { TikTokSettings } from './settings.ts';
import { pollUntilPublished } from './status.ts';

export interface PhotoJob {
  deps: AdapterDeps;
  request: PublishRequest;
  creator: CreatorInfo;
  privacy: PrivacyLevel;
  settings: TikTokSettings;
  username: string;
}

export async function publishPhotos(job: PhotoJob, photos: MediaItem[]): Promise<PublishOutcome> {
  const res = await callApi(job.deps, {
    method: 'POST',
    path: '/v2/post/publish/content/init/',
    token: job.request.account.accessToken,
    json: {
      media_type: 'PHOTO',
      post_mode: 'DIRECT_POST',
      post_info: photoPostInfo(job.request.content, job.privacy, job.settings, job.creator),
      source_info: { source: 'PULL_FROM_URL', photo_cover_index: 0, photo_images: photos.map((p) => p.url) },
    },
    creates: true,
    signal: job.request.signal,
  });
  if (!res.ok) return res;
  const publishId = asString(res.data.publish_id);
  // TikTok accepted the post but gave no id to follow it by: it may go live, so it cannot be re-sent.
  if (!publishId) return failure('outcome_unknown', 'TikTok accepted the photo post without returning a publish id');
  await job.request.saveCheckpoint(toCheckpoint({ publishId, kind: 'photo' }));
  return pollUntilPublished(job.deps, job.request.account.accessToken, { publishId, kind: 'photo', username: job.username }, job.request.signal);
}
