// Facebook Pages through Facebook Login and the Graph API. Capabilities: the first comment, edits and
// unpublish.
import type { AdapterDeps } from '../deps.ts';
import type { PlatformAdapter } from '../types.ts';
import { createGraph } from '../meta/graph.ts';
import { dialogUrl } from '../meta/login.ts';
import { facebookComment } from './comment.ts';
import { videoBase, type FacebookContext } from './common.ts';
import { facebookEdit } from './edit.ts';
import { FACEBOOK_SCOPES, facebookInfo } from './info.ts';
import { connectFacebook, facebookHealth, refreshFacebook, revokeFacebook } from './oauth.ts';
import { publishFacebook } from './publish.ts';
import { reconcileFacebook } from './reconcile.ts';
import { unpublishFacebook } from './unpublish.ts';

export function createFacebookAdapter(deps: AdapterDeps): PlatformAdapter {
  const graph = createGraph(deps);
  const ctx: FacebookContext = { deps, graph, videoGraph: createGraph(deps, videoBase(deps)) };
  return {
    info: facebookInfo,
    authorizeUrl: (input) => dialogUrl(deps, FACEBOOK_SCOPES, input),
    connect: (input) => connectFacebook(ctx, input),
    refresh: (account) => refreshFacebook(ctx, account),
    revoke: (account) => revokeFacebook(ctx, account),
    health: (account) => facebookHealth(ctx, account),
    publish: (request) => publishFacebook(ctx, request),
    reconcile: (request) => reconcileFacebook(ctx, request),
    edit: facebookEdit(ctx),
    unpublish: (request) => unpublishFacebook(ctx, request),
    comment: facebookComment(ctx),
  };
}
