// The Bluesky adapter: app-password sessions on the account's PDS, posts as app.bsky.feed.post records
// under record keys chosen before each create, reconcile by reading those keys back, first comments as
// replies, and unpublish by deleteRecord. No edit: Bluesky posts are not edited (see docs/platforms/bluesky.md).
import type { AdapterDeps } from '../deps.ts';
import { failure, type PlatformAdapter } from '../types.ts';
import { blueskyComment } from './comment.ts';
import { BLUESKY_INFO } from './info.ts';
import { checkSession, connectWithPassword, deleteSession, refreshSession } from './oauth.ts';
import { publishChain } from './publish.ts';
import { reconcileChain } from './reconcile.ts';
import { createTidSource, type TidSource } from './tid.ts';
import { unpublishChain } from './unpublish.ts';

export interface BlueskyAdapterOptions {
  /** Record keys; tests pass their own to make a key collide on purpose. */
  tids?: TidSource;
}

export function createBlueskyAdapter(deps: AdapterDeps, options: BlueskyAdapterOptions = {}): PlatformAdapter {
  const tids = options.tids ?? createTidSource(deps.clock);
  return {
    info: BLUESKY_INFO,

    // No browser step: Herald's connect service answers GET /v1/connect/bluesky with APP_PASSWORD_REQUIRED.
    authorizeUrl: () => {
      throw new Error('Bluesky connects with an app password (connectWithPassword), not an authorization URL');
    },
    connect: async () => failure('content_rejected', 'Bluesky connects with an app password, not an authorization code'),

    connectWithPassword: (input) => connectWithPassword(deps, input),

    refresh: (account) => refreshSession(deps, account),

    revoke: (account) => deleteSession(deps, account),

    health: (account) => checkSession(deps, account),

    publish: (request) => publishChain(deps, tids, request),

    reconcile: (request) => reconcileChain(deps, request),

    unpublish: (request) => unpublishChain(deps, request),

    comment: blueskyComment(deps, tids),
  };
}
