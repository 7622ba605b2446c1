// Posts use cases: create (with every create-time rule), get, list and delete. Publishing itself belongs
// to the publishing engine; this service hands it the work in the same transaction that stores the post.
// `check` and `store` are shared with PATCH and bulk import, so every way in stores a post alike.
import type { AccountsDal, NamedAccount } from '../accounts/accounts-dal.ts';
import { isUniqueViolation } from '../db/dialect.ts';
import type { DbTx, NewTarget } from '../db/schema.ts';
import type { Platform } from '../platforms/registry.ts';
import { together, type Writer } from '../db/writer.ts';
import { errors } from '../contract/errors.ts';
import type { ClaimRef, IdempotencyStore } from '../idempotency/idempotency-store.ts';
import type { Clock } from '../lib/clock.ts';
import type { JobQueue } from '../jobs/queue.ts';
import { postDeleted } from '../events/catalog.ts';
import type { QueueService } from '../queue/queue-service.ts';
import type { Outbox } from '../webhooks/outbox.ts';
import type { MediaDal, PostMediaRow } from '../media/media-dal.ts';
import { checkPublishable, compose, type Validators } from './compose.ts';
import { createInOneStatement } from './create-statement.ts';
import { libraryIdsOf, mediaGone, resolveLibraryMedia, type LibraryReader, type LibraryRows } from './library-media.ts';
import { decodeCursor, encodeCursor } from '../contract/cursor.ts';
import type { PostsDal } from './posts-dal.ts';
import { presentPost } from './present.ts';
import { bodyOf } from './stored-body.ts';
import { resolveMode, resolveTargets, type CreatePlan } from './rules.ts';
import { MAX_TARGETS, type CreatePostInput, type ListPostsInput, type PostOut } from './schemas.ts';

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
  /** For the create written in one statement on PostgreSQL (create-statement.ts); without it, write. */
  writeOne?: Writer['writeOne'];
  /** PostgreSQL: the same, on a connection of its own (see Writer.writeEach). */
  writeEach?: Writer['writeEach'];
  clock: Clock;
  posts: PostsDal;
  accounts: AccountsDal;
  outbox: Outbox;
  queue: JobQueue;
  idempotency: IdempotencyStore;
  /** The create-time rules of each platform. */
  validators: Validators;
  publisher: PublishStarter;
  publishWaitMs: number;
  /** The posting queue: the slot a queued post takes. */
  slots: Pick<QueueService, 'takeSlot' | 'timezoneOf'>;
  /** The media library: library items resolved at create, and which posts use which media. */
  library: LibraryReader;
  mediaUses: Pick<MediaDal, 'setUses' | 'absent'>;
}

/** The accounts of a create body, read ahead with the idempotency claim (see accountsAhead). */
export interface AccountsAhead {
  named: { platform: Platform; accountId: string }[];
  /** The library media the body names in mediaItems and customMedia, read with the accounts. */
  mediaIds: string[];
  read(trx: DbTx): Promise<void>;
  found?: Map<string, NamedAccount>;
  media?: PostMediaRow[];
}

/** The most library ids a body's read ahead looks for (a post names few; more are read by the checks). */
const MEDIA_AHEAD_MAX = 40;

/**
 * The library ids an unvalidated create body names where most bodies name them (mediaItems, each target's
 * customMedia), or null when there are more than a read ahead takes. Anything elsewhere (thread items, a
 * thumbnail) is read by the checks as usual.
 */
function mediaIdsAhead(input: { mediaItems?: unknown }, platforms: readonly unknown[]): string[] | null {
  const ids = new Set<string>();
  const add = (items: unknown) => {
    if (!Array.isArray(items)) return;
    for (const item of items) {
      const id = (item as { mediaId?: unknown } | null)?.mediaId;
      if (typeof id === 'string' && id.length > 0 && id.length <= 100) ids.add(id);
    }
  };
  add(input.mediaItems);
  for (const t of platforms) add((t as { customMedia?: unknown } | null)?.customMedia);
  return ids.size <= MEDIA_AHEAD_MAX ? [...ids] : null;
}

/** A library reader that answers from the rows read ahead, and reads only the ids they did not cover. */
function readerWith(library: LibraryReader, ahead: AccountsAhead | null | undefined): LibraryReader {
  const rows = ahead?.media;
  if (!rows) return library;
  const covered = new Set(ahead.mediaIds);
  return {
    urlOf: library.urlOf,
    async getMany(apiKeyId, ids, executor) {
      const known = rows.filter((r) => ids.includes(r.id));
      const missing = ids.filter((id) => !covered.has(id));
      return missing.length === 0 ? known : [...known, ...(await library.getMany(apiKeyId, missing, executor))];
    },
  };
}

