// PATCH /v1/posts/{id} (API.md section 12): changes a draft or scheduled post before anything of it has
// gone out. The change is checked exactly like a create (the post as it would be after the change), and
// written in one transaction that first re-reads the post under its lock: if the scheduler claimed a
// target meanwhile, the change is refused (409 POST_NOT_EDITABLE) and the post publishes as it was; if
// the change commits first, the claim finds the new targets and the post publishes as changed. Never
// half of each.
import { errors } from '../contract/errors.ts';
import type { NewTarget, PostRow, TargetRow } from '../db/schema.ts';
import type { Writer } from '../db/writer.ts';
import { postScheduled, postUpdated, type CatalogEvent } from '../events/catalog.ts';
import type { ClaimRef, IdempotencyStore } from '../idempotency/idempotency-store.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { Clock } from '../lib/clock.ts';
import type { QueueService } from '../queue/queue-service.ts';
import type { Outbox } from '../webhooks/outbox.ts';
import type { MediaDal } from '../media/media-dal.ts';
import { compose } from './compose.ts';
import { bodyOf } from './stored-body.ts';
import { libraryIdsOf, mediaGone } from './library-media.ts';
import type { PostsDal } from './posts-dal.ts';
import type { PostsService, PublishStarter } from './posts-service.ts';
import { presentPost } from './present.ts';
import type { CreatePlan } from './rules.ts';
import { canonicalTimeZone } from '../lib/time-zone.ts';
import type { CreatePostInput, PostOut } from './schemas.ts';

/** The fields that choose how a post publishes; a PATCH that names one chooses anew. */
const MODE_FIELDS = ['isDraft', 'publishNow', 'scheduledFor', 'queue'] as const;

/** A post that can still change: a draft, or scheduled with no target started. */
function editable(post: PostRow, targets: readonly TargetRow[]): boolean {
  if (post.status !== 'draft' && post.status !== 'scheduled') return false;
  return targets.every((t) => t.status === 'pending' && t.attempts === 0);
}

/** If-Match: "<version>" (quotes and a weak prefix allowed); undefined when absent. */
export function parseIfMatch(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  const m = /^\s*(?:W\/)?"?(\d{1,15})"?\s*$/.exec(header);
  if (!m) throw errors.invalid('If-Match', 'If-Match must be the post\'s version, e.g. "3"');
  return Number(m[1]);
}

