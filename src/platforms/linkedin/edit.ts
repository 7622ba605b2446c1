// Editing and deleting a published post (API.md section 12). An edit is a PARTIAL_UPDATE that sets the
// commentary; the post keeps its URN. Setting the same text twice changes nothing, so where LinkedIn
// will not let this app read the post (a member's own posts), "did the edit happen?" is answered by
// making sure it did: the set is sent again.
import type { AdapterDeps } from '../deps.ts';
import { failure, type EditCapability, type EditRequest, type Outcome, type PublishOutcome, type ReconcileOutcome, type UnpublishRequest } from '../types.ts';
import { asObject, asString, callRest, encodeUrn } from './api.ts';
import { isSuccess, linkedInFailure } from './errors.ts';
import { postUrl } from './info.ts';
import { escapeLittleText } from './little-text.ts';
import { canReadPosts, matchableText } from './reconcile.ts';
import { checkCommentary } from './validate.ts';

export async function editPost(deps: AdapterDeps, request: EditRequest): Promise<PublishOutcome> {
  const res = await callRest(deps, {
    method: 'POST',
    path: `/rest/posts/${encodeUrn(request.platformPostId)}`,
    token: request.account.accessToken,
    restliMethod: 'PARTIAL_UPDATE',
    json: { patch: { $set: { commentary: escapeLittleText(request.content) } } },
  });
  if (!isSuccess(res)) return linkedInFailure(res, deps.clock.now(), 'LinkedIn refused the edit', { creates: true });
  return { ok: true, platformPostId: request.platformPostId, platformPostUrl: postUrl(request.platformPostId) };
}

export async function findEdit(deps: AdapterDeps, request: EditRequest): Promise<ReconcileOutcome> {
  if (canReadPosts(request.account.accountId, request.account.scopes)) {
    const res = await callRest(deps, { method: 'GET', path: `/rest/posts/${encodeUrn(request.platformPostId)}`, token: request.account.accessToken });
    // The post is gone, and the edit with it: nothing to find.
    if (res.sent === true && res.status === 404) return { ok: true, found: false };
    if (isSuccess(res)) {
      const text = asString(asObject(res.body).commentary) ?? '';
      if (matchableText(text) !== matchableText(request.content)) return { ok: true, found: false };
      return { ok: true, found: true, platformPostId: request.platformPostId, platformPostUrl: postUrl(request.platformPostId) };
    }
    if (!(res.sent === true && res.status === 403)) return linkedInFailure(res, deps.clock.now(), 'LinkedIn post lookup failed');
  }
  const again = await editPost(deps, request);
  if (!again.ok) return again.category === 'outcome_unknown' ? { ok: true, found: 'unknown', message: again.message } : again;
  return { ok: true, found: true, platformPostId: again.platformPostId, platformPostUrl: again.platformPostUrl };
}

/** LinkedIn sets no window and no count on edits; the text obeys the commentary limit. */
export function linkedInEdit(deps: AdapterDeps): EditCapability {
  return {
    limits: { windowMs: null, maxEdits: null },
    validate: (content) => checkCommentary(content),
    send: (request) => editPost(deps, request),
    find: (request) => findEdit(deps, request),
  };
}

/** DELETE is idempotent at LinkedIn (204 again); a post it no longer has counts as deleted. */
export async function unpublishPost(deps: AdapterDeps, request: UnpublishRequest): Promise<Outcome<{ deleted: true }>> {
  const res = await callRest(deps, {
    method: 'DELETE',
    path: `/rest/posts/${encodeUrn(request.platformPostId)}`,
    token: request.account.accessToken,
    restliMethod: 'DELETE',
  });
  if (isSuccess(res) || (res.sent === true && res.status === 404)) return { ok: true, deleted: true };
  if (res.sent === 'unknown') return failure('platform_unavailable', `LinkedIn did not answer the delete; sending it again is safe (${res.error})`);
  return linkedInFailure(res, deps.clock.now(), 'LinkedIn refused to delete the post');
}
