// The LinkedIn adapter: OAuth, the member and their Pages, publishing, reconcile, edit, unpublish and the
// first comment, behind the PlatformAdapter contract.
import type { AdapterDeps } from '../deps.ts';
import type { PlatformAdapter } from '../types.ts';
import { linkedInComment } from './comment.ts';
import { linkedInEdit, unpublishPost } from './edit.ts';
import { checkHealth } from './health.ts';
import { accountsOf } from './identity.ts';
import { LINKEDIN_INFO } from './info.ts';
import { authorizeUrl, exchangeCode, refreshGrant, revokeAccount } from './oauth.ts';
import { publishLinkedIn } from './publish.ts';
import { reconcileLinkedIn } from './reconcile.ts';

export function createLinkedInAdapter(deps: AdapterDeps): PlatformAdapter {
  return {
    info: LINKEDIN_INFO,

    authorizeUrl: (input) => authorizeUrl(deps, input),

    async connect(input) {
      const grant = await exchangeCode(deps, input);
      if ('ok' in grant) return grant;
      return accountsOf(deps, grant);
    },

    refresh: (account) => refreshGrant(deps, account),

    revoke: (account) => revokeAccount(deps, account),

    health: (account) => checkHealth(deps, account),

    publish: (request) => publishLinkedIn(deps, request),

    reconcile: (request) => reconcileLinkedIn(deps, request),

    edit: linkedInEdit(deps),

    unpublish: (request) => unpublishPost(deps, request),

    comment: linkedInComment(deps),
  };
}
