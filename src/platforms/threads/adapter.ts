// The Threads adapter: wiring only; each use case lives in its own file. Capabilities: the first comment
// (a reply) and unpublish. No edit: the Threads API has no call that changes a published post.
import type { AdapterDeps } from '../deps.ts';
import type { PlatformAdapter } from '../types.ts';
import { createThreadsApi } from './api.ts';
import { threadsComment } from './comment.ts';
import { threadsHealth } from './health.ts';
import { THREADS_INFO } from './info.ts';
import { threadsAuthorizeUrl, threadsConnect, threadsRefresh } from './oauth.ts';
import { threadsPublish } from './publish.ts';
import { threadsReconcile } from './reconcile.ts';
import { threadsUnpublish } from './unpublish.ts';

export function createThreadsAdapter(deps: AdapterDeps): PlatformAdapter {
  const api = createThreadsApi(deps);
  return {
    info: THREADS_INFO,
    authorizeUrl: (input) => threadsAuthorizeUrl(deps, input),
    connect: (input) => threadsConnect(deps, api, input),
    refresh: (account) => threadsRefresh(deps, api, account),
    // Threads documents no revoke call: the grant ends when the user removes the app, or after 60
    // days without a refresh. Herald deletes its copy of the token either way.
    revoke: async () => ({ ok: true, revoked: false }),
    health: (account) => threadsHealth(deps, api, account),
    publish: (request) => threadsPublish(deps, api, request),
    reconcile: (request) => threadsReconcile(deps, api, request),
    unpublish: (request) => threadsUnpublish(deps, api, request),
    comment: threadsComment(deps, api),
  };
}