export function createUpdateService(deps: {
  write: Writer['write'];
  clock: Clock;
  posts: PostsDal;
  queue: JobQueue;
  outbox: Outbox;
  idempotency: IdempotencyStore;
  service: Pick<PostsService, 'check' | 'checkWith' | 'get'>;
  slots: Pick<QueueService, 'takeSlot'>;
  publisher: PublishStarter;
  publishWaitMs: number;
  mediaUses: Pick<MediaDal, 'setUses'>;
}) {
  const { write, clock, posts, queue, outbox, idempotency, service, slots, publisher, mediaUses } = deps;

  const notEditable = (postId: string) =>
    errors.stateConflict(`post ${postId} can no longer change: a target has started publishing (only drafts and scheduled posts change)`, 'POST_NOT_EDITABLE');

  return {
    /** A post as it is now (the answer to a replayed change whose first answer was lost). */
    get: (apiKeyId: string, postId: string) => service.get(apiKeyId, postId),

    async update(apiKeyId: string, postId: string, patch: CreatePostInput, ifMatch: number | undefined, claim?: ClaimRef): Promise<PostOut> {
      const now = clock.now();
      const found = await posts.get(apiKeyId, postId);
      if (!found) throw errors.notFound(`no post ${postId}`);
      if (ifMatch !== undefined && ifMatch !== found.post.version) throw versionMismatch(found.post.version);
      if (!editable(found.post, found.targets)) throw notEditable(postId);

      // The change, over the post as it is; the lists (platforms, mediaItems) are replaced whole.
      const choosesMode = MODE_FIELDS.some((f) => patch[f] !== undefined);
      const requested: CreatePostInput = { ...bodyOf(found.post, found.targets), ...patch };
      let plan: CreatePlan;
      let merged: CreatePostInput;
      if (choosesMode) {
        ({ plan, body: merged } = await service.check(apiKeyId, requested, now));
      } else {
        // The mode stays: a draft stays a draft, a scheduled post keeps its time (even one a moment
        // past, not yet claimed), a queued post keeps its slot.
        const timezone = patch.timezone === undefined ? found.post.timezone : canonicalTimeZone(patch.timezone);
        if (timezone === null) throw errors.invalid('timezone', `timezone "${patch.timezone}" is not a known IANA time zone name (e.g. Europe/Paris)`);
        plan = { mode: found.post.is_draft === 1 ? 'draft' : 'scheduled', scheduledFor: found.post.scheduled_for, timezone };
        ({ body: merged } = await service.checkWith(apiKeyId, requested, plan));
      }

      const { post: before } = found;
      const result = await write(async (trx) => {
        const current = await posts.getForUpdate(trx, postId);
        if (!current || current.post.api_key_id !== apiKeyId) throw errors.notFound(`no post ${postId}`);
        if (ifMatch !== undefined && ifMatch !== current.post.version) throw versionMismatch(current.post.version);
        if (current.post.version !== before.version || !editable(current.post, current.targets)) {
          // Changed or claimed since it was read: a claimed target means the scheduler won.
          if (!editable(current.post, current.targets)) throw notEditable(postId);
          throw errors.stateConflict(`post ${postId} changed while this request was checking it; read it and try again`, 'CONFLICT');
        }
        const keepSlot = !choosesMode && current.post.queued_slot !== null;
        const placed: CreatePlan =
          plan.mode === 'queue' ? { ...plan, scheduledFor: await slots.takeSlot(trx, apiKeyId, now) } : plan;
        const c = compose({
          apiKeyId,
          body: merged,
          plan: placed,
          now,
          fallbackDelayMs: publisher.fallbackDelayMs,
          id: postId,
          createdAt: current.post.created_at,
          version: current.post.version + 1,
        });
        if (keepSlot) c.post.queued_slot = current.post.queued_slot;
        await posts.replace(trx, c.post, c.targets as NewTarget[]);
        const gone = await mediaUses.setUses(trx, postId, libraryIdsOf(merged), libraryIdsOf(bodyOf(current.post, current.targets)));
        // Files named anew that were deleted since the checks read them: thrown, nothing is written.
        if (gone.length > 0) throw mediaGone(merged, gone);
        const events: CatalogEvent[] = [postUpdated(postId, c.post.version!)];
        const wasAt = current.post.is_draft === 1 ? null : current.post.scheduled_for;
        if (c.post.is_draft === 0 && plan.mode !== 'now' && c.post.scheduled_for !== wasAt) events.push(postScheduled(postId, c.post.scheduled_for!));
        await outbox.record(trx, apiKeyId, events);
        // A moved post needs a job at its new time; the job of the old time finds nothing due and ends.
        await queue.enqueue(trx, c.jobs);
        const answer = plan.mode === 'now' ? null : presentPost(c.post as never, c.targets);
        if (claim && answer) await idempotency.attachAnswer(trx, claim, postId, 200, JSON.stringify(answer));
        else if (claim) await idempotency.attachResource(trx, claim, postId);
        return { composed: c, answer };
      });
      if (claim && result.answer) claim.answered = true;
      queue.nudge();
      if (result.answer) return result.answer;
      publisher.startNow(
        postId,
        result.composed.targets.map((t) => t.id),
      );
      await publisher.waitUntilSettled(postId, deps.publishWaitMs);
      return service.get(apiKeyId, postId);
    },
  };
}

function versionMismatch(current: number) {
  return errors.preconditionFailed(`the post is at version ${current}; read it again and send If-Match: "${current}"`, 'VERSION_MISMATCH');
}

export type UpdateService = ReturnType<typeof createUpdateService>;
