// Media containers: created from public media URLs (Threads fetches them itself), processed
// asynchronously, then published. Nothing here makes a post public.
import type { AdapterDeps } from '../deps.ts';
import { graphOk } from '../meta/graph-errors.ts';
import { failure, type MediaItem, type Outcome } from '../types.ts';
import { bodyOf, stringField, type Query, type ThreadsApi } from './api.ts';
import { containerErrorFailure, containerExpiredFailure, threadsFailure } from './errors.ts';
import type { Step } from './steps.ts';

export interface PublishContext {
  deps: AdapterDeps;
  api: ThreadsApi;
  userId: string;
  token: string;
  username: string;
  signal?: AbortSignal;
}

export type ContainerStatus = 'IN_PROGRESS' | 'FINISHED' | 'PUBLISHED' | 'ERROR' | 'EXPIRED';
const STATUSES: readonly string[] = ['IN_PROGRESS', 'FINISHED', 'PUBLISHED', 'ERROR', 'EXPIRED'];

export async function readContainerStatus(
  ctx: PublishContext,
  containerId: string,
): Promise<Outcome<{ status: ContainerStatus; errorMessage?: string }>> {
  const res = await ctx.api.get(containerId, ctx.token, { fields: 'id,status,error_message' }, ctx.signal);
  if (!graphOk(res)) return threadsFailure(res, ctx.deps.clock.now(), 'Threads container status');
  const body = bodyOf(res);
  const status = stringField(body.status);
  if (!status || !STATUSES.includes(status)) {
    return failure('platform_unavailable', `Threads container status is unreadable (${status ?? 'missing'})`, { httpStatus: res.status });
  }
  return { ok: true, status: status as ContainerStatus, errorMessage: stringField(body.error_message) };
}

/**
 * Polls until the container can be published. PUBLISHED is returned as is (an earlier attempt got
 * there first); ERROR and EXPIRED become failures.
 */
export async function waitForContainer(ctx: PublishContext, containerId: string): Promise<Outcome<{ status: 'FINISHED' | 'PUBLISHED' }>> {
  const { clock, timing } = ctx.deps;
  const deadline = clock.now() + timing.maxProcessingMs;
  for (;;) {
    const read = await readContainerStatus(ctx, containerId);
    if (!read.ok) return read;
    switch (read.status) {
      case 'FINISHED':
      case 'PUBLISHED':
        return { ok: true, status: read.status };
      case 'ERROR':
        return containerErrorFailure(read.errorMessage);
      case 'EXPIRED':
        return containerExpiredFailure();
      case 'IN_PROGRESS':
        break;
    }
    if (clock.now() >= deadline) {
      return failure('platform_unavailable', `Threads is still processing the media after ${Math.round(timing.maxProcessingMs / 1000)} s; will try again`);
    }
    try {
      await clock.sleep(timing.pollIntervalMs, ctx.signal);
    } catch {
      // Cancelled by the caller: nothing was published while waiting.
      return failure('platform_unavailable', 'publishing was cancelled while Threads processed the media');
    }
  }
}

async function postContainer(ctx: PublishContext, form: Query): Promise<Outcome<{ containerId: string }>> {
  const res = await ctx.api.post(`${ctx.userId}/threads`, ctx.token, form, ctx.signal);
  if (!graphOk(res)) return threadsFailure(res, ctx.deps.clock.now(), 'Threads container');
  const containerId = stringField(bodyOf(res).id);
  if (!containerId) return failure('platform_unavailable', 'Threads created a container without answering its id', { httpStatus: res.status });
  return { ok: true, containerId };
}

/** An image's or video's container fields; alt_text is taken on both (Threads API, Accessibility). */
function mediaFields(item: MediaItem): Query {
  const alt = item.altText ? { alt_text: item.altText } : {};
  return item.type === 'video' ? { media_type: 'VIDEO', video_url: item.url, ...alt } : { media_type: 'IMAGE', image_url: item.url, ...alt };
}

/**
 * Creates the container for one post of the thread. Carousel children are waited for before the
 * parent is created, so a refused file is reported as that file's failure.
 */
export async function createContainer(ctx: PublishContext, step: Step, replyToId: string | undefined): Promise<Outcome<{ containerId: string }>> {
  const common: Query = {
    text: step.text.length > 0 ? step.text : undefined,
    reply_to_id: replyToId,
    reply_control: step.replyControl,
    topic_tag: step.topicTag,
  };
  const [first] = step.media;
  if (!first) {
    if (step.text.trim() === '') return failure('content_rejected', 'a Threads post needs text or media');
    return postContainer(ctx, { ...common, media_type: 'TEXT' });
  }
  if (step.media.length === 1) return postContainer(ctx, { ...common, ...mediaFields(first) });

  const children: string[] = [];
  for (const item of step.media) {
    const child = await postContainer(ctx, { ...mediaFields(item), is_carousel_item: true });
    if (!child.ok) return child;
    children.push(child.containerId);
  }
  for (const id of children) {
    const ready = await waitForContainer(ctx, id);
    if (!ready.ok) return ready;
  }
  return postContainer(ctx, { ...common, media_type: 'CAROUSEL', children: children.join(',') });
}
