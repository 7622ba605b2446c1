// Edits and unpublishing. An edit changes the description (the post's content) through videos.update,
// which replaces the whole snippet: the title, category and tags are read first and sent back unchanged
// (videos.update refuses a snippet without title and categoryId). The video keeps its id.
import type { AdapterDeps } from '../deps.ts';
import { failure, type EditCapability, type EditRequest, type Outcome, type PublishOutcome, type ReconcileOutcome, type UnpublishRequest } from '../types.ts';
import { asObject, callApi, isFailure, type Json } from './client.ts';
import { DEFAULT_CATEGORY_ID, watchUrl } from './info.ts';
import { fetchVideo } from './processing.ts';
import { matchable } from './reconcile.ts';
import { checkDescription } from './validate.ts';

/** Snippet fields videos.update would clear if they were not sent back. */
const KEPT = ['tags', 'defaultLanguage', 'defaultAudioLanguage'] as const;

export async function editVideo(deps: AdapterDeps, request: EditRequest): Promise<PublishOutcome> {
  const id = request.platformPostId;
  const token = request.account.accessToken;
  const current = await fetchVideo(deps, token, id, 'snippet');
  if (isFailure(current)) return current;
  if (!current.video) return failure('content_rejected', `YouTube no longer has video ${id}`, { platformCode: 'videoNotFound' });
  const old = asObject(current.video.snippet);
  const snippet: Json = { title: old.title, categoryId: old.categoryId ?? DEFAULT_CATEGORY_ID, description: request.content };
  for (const key of KEPT) if (old[key] !== undefined) snippet[key] = old[key];
  const res = await callApi(deps, {
    method: 'PUT',
    path: '/youtube/v3/videos',
    token,
    query: { part: 'snippet' },
    json: { id, snippet },
    creates: true,
  });
  if (!res.ok) return res;
  return { ok: true, platformPostId: id, platformPostUrl: watchUrl(id) };
}

/** Whether an edit whose answer was lost was made: the description reads as the text that was sent. */
export async function findEdit(deps: AdapterDeps, request: EditRequest): Promise<ReconcileOutcome> {
  const current = await fetchVideo(deps, request.account.accessToken, request.platformPostId, 'snippet');
  if (isFailure(current)) return current;
  if (!current.video) return { ok: true, found: false };
  const description = asObject(current.video.snippet).description;
  if (typeof description === 'string' && matchable(description) === matchable(request.content)) {
    return { ok: true, found: true, platformPostId: request.platformPostId, platformPostUrl: watchUrl(request.platformPostId) };
  }
  return { ok: true, found: false };
}

export function youtubeEdit(deps: AdapterDeps): EditCapability {
  return {
    // YouTube sets no edit window and no edit count.
    limits: { windowMs: null, maxEdits: null },
    validate: (content) => checkDescription(content),
    send: (request) => editVideo(deps, request),
    find: (request) => findEdit(deps, request),
  };
}

/** videos.delete (§8.10). A video YouTube no longer has counts as deleted. Deleting twice is harmless. */
export async function deleteVideo(deps: AdapterDeps, request: UnpublishRequest): Promise<Outcome<{ deleted: true }>> {
  const res = await callApi(deps, { method: 'DELETE', path: '/youtube/v3/videos', token: request.account.accessToken, query: { id: request.platformPostId } });
  if (res.ok || res.platformCode === 'videoNotFound') return { ok: true, deleted: true };
  return res;
}
