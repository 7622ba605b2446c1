// Editing a post: X creates a new version with a new id (POST /2/tweets with edit_options).
// Eligibility (paid subscription, own post, time window, 5 edits) is X's to enforce; Herald checks
// its own records first and X's refusal comes back as a failure.
import type { AdapterDeps } from '../deps.ts';
import { failure, type EditRequest, type PublishOutcome } from '../types.ts';
import { callX, idOf } from './api.ts';
import { isSuccess, xFailure } from './errors.ts';
import { postUrl } from './info.ts';

export async function editPost(deps: AdapterDeps, request: EditRequest): Promise<PublishOutcome> {
  const res = await callX(deps, {
    method: 'POST',
    path: '/2/tweets',
    token: request.account.accessToken,
    body: { json: { text: request.content, edit_options: { previous_post_id: request.platformPostId } } },
  });
  const label = 'X refused the edit';
  if (!isSuccess(res)) return xFailure(res, deps.clock.now(), label, { creates: true });
  const id = idOf(res.body);
  if (!id) return failure('outcome_unknown', `${label}: X answered ${res.status} without a post id`, { httpStatus: res.status });
  return { ok: true, platformPostId: id, platformPostUrl: postUrl(request.account.username, id) };
}
