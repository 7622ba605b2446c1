// The YouTube adapter: Google OAuth for accounts, the resumable upload for posts, videos.update for edits,
// videos.delete for unpublishing, commentThreads.insert for the first comment.
import type { AdapterDeps } from '../deps.ts';
import type { PlatformAdapter, PlatformFailure } from '../types.ts';
import { isFailure } from './client.ts';
import { youtubeComment } from './comment.ts';
import { deleteVideo, youtubeEdit } from './edit.ts';
import { checkHealth, type QuotaWatch } from './health.ts';
import { fetchChannel, toConnectedAccount } from './identity.ts';
import { HERALD_MAX_VIDEO_BYTES, PREFERRED_CHUNK_BYTES, YOUTUBE_INFO } from './info.ts';
import { authorizeUrl, exchangeCode, refreshGrant, revokeAccount } from './oauth.ts';
import { publishYouTube } from './publish.ts';
import { reconcileYouTube } from './reconcile.ts';
import type { UploadOptions } from './upload.ts';

/** Upload tuning; the defaults follow Google's chunk rules. Tests shrink the chunks. */
export type YouTubeAdapterOptions = Partial<UploadOptions>;

export function createYouTubeAdapter(deps: AdapterDeps, options: YouTubeAdapterOptions = {}): PlatformAdapter {
  const upload: UploadOptions = {
    chunkBytes: options.chunkBytes ?? PREFERRED_CHUNK_BYTES,
    maxVideoBytes: options.maxVideoBytes ?? HERALD_MAX_VIDEO_BYTES,
    chunkTimeoutMs: options.chunkTimeoutMs,
  };
  // The quota is the Cloud project's, shared by every account: one quotaExceeded says it for all of them.
  const watch: QuotaWatch = { exhaustedUntil: 0 };
  const watched = <T extends { ok: boolean }>(result: T): T => {
    const f = result as unknown as PlatformFailure;
    if (!result.ok && f.platformCode === 'quotaExceeded' && f.retryAt !== undefined) watch.exhaustedUntil = Math.max(watch.exhaustedUntil, f.retryAt);
    return result;
  };
  const edit = youtubeEdit(deps);
  const comment = youtubeComment(deps);

  return {
    info: YOUTUBE_INFO,

    authorizeUrl: (input) => authorizeUrl(deps, input),

    async connect(input) {
      const grant = await exchangeCode(deps, input);
      if (isFailure(grant)) return grant;
      const channel = await fetchChannel(deps, grant.accessToken);
      if (isFailure(channel)) return channel;
      return { ok: true, accounts: [toConnectedAccount(channel.channel, grant)] };
    },

    async refresh(account) {
      const grant = await refreshGrant(deps, account.refreshToken);
      return isFailure(grant) ? grant : { ok: true, grant };
    },

    revoke: (account) => revokeAccount(deps, account),

    health: async (account) => watched(await checkHealth(deps, account, watch)),

    publish: async (request) => watched(await publishYouTube(deps, upload, request)),

    reconcile: async (request) => watched(await reconcileYouTube(deps, request)),

    edit: {
      limits: edit.limits,
      validate: edit.validate,
      send: async (request) => watched(await edit.send(request)),
      find: async (request) => watched(await edit.find(request)),
    },

    unpublish: async (request) => watched(await deleteVideo(deps, request)),

    comment: {
      send: async (request) => watched(await comment.send(request)),
      find: async (request) => watched(await comment.find(request)),
    },
  };
}
