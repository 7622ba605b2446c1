// Posts use cases: create (with every create-time rule), get, list and delete. Publishing itself belongs
// to the publishing engine; this service hands it the work in the same transaction that stores the post.
import type { AccountsDal } from '../accounts/accounts-dal.ts';
import type { NewPost, NewTarget, TargetRow } from '../db/schema.ts';
import type { Writer } from '../db/writer.ts';
import { errors } from '../contract/errors.ts';
import type { ClaimRef, IdempotencyStore } from '../idempotency/idempotency-store.ts';
import type { Clock } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import { fromJson, toJson } from '../lib/json.ts';
import type { EnqueueJob, JobQueue } from '../jobs/queue.ts';
import type { PlatformDescriptor } from '../platforms/descriptor.ts';
import type { AccountMeta } from '../platforms/types.ts';
import type { Platform } from '../platforms/registry.ts';
import { postDeleted, postScheduled, type CatalogEvent } from '../events/catalog.ts';
import type { Outbox } from '../webhooks/outbox.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import type { PostsDal } from './posts-dal.ts';
import { postSettingsOf } from './post-settings.ts';
import { presentPost } from './present.ts';
import { resolveMode, resolveTargets, violationParam, type ResolvedTarget } from './rules.ts';
import type { CreatePostInput, ListPostsInput, PostOut } from './schemas.ts';
import { derivePostStatus } from './status.ts';

/** What the posts service needs from the publishing engine. */
export interface PublishStarter {
  /**
   * Called after a publishNow post committed: starts its targets at once in this process. The jobs
   * written with the post are the fallback if this process dies.
   */
  startNow(postId: string, targetIds: string[]): void;
  /** Resolves when every target of the post is final, or after `timeoutMs`. */
  waitUntilSettled(postId: string, timeoutMs: number): Promise<void>;
  /** How long after creation the fallback job of a publishNow target runs. */
  readonly fallbackDelayMs: number;
}

export interface PostsServiceDeps {
  write: Writer['write'];
  clock: Clock;
  posts: PostsDal;
  accounts: AccountsDal;
  outbox: Outbox;
  queue: JobQueue;
  idempotency: IdempotencyStore;
  /** The create-time rules of each platform. */
  validators: Record<Platform, PlatformDescriptor['validate']>;
  publisher: PublishStarter;
  publishWaitMs: number;
}

const DAY_MS = 24 * 60 * 60_000;

function checkAccounts(targets: ResolvedTarget[], accounts: Map<string, { status: string; meta: string }>): Map<number, AccountMeta> {
  const metas = new Map<number, AccountMeta>();
  for (const t of targets) {
    const account = accounts.get(`${t.platform}:${t.accountId}`);
    const param = `platforms[${t.index}].accountId`;
    if (!account) throw errors.invalid(param, `no connected ${t.platform} account ${t.accountId} for this API key; connect it with GET /v1/connect/${t.platform}`);
    if (account.status !== 'active') {
      throw errors.invalid(param, `${t.platform} account ${t.accountId} needs to be reconnected before it can publish (GET /v1/connect/${t.platform})`);
    }
    metas.set(t.index, fromJson<AccountMeta>(account.meta, {}));
  }
  return metas;
}

