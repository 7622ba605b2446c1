// The Pinterest adapter: OAuth 2.0 with continuous refresh tokens for accounts, POST /v5/pins for
// image, carousel and video Pins, the board's Pins for reconciling, DELETE /v5/pins/{id} to unpublish.
// No edit (PATCH /v5/pins/{id} is a beta not open to all apps, and API.md §12 does not list Pinterest)
// and no first comment (Pinterest has no comment API).
import type { AdapterDeps } from '../deps.ts';
import type { PlatformAdapter } from '../types.ts';
import { isFailure } from './client.ts';
import { accountMeta, fetchAccount, fetchBoards } from './identity.ts';
import { PINTEREST_INFO, VIDEO_RULES } from './info.ts';
import { DEFAULT_LOCATE, reconcilePinterest, type LocateOptions } from './locate.ts';
import { authorizeUrl, exchangeCode, refreshGrant } from './oauth.ts';
import { DEFAULT_BASE64_MAX, publishPinterest, type PublishOptions } from './publish.ts';
import { unpublishPin } from './unpublish.ts';
import type { VideoOptions } from './video.ts';

/** Tuning; the defaults follow Pinterest's rules. Tests shrink pages and limits. */
export interface PinterestAdapterOptions {
  video?: Partial<VideoOptions>;
  locate?: Partial<LocateOptions>;
  base64MaxTotalBytes?: number;
}

export function createPinterestAdapter(deps: AdapterDeps, options: PinterestAdapterOptions = {}): PlatformAdapter {
  const publishOptions: PublishOptions = {
    video: { maxVideoBytes: VIDEO_RULES.maxBytes, ...options.video },
    locate: { ...DEFAULT_LOCATE, ...options.locate },
    base64MaxTotalBytes: options.base64MaxTotalBytes ?? DEFAULT_BASE64_MAX,
  };

  /** The boards, for the account's meta; a failure to list them never fails the caller (health names missing scopes). */
  async function boardsFor(token: string) {
    const boards = await fetchBoards(deps, token);
    return isFailure(boards) ? undefined : boards.boards;
  }

  return {
    info: PINTEREST_INFO,

    authorizeUrl: (input) => authorizeUrl(deps, input),

    async connect(input) {
      const exchanged = await exchangeCode(deps, input);
      if (isFailure(exchanged)) return exchanged;
      const { grant } = exchanged;
      const who = await fetchAccount(deps, grant.accessToken);
      if (isFailure(who)) return who;
      const { account } = who;
      return {
        ok: true,
        accounts: [
          {
            accountId: account.id,
            username: account.username,
            displayName: account.displayName,
            ...(account.avatarUrl ? { avatarUrl: account.avatarUrl } : {}),
            grant,
            meta: accountMeta(account, await boardsFor(grant.accessToken)),
          },
        ],
      };
    },

    async refresh(account) {
      const renewed = await refreshGrant(deps, account.refreshToken);
      if (isFailure(renewed)) return renewed;
      // The answer always names the scopes (OpenAPI: required); should one come without, keep the known ones.
      const grant = renewed.grant.scopes.length > 0 ? renewed.grant : { ...renewed.grant, scopes: account.scopes };
      return { ok: true, grant };
    },

    // PINTEREST_INFO.supportsRevoke is false: Pinterest revokes only system users' tokens.
    revoke: async () => ({ ok: true, revoked: false }),

    async health(account) {
      const who = await fetchAccount(deps, account.accessToken);
      if (isFailure(who)) return who;
      return { ok: true, permissions: account.scopes, expiresAt: account.expiresAt, meta: accountMeta(who.account, await boardsFor(account.accessToken)) };
    },

    publish: (request) => publishPinterest(deps, publishOptions, request),

    reconcile: (request) => reconcilePinterest(deps, publishOptions.locate, request),

    unpublish: (request) => unpublishPin(deps, request),
  };
}
