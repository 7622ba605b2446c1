// The X adapter: wires OAuth, identity, publishing, reconcile and edit behind the
// PlatformAdapter contract.
import type { AdapterDeps } from '../deps.ts';
import type { PlatformAdapter } from '../types.ts';
import { twitterComment } from './comment.ts';
import { twitterEdit } from './edit.ts';
import { fetchMe, toConnectedAccount, userMeta } from './identity.ts';
import { twitterInfo } from './info.ts';
import { buildAuthorizeUrl, exchangeCode, refreshGrant, revokeTokens } from './oauth.ts';
import { publishChain } from './publish.ts';
import { reconcileChain } from './reconcile.ts';
import { unpublishChain } from './unpublish.ts';

export function createTwitterAdapter(deps: AdapterDeps): PlatformAdapter {
  return {
    info: twitterInfo,

    authorizeUrl: (input) => buildAuthorizeUrl(deps, input),

    async connect(input) {
      const exchanged = await exchangeCode(deps, input);
      if (!exchanged.ok) return exchanged;
      const me = await fetchMe(deps, exchanged.grant.accessToken);
      if (!me.ok) return me;
      return { ok: true, accounts: [toConnectedAccount(me.user, exchanged.grant)] };
    },

    refresh: (account) => refreshGrant(deps, account),

    revoke: (account) => revokeTokens(deps, account),

    async health(account) {
      const me = await fetchMe(deps, account.accessToken);
      if (!me.ok) return me;
      return { ok: true, permissions: account.scopes, expiresAt: account.expiresAt, meta: userMeta(me.user) };
    },

    publish: (request) => publishChain(deps, request),

    reconcile: (request) => reconcileChain(deps, request),

    edit: twitterEdit(deps),

    unpublish: (request) => unpublishChain(deps, request),

    comment: twitterComment(deps),
  };
}
