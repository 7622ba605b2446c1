// Instagram professional accounts through Facebook Login (Instagram API with Facebook Login). Uses the
// Facebook app's configuration: same Graph URL, same consent dialog. Capabilities: the first comment.
import type { AdapterDeps } from '../deps.ts';
import type { PlatformAdapter } from '../types.ts';
import { createGraph } from '../meta/graph.ts';
import { dialogUrl } from '../meta/login.ts';
import { instagramComment } from './comment.ts';
import { INSTAGRAM_SCOPES, instagramInfo } from './info.ts';
import type { InstagramContext } from './lookup.ts';
import { connectInstagram, instagramHealth, refreshInstagram, revokeInstagram } from './oauth.ts';
import { publishInstagram } from './publish.ts';
import { reconcileInstagram } from './reconcile.ts';

export function createInstagramAdapter(deps: AdapterDeps): PlatformAdapter {
  const ctx: InstagramContext = { deps, graph: createGraph(deps) };
  return {
    info: instagramInfo,
    authorizeUrl: (input) => dialogUrl(deps, INSTAGRAM_SCOPES, input),
    connect: (input) => connectInstagram(ctx, input),
    refresh: (account) => refreshInstagram(ctx, account),
    revoke: (account) => revokeInstagram(ctx, account),
    health: (account) => instagramHealth(ctx, account),
    publish: (request) => publishInstagram(ctx, request),
    reconcile: (request) => reconcileInstagram(ctx, request),
    // No edit (a published caption cannot be changed through the API: IG Media updates take only
    // comment_enabled) and no unpublish (IG Media has no delete): the engine answers EDIT_NOT_SUPPORTED
    // and UNPUBLISH_NOT_SUPPORTED.
    comment: instagramComment(ctx),
  };
}
