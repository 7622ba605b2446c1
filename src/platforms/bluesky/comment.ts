// The first comment (platformSpecificData.firstComment): a reply by the same account to the published post,
// with reply refs {root, parent} both pointing at the post (uri and cid, read back from the repository).
// Like a publish: its key is chosen and saved before the create, and `find` reads that key back.
import type { AdapterDeps } from '../deps.ts';
import { failure, type CommentCapability, type CommentRequest, type FindCommentOutcome, type PlatformFailure } from '../types.ts';
import { planCheckpoint, readCommentPlan, type PlannedPost } from './checkpoint.ts';
import { composePost } from './compose.ts';
import { didOf, POST_COLLECTION, rkeyOf } from './info.ts';
import { repoContext } from './publish.ts';
import { createPost, isOurs, KEY_TAKEN, readPost, type RepoContext, type StrongRef } from './records.ts';
import { langsOf } from './thread.ts';
import type { TidSource } from './tid.ts';

/** The strong ref (uri + cid) of the post being replied to. */
async function rootRef(ctx: RepoContext, uri: string): Promise<{ ok: true; ref: StrongRef } | PlatformFailure> {
  const repo = didOf(uri);
  if (!repo || !uri.includes(`/${POST_COLLECTION}/`)) return failure('content_rejected', `${uri} is not a Bluesky post`);
  const back = await readPost(ctx, repo, rkeyOf(uri));
  if (!back.ok) return back;
  if (!back.found) return failure('content_rejected', `the post ${uri} is no longer on Bluesky, so the comment has nothing to reply to`);
  return { ok: true, ref: back.ref };
}

async function find(deps: AdapterDeps, request: CommentRequest): Promise<FindCommentOutcome> {
  const planned = readCommentPlan(request.checkpoint);
  if (!planned) return { ok: true, found: false };
  if (planned.ref) return { ok: true, found: true, platformCommentId: planned.ref.uri };
  const ctx = repoContext(deps, request);
  const back = await readPost(ctx, ctx.repo, planned.rkey);
  if (!back.ok) return back;
  // Absent, or another post under the same key (send then chooses a new one).
  if (!back.found || !isOurs(back.value, request.content)) return { ok: true, found: false };
  await request.saveCheckpoint(planCheckpoint([{ rkey: planned.rkey, ref: back.ref }]));
  return { ok: true, found: true, platformCommentId: back.ref.uri };
}

async function send(deps: AdapterDeps, tids: TidSource, request: CommentRequest) {
  const earlier = await find(deps, request);
  if (!earlier.ok) return earlier;
  if (earlier.found === true) return { ok: true as const, platformCommentId: earlier.platformCommentId };
  const ctx = repoContext(deps, request);
  const root = await rootRef(ctx, request.platformPostId);
  if (!root.ok) return root;
  const langs = langsOf(request.settings);
  const composed = await composePost(
    { deps, server: ctx.server, token: ctx.token, now: deps.clock.now(), ...(ctx.signal ? { signal: ctx.signal } : {}) },
    { text: request.content, media: [], ...(langs ? { langs } : {}), reply: { root: root.ref, parent: root.ref }, where: '' },
  );
  if (!composed.ok) return composed;
  let planned: PlannedPost = readCommentPlan(request.checkpoint) ?? { rkey: tids.next() };
  await request.saveCheckpoint(planCheckpoint([planned]));
  let created = await createPost(ctx, planned.rkey, composed.record, 'Bluesky refused the first comment');
  if (!created.ok && created.platformCode === KEY_TAKEN) {
    planned = { rkey: tids.next() };
    await request.saveCheckpoint(planCheckpoint([planned]));
    created = await createPost(ctx, planned.rkey, composed.record, 'Bluesky refused the first comment');
  }
  if (!created.ok) return created;
  await request.saveCheckpoint(planCheckpoint([{ rkey: planned.rkey, ref: created.ref }]));
  return { ok: true as const, platformCommentId: created.ref.uri };
}

export function blueskyComment(deps: AdapterDeps, tids: TidSource): CommentCapability {
  return {
    send: (request) => send(deps, tids, request),
    find: (request) => find(deps, request),
  };
}
