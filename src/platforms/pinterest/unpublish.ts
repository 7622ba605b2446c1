// Unpublishing deletes the Pin (DELETE /v5/pins/{id}, §9.8). A Pin Pinterest no longer has counts as
// deleted; a 404 is believed only when it is Pinterest's own "Pin not found" (code 50 or 404), not
// any 404 (a wrong API URL answers 404 too).
import type { AdapterDeps } from '../deps.ts';
import { failure, type Outcome, type UnpublishRequest } from '../types.ts';
import { callApi } from './client.ts';

export async function unpublishPin(deps: AdapterDeps, request: UnpublishRequest): Promise<Outcome<{ deleted: true }>> {
  if (!/^\d+$/.test(request.platformPostId)) {
    return failure('content_rejected', `"${request.platformPostId.slice(0, 40)}" is not a Pinterest Pin id`);
  }
  const res = await callApi(deps, {
    method: 'DELETE',
    path: `/v5/pins/${request.platformPostId}`,
    token: request.account.accessToken,
    doing: 'deleting the Pin',
  });
  if (res.ok) return { ok: true, deleted: true };
  if (res.httpStatus === 404 && (res.platformCode === '50' || res.platformCode === '404')) return { ok: true, deleted: true };
  return res;
}
