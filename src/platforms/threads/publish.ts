// Publishing a target: for each post of the thread, create a container, wait for it, check the quota,
// checkpoint, threads_publish. Resumable: a checkpoint from an earlier attempt says which posts are
// already public (never posted again) and which container was about to be published.
import type { AdapterDeps } from '../deps.ts';
import { graphOk } from '../meta/graph-errors.ts';
import { failure, type Outcome, type PlatformFailure, type PublishOutcome, type PublishRequest } from '../types.ts';
import { bodyOf, stringField, type ThreadsApi } from './api.ts';
import { createContainer, readContainerStatus, waitForContainer, type PublishContext } from './containers.ts';
import { containerErrorFailure, containerExpiredFailure, threadsFailure } from './errors.ts';
import { readQuota } from './health.ts';
import { findPost, permalinkOf } from './locate.ts';
import { buildSteps, mediaTypeOf, readCheckpoint, toCheckpoint, type Step, type ThreadsCheckpoint } from './steps.ts';

// Threads does not say when a rolling-window slot frees up; an hour is a cheap interval to look again.
const QUOTA_RECHECK_MS = 60 * 60_000;
// A post cannot be older than its container; a minute of slack covers clock skew.
const CLOCK_SLACK_MS = 60_000;

export function publishContext(deps: AdapterDeps, api: ThreadsApi, request: PublishRequest): PublishContext {
  return {
    deps,
    api,
    userId: request.account.accountId,
    token: request.account.accessToken,
    username: request.account.username,
    signal: request.signal,
  };
}

interface Run {
  ctx: PublishContext;
  request: PublishRequest;
  steps: Step[];
  cp: ThreadsCheckpoint;
  quotaChecked: boolean;
}

export async function threadsPublish(deps: AdapterDeps, api: ThreadsApi, request: PublishRequest): Promise<PublishOutcome> {
  const steps = buildSteps(request);
  const run: Run = { ctx: publishContext(deps, api, request), request, steps, cp: readCheckpoint(request.checkpoint), quotaChecked: false };
  for (let i = run.cp.published.length; i < steps.length; i++) {
    const done = await publishStep(run, steps[i]!);
    if (!done.ok) return done;
  }
  const root = run.cp.published[0];
  if (!root) return failure('content_rejected', 'nothing to publish on Threads');
  return { ok: true, platformPostId: root.id, platformPostUrl: await permalinkOf(run.ctx, root.id) };
}

async function record(run: Run, step: Step, id: string): Promise<Outcome<{ id: string }>> {
  run.cp = { published: [...run.cp.published, { index: step.index, id }] };
  await run.request.saveCheckpoint(toCheckpoint(run.cp));
  return { ok: true, id };
}

function replyToOf(run: Run, step: Step): string | undefined {
  return step.index === 0 ? undefined : run.cp.published[step.index - 1]?.id;
}

/** The pending container is PUBLISHED: find the post it became and record it, never post it again. */
async function adoptPublished(run: Run, step: Step): Promise<Outcome<{ id: string }>> {
  const since = (run.cp.pending?.createdAt ?? run.request.attemptStartedAt) - CLOCK_SLACK_MS;
  const found = await findPost(run.ctx, { text: step.text, replyToId: replyToOf(run, step), notBefore: since, mediaType: mediaTypeOf(step) });
  if (!found.ok) return found;
  if (!found.post) {
    return failure('outcome_unknown', 'Threads shows the post as published but does not list it yet; it will be looked up again');
  }
  return record(run, step, found.post.id);
}

async function publishStep(run: Run, step: Step): Promise<Outcome<{ id: string }>> {
  const { ctx } = run;
  let containerId: string | undefined;
  if (run.cp.pending) {
    const read = await readContainerStatus(ctx, run.cp.pending.containerId);
    if (!read.ok) return read;
    if (read.status === 'PUBLISHED') return adoptPublished(run, step);
    // ERROR and EXPIRED containers are dead but harmless: a new one is tried (the file behind the URL
    // may have been fixed since), and a file still refused fails that one.
    if (read.status === 'FINISHED' || read.status === 'IN_PROGRESS') containerId = run.cp.pending.containerId;
  }
  if (!containerId) {
    const created = await createContainer(ctx, step, replyToOf(run, step));
    if (!created.ok) return created;
    containerId = created.containerId;
    run.cp = { published: run.cp.published, pending: { index: step.index, containerId, createdAt: ctx.deps.clock.now() } };
    await run.request.saveCheckpoint(toCheckpoint(run.cp));
  }
  const ready = await waitForContainer(ctx, containerId);
  if (!ready.ok) return ready;
  if (ready.status === 'PUBLISHED') return adoptPublished(run, step);

  if (!run.quotaChecked) {
    const quota = await checkQuota(run);
    if (quota) return quota;
    run.quotaChecked = true;
  }

  const res = await ctx.api.post(`${ctx.userId}/threads_publish`, ctx.token, { creation_id: containerId }, ctx.signal);
  if (!graphOk(res)) {
    const f = threadsFailure(res, ctx.deps.clock.now(), 'Threads publish', 'publish');
    // The publishing-limit error code is undocumented; a throttle answer may be it, so look.
    if (f.category === 'rate_limited') return (await checkQuota(run)) ?? f;
    return f;
  }
  const id = stringField(bodyOf(res).id);
  if (id) return record(run, step, id);
  return afterMissingId(run, step, containerId);
}

/** Per the Threads troubleshooting guide: no media id back means "ask the container what happened". */
async function afterMissingId(run: Run, step: Step, containerId: string): Promise<Outcome<{ id: string }>> {
  const read = await readContainerStatus(run.ctx, containerId);
  if (!read.ok) return { ...read, category: 'outcome_unknown', message: `Threads publish answered without an id; ${read.message}` };
  switch (read.status) {
    case 'PUBLISHED':
      return adoptPublished(run, step);
    case 'ERROR':
      return containerErrorFailure(read.errorMessage);
    case 'EXPIRED':
      return containerExpiredFailure();
    default:
      return failure('platform_unavailable', `Threads publish answered without an id and the container is still ${read.status}; nothing was posted`);
  }
}

/** Refuses to start when the posts or replies still to publish do not fit the rolling 24-hour quota. */
async function checkQuota(run: Run): Promise<PlatformFailure | undefined> {
  const { ctx, steps, cp } = run;
  const postsLeft = cp.published.length === 0 ? 1 : 0;
  const repliesLeft = steps.length - Math.max(1, cp.published.length);
  const read = await readQuota(ctx.deps, ctx.api, { accountId: ctx.userId, accessToken: ctx.token }, { posts: postsLeft > 0, replies: repliesLeft > 0 }, ctx.signal);
  if (!read.ok) return read;
  const retryAt = ctx.deps.clock.now() + QUOTA_RECHECK_MS;
  const { posts, replies } = read.quota;
  if (posts && posts.used + postsLeft > posts.total) {
    return failure('quota_exceeded', `Threads allows ${posts.total} API-published posts per 24 hours and ${posts.used} are used`, { retryAt, platformCode: 'quota_usage' });
  }
  if (replies && replies.used + repliesLeft > replies.total) {
    return failure('quota_exceeded', `this thread needs ${repliesLeft} replies but only ${Math.max(0, replies.total - replies.used)} of ${replies.total} are left for 24 hours`, {
      retryAt,
      platformCode: 'reply_quota_usage',
    });
  }
  return undefined;
}