const sameAccounts = (a: readonly { platform: string; accountId: string }[], b: readonly { platform: string; accountId: string }[]) =>
  a.length === b.length && a.every((t, i) => t.platform === b[i]!.platform && t.accountId === b[i]!.accountId);

/** A create body after every check: library media resolved (type and URL filled in), with the rows it names. */
export interface Checked {
  plan: CreatePlan;
  body: CreatePostInput;
  library: LibraryRows;
}

const DAY_MS = 24 * 60 * 60_000;
/** A queued create that lost its slot to a concurrent one (PostgreSQL) tries the next this often. */
const SLOT_RACE_TRIES = 5;

export function createPostsService(deps: PostsServiceDeps) {
  const { write, clock, posts, accounts, outbox, queue, idempotency, validators, publisher, slots, library, mediaUses } = deps;
  // On a connection of its own where the database has them (writeEach): the prepared statement is sent
  // straight to it, without Kysely's executor in between.
  const inOneStatement = createInOneStatement({ writeOne: deps.writeEach ?? deps.writeOne ?? write, queue });

  async function getOut(apiKeyId: string, postId: string): Promise<PostOut> {
    const found = await posts.get(apiKeyId, postId);
    if (!found) throw errors.notFound(`no post ${postId}`);
    return presentPost(found.post, found.targets);
  }

  /**
   * The accounts a create body names, to be read with the idempotency claim (one round trip for both on
   * PostgreSQL), before the body is validated: null when the body names none in the expected shape. The
   * checks use what it found only when the validated body names the same accounts.
   */
  function accountsAhead(apiKeyId: string, input: unknown): AccountsAhead | null {
    const platforms = (input as { platforms?: unknown } | null)?.platforms;
    if (!Array.isArray(platforms) || platforms.length === 0 || platforms.length > MAX_TARGETS) return null;
    const named: AccountsAhead['named'] = [];
    for (const t of platforms as { platform?: unknown; accountId?: unknown }[]) {
      if (typeof t?.platform !== 'string' || typeof t.accountId !== 'string') return null;
      named.push({ platform: t.platform as Platform, accountId: t.accountId });
    }
    const mediaIds = mediaIdsAhead(input as { mediaItems?: unknown }, platforms) ?? [];
    const ahead: AccountsAhead = {
      named,
      mediaIds,
      read: async (trx) => {
        // Never fails the claim it rides with: if a read fails (unvalidated input), the checks read again
        // and answer for it. Both go out together, with the claim.
        const [found, media] = await together([
          accounts.findForTargets(apiKeyId, named, trx).catch(() => undefined),
          mediaIds.length > 0 ? library.getMany(apiKeyId, mediaIds, trx).catch(() => undefined) : undefined,
        ] as const);
        ahead.found = found;
        ahead.media = media;
      },
    };
    return ahead;
  }

  /** The checks past the mode (shape B errors): library media, targets, accounts, platform rules. */
  async function checkWith(apiKeyId: string, input: CreatePostInput, plan: CreatePlan, ahead?: AccountsAhead | null): Promise<Checked> {
    // The library rows and the accounts are read together: on SQLite, reads that arrive together share one
    // turn between write batches, so the media of a post costs no extra wait.
    const named = (input.platforms ?? []).map((t) => ({ platform: t.platform, accountId: t.accountId }));
    const readAhead = ahead?.found && sameAccounts(ahead.named, named) ? ahead.found : null;
    const [resolved, found] = await Promise.all([resolveLibraryMedia(apiKeyId, input, readerWith(library, ahead)), readAhead ?? accounts.findForTargets(apiKeyId, named)]);
    if (resolved.problems[0]) throw resolved.problems[0];
    const { body, rows } = resolved;
    const targets = resolveTargets(body, plan.mode);
    checkPublishable(targets, found, validators, rows);
    return { plan, body, library: rows };
  }

  /** Every create-time check of a body (shape B errors): mode, library media, targets, accounts, platform rules. */
  async function check(apiKeyId: string, input: CreatePostInput, now: number, ahead?: AccountsAhead | null): Promise<Checked> {
    const plan = resolveMode(input, now);
    const checked = await checkWith(apiKeyId, input, plan, ahead);
    // A queued post without its own time zone is read in the queue's.
    if (plan.mode === 'queue' && input.timezone === undefined) plan.timezone = (await slots.timezoneOf(apiKeyId)) ?? plan.timezone;
    return checked;
  }

  /**
   * Stores a checked post: its rows, its job and events in one transaction; a queued post takes its slot
   * there. Returns the composed rows and the answer when it is known before publishing (draft, scheduled).
   */
  async function store(apiKeyId: string, body: CreatePostInput, plan: CreatePlan, now: number, claim?: ClaimRef, library?: LibraryRows) {
    // The library media it names (known from the checks; else found in the body).
    const used = library ? [...library.keys()] : libraryIdsOf(body);
    const composeFor = (placed: CreatePlan) => {
      const c = compose({ apiKeyId, body, plan: placed, now, fallbackDelayMs: publisher.fallbackDelayMs });
      // A draft or scheduled post's answer is known now: it is stored with the key in the same
      // transaction, so a repeat is answered from the moment the post exists (one write less, too).
      const answer = plan.mode === 'now' ? null : presentPost(c.post as never, c.targets);
      return { composed: c, answer, answerJson: answer ? JSON.stringify(answer) : null };
    };
    // PostgreSQL: a post that takes no queue slot is written in one statement (create-statement.ts), unless
    // the key's webhooks want its events: then by the transaction below.
    if (inOneStatement && plan.mode !== 'queue') {
      const stored = composeFor(plan);
      const c = stored.composed;
      const outcome = await inOneStatement({
        apiKeyId,
        post: c.post,
        targets: c.targets as NewTarget[],
        jobs: c.jobs,
        mediaIds: used,
        events: c.events.map((e) => e.event),
        claim,
        answerJson: stored.answerJson,
      });
      if (outcome === 'created') return stored;
      if (outcome === 'claim_lost') throw errors.idempotencyInUse();
      if (outcome === 'media_gone') {
        // The statement tells only that a file was gone; which one is read after it (a deleted id never
        // comes back, so one is found).
        const gone = await mediaUses.absent(used);
        throw mediaGone(body, gone.length > 0 ? gone : used);
      }
    }
    for (let attempt = 1; ; attempt++) {
      try {
        return await write(async (trx) => {
          const placed = plan.mode === 'queue' ? { ...plan, scheduledFor: await slots.takeSlot(trx, apiKeyId, now) } : plan;
          const stored = composeFor(placed);
          const c = stored.composed;
          const postId = c.post.id as string;
          // None of these statements needs another's answer: they are sent together (one round trip on
          // PostgreSQL), the post's own rows first, as the others name it.
          const [, gone] = await together([
            posts.insert(trx, c.post, c.targets as NewTarget[]),
            used.length > 0 ? mediaUses.setUses(trx, postId, used) : undefined,
            claim && stored.answerJson !== null
              ? idempotency.attachAnswer(trx, claim, postId, 201, stored.answerJson)
              : claim
                ? idempotency.attachResource(trx, claim, postId)
                : undefined,
            queue.enqueue(trx, c.jobs),
            outbox.record(trx, apiKeyId, c.events),
          ]);
          // Thrown, the transaction writes nothing.
          if (gone && gone.length > 0) throw mediaGone(body, gone);
          return stored;
        });
      } catch (err) {
        // Two queued creates took the same slot at once: the one that lost takes the next free one.
        if (plan.mode !== 'queue' || !isUniqueViolation(err) || attempt >= SLOT_RACE_TRIES) throw err;
      }
    }
  }

  /**
   * create, with the answer's JSON when it was serialised to be stored with the idempotency key (a draft
   * or scheduled post): the HTTP layer sends those same bytes instead of serialising the post again.
   */
  async function createAnswer(
    apiKeyId: string,
    input: CreatePostInput,
    idempotencyClaim?: ClaimRef,
    ahead?: AccountsAhead | null,
  ): Promise<{ post: PostOut; json: string | null }> {
    const now = clock.now();
    const { plan, body, library: rows } = await check(apiKeyId, input, now, ahead);
    const { composed, answer, answerJson } = await store(apiKeyId, body, plan, now, idempotencyClaim, rows);
    if (idempotencyClaim && answer) idempotencyClaim.answered = true;
    queue.nudge();
    if (answer) return { post: answer, json: answerJson };
    const postId = composed.post.id as string;
    publisher.startNow(
      postId,
      composed.targets.map((t) => t.id),
    );
    await publisher.waitUntilSettled(postId, deps.publishWaitMs);
    return { post: await getOut(apiKeyId, postId), json: null };
  }

  return {
    get: getOut,
    check,
    checkWith,
    store,

    /**
     * Creates a post. `idempotencyClaim` (taken by the HTTP layer) is bound to the new post in the same
     * transaction, so a crash after the insert is answered with this post, not a second one; if another
     * request has taken the key over meanwhile, nothing is created.
     */
    async create(apiKeyId: string, input: CreatePostInput, idempotencyClaim?: ClaimRef): Promise<PostOut> {
      return (await createAnswer(apiKeyId, input, idempotencyClaim)).post;
    },

    createAnswer,
    accountsAhead,

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
        await mediaUses.setUses(trx, postId, [], libraryIdsOf(bodyOf(found.post, found.targets)));
        await outbox.record(trx, apiKeyId, [postDeleted(postId)]);
      });
      return { id: postId, deleted: true };
    },
  };
}

export type PostsService = ReturnType<typeof createPostsService>;
