// The TikTok adapter: Login Kit v2 for accounts, the Content Posting API (Direct Post) for posts.
import type { AdapterDeps } from '../deps.ts';
import type { AccountMeta, ConnectedAccount, PlatformAdapter } from '../types.ts';
import { isFailure } from './client.ts';
import { creatorMeta, queryCreatorInfo } from './creator.ts';
import { MAX_VIDEO_BYTES, PREFERRED_CHUNK_BYTES, TIKTOK_CHUNK_RULES, TIKTOK_INFO } from './info.ts';
import { authorizeUrl, exchangeCode, fetchUser, refreshGrant, revokeAccount } from './oauth.ts';
import { publishTikTok } from './publish.ts';
import type { VideoUploadOptions } from './publish-video.ts';
import { reconcileTikTok } from './reconcile.ts';

/** Upload tuning; the defaults follow TikTok's media transfer rules. Tests shrink the chunks. */
export type TikTokAdapterOptions = Partial<VideoUploadOptions>;

export function createTikTokAdapter(deps: AdapterDeps, options: TikTokAdapterOptions = {}): PlatformAdapter {
  const upload: VideoUploadOptions = {
    chunkRules: options.chunkRules ?? TIKTOK_CHUNK_RULES,
    preferredChunkBytes: options.preferredChunkBytes ?? PREFERRED_CHUNK_BYTES,
    maxVideoBytes: options.maxVideoBytes ?? MAX_VIDEO_BYTES,
    chunkTimeoutMs: options.chunkTimeoutMs,
  };

  return {
    info: TIKTOK_INFO,

    authorizeUrl: (input) => authorizeUrl(deps, input),

    async connect(input) {
      const exchanged = await exchangeCode(deps, input);
      if (isFailure(exchanged)) return exchanged;
      const { grant } = exchanged;
      const who = await fetchUser(deps, grant.accessToken, grant.scopes);
      if (isFailure(who)) return who;
      let meta: AccountMeta = {};
      let creatorUsername: string | undefined;
      const creator = await queryCreatorInfo(deps, grant.accessToken);
      if (!isFailure(creator)) {
        meta = creatorMeta(creator.creator);
        creatorUsername = creator.creator.username;
      } else if (creator.category !== 'permission_missing') {
        return creator;
      }
      // Without video.publish there are no creator options; health reports the missing scope.
      const account: ConnectedAccount = {
        accountId: who.user.openId,
        username: who.user.username ?? creatorUsername ?? who.user.displayName ?? who.user.openId,
        grant,
        meta,
      };
      if (who.user.displayName) account.displayName = who.user.displayName;
      if (who.user.avatarUrl) account.avatarUrl = who.user.avatarUrl;
      return { ok: true, accounts: [account] };
    },

    async refresh(account) {
      const renewed = await refreshGrant(deps, account.refreshToken);
      return isFailure(renewed) ? renewed : { ok: true, grant: renewed.grant };
    },

    revoke: (account) => revokeAccount(deps, account),

    async health(account) {
      const who = await fetchUser(deps, account.accessToken, account.scopes);
      if (isFailure(who)) return who;
      const creator = await queryCreatorInfo(deps, account.accessToken);
      // A creator_info hiccup does not make a working token unhealthy; the stored meta stays.
      return {
        ok: true,
        permissions: account.scopes,
        expiresAt: account.expiresAt,
        ...(isFailure(creator) ? {} : { meta: creatorMeta(creator.creator) }),
      };
    },

    publish: (request) => publishTikTok(deps, upload, request),

    reconcile: (request) => reconcileTikTok(deps, request),
  };
}