export function createPostsService(deps: PostsServiceDeps) {
  const { write, clock, posts, accounts, outbox, queue, idempotency, validators, publisher } = deps;

  async function getOut(apiKeyId: string, postId: string): Promise<PostOut> {
    const found = await posts.get(apiKeyId, postId);
    if (!found) throw errors.notFound(`no post ${postId}`);
    return presentPost(found.post, found.targets);
  }

  return {
    get: getOut,

    /**
     * Creates a post. `idempotencyClaim` (taken by the HTTP layer) is bound to the new post in the same
     * transaction, so a crash after the insert is answered with this post, not a second one; if another
     * request has taken the key over meanwhile, nothing is created.
     */
    async create(apiKeyId: string, body: CreatePostInput, idempotencyClaim?: ClaimRef): Promise<PostOut> {
      const now = clock.now();
      const plan = resolveMode(body, now);
      const targets = resolveTargets(body, plan.mode);
      const metas = checkAccounts(targets, await accounts.findForTargets(apiKeyId, targets));
      for (const t of targets) {
        const violation = validators[t.platform](t.content, { meta: metas.get(t.index) ?? {} })[0];
        if (violation) throw errors.unprocessable(violationParam(t, violation), `platforms[${t.index}] (${t.platform}): ${violation.message}`);
      }

      const post: NewPost = {
        id: newId('post'),
        api_key_id: apiKeyId,
        content: body.content ?? null,
        media_items: JSON.stringify(body.mediaItems ?? []),
        status: 'draft',
        scheduled_for: plan.scheduledFor,
        timezone: plan.timezone,
        is_draft: plan.mode === 'draft' ? 1 : 0,
        tags: JSON.stringify(body.tags ?? []),
        post_settings: toJson(postSettingsOf(body)),
        created_at: now,
        updated_at: now,
        published_at: null,
      };
      const runAt = plan.mode === 'scheduled' ? plan.scheduledFor! : now;
      const targetRows: TargetRow[] = (body.platforms ?? []).map((t, position) => ({
        id: newId('tgt'),
        post_id: post.id,
        api_key_id: apiKeyId,
        position,
        platform: t.platform,
        account_id: t.accountId,
        custom_content: t.customContent ?? null,
        custom_media: toJson(t.customMedia),
        platform_specific_data: toJson(t.platformSpecificData),
        status: 'pending',
        platform_post_id: null,
        platform_post_url: null,
        error: null,
        error_code: null,
        attempts: 0,
        attempt_id: null,
        attempt_started_at: null,
        lease_expires_at: null,
        next_attempt_at: plan.mode === 'draft' ? null : runAt,
        checkpoint: null,
        needs_reconcile: 0,
        holds_limit_slot: 0,
        published_at: null,
        edit_count: 0,
        edit_pending: null,
        original_platform_post_id: null,
        updated_at: now,
      }));
      post.status = derivePostStatus({ is_draft: post.is_draft, scheduled_for: post.scheduled_for ?? null }, targetRows, now);

      // One job for the post: at its time it publishes every target in parallel.
      const jobs: EnqueueJob[] =
        plan.mode === 'draft'
          ? []
          : [{ queue: 'publish-post', payload: { postId: post.id as string }, runAt: plan.mode === 'now' ? now + publisher.fallbackDelayMs : runAt }];
      const events: CatalogEvent[] = plan.mode === 'scheduled' ? [postScheduled(post.id, runAt)] : [];

      // A draft or scheduled post's answer is known now: it is stored with the key in the same
      // transaction, so a repeat is answered from the moment the post exists (one write less, too).
      const answer = plan.mode === 'now' ? null : presentPost(post as never, targetRows);
      await write(async (trx) => {
        await posts.insert(trx, post, targetRows as NewTarget[]);
        if (idempotencyClaim && answer) await idempotency.attachAnswer(trx, idempotencyClaim, post.id, 201, JSON.stringify(answer));
        else if (idempotencyClaim) await idempotency.attachResource(trx, idempotencyClaim, post.id);
        await queue.enqueue(trx, jobs);
        await outbox.record(trx, apiKeyId, events);
      });
      if (idempotencyClaim && answer) idempotencyClaim.answered = true;
      queue.nudge();

      if (answer) return answer;
      publisher.startNow(
        post.id as string,
        targetRows.map((t) => t.id),
      );
      await publisher.waitUntilSettled(post.id as string, deps.publishWaitMs);
      return getOut(apiKeyId, post.id as string);
    },

    async list(apiKeyId: string, query: ListPostsInput) {
      const limit = query.limit ?? 20;
      const after = query.cursor === undefined ? null : decodeCursor(query.cursor);
      if (query.cursor !== undefined && !after) throw errors.invalid('cursor', 'cursor is not one this API returned; pass back the cursor of the previous page');
      const createdFrom = query.fromDate === undefined ? undefined : Date.parse(`${query.fromDate}T00:00:00.000Z`);
      const createdBefore = query.toDate === undefined ? undefined : Date.parse(`${query.toDate}T00:00:00.000Z`) + DAY_MS;
      if (createdFrom !== undefined && createdBefore !== undefined && createdFrom >= createdBefore) {
        throw errors.invalid('fromDate', 'fromDate is after toDate');
      }
      const { items, hasMore } = await posts.list(
        apiKeyId,
        { status: query.status, platform: query.platform, createdFrom, createdBefore },
        after,
        limit,
      );
      const last = items.at(-1);
      return {
        posts: items.map((i) => presentPost(i.post, i.targets)),
        cursor: hasMore && last ? encodeCursor({ createdAt: last.post.created_at, id: last.post.id }) : null,
        hasMore,
      };
    },

    /** Deletes a post from Herald (never from the platforms) and cancels its scheduled work. */
    async remove(apiKeyId: string, postId: string): Promise<{ id: string; deleted: true }> {
      await write(async (trx) => {
        const found = await posts.getForUpdate(trx, postId);
        if (!found || found.post.api_key_id !== apiKeyId) throw errors.notFound(`no post ${postId}`);
        if (found.targets.some((t) => t.status === 'publishing')) {
          throw errors.conflict(`post ${postId} is being published right now; delete it once its targets are final`);
        }
        await posts.delete(trx, postId);
        await outbox.record(trx, apiKeyId, [postDeleted(postId)]);
      });
      return { id: postId, deleted: true };
    },
  };
}

export type PostsService = ReturnType<typeof createPostsService>;
