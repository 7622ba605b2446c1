// Data access for posts and their targets. Every read is scoped by API key; every method that writes
// takes the transaction it belongs to.
import type { DbTx } from '../db/schema.ts';
import type { Kysely } from 'kysely';
import type { DialectName } from '../db/dialect.ts';
import { forUpdate } from '../db/dialect.ts';
import type { Database, NewPost, NewTarget, PostRow, PostStatus, TargetRow } from '../db/schema.ts';
import type { Platform } from '../platforms/registry.ts';
import { prepare, prepareByShape, prepareRow, prepareRows } from '../db/prepared.ts';
import type { Cursor } from '../contract/cursor.ts';
import { PRESENTED_TARGET_COLUMNS, type PresentedTarget } from './present.ts';

export interface PostWithTargets {
  post: PostRow;
  targets: TargetRow[];
}

/** A post with what its presentation reads of its targets. */
export interface PostToPresent {
  post: PostRow;
  targets: PresentedTarget[];
}

export interface ListFilter {
  status?: PostStatus;
  platform?: Platform;
  /** Inclusive lower bound on created_at (epoch ms). */
  createdFrom?: number;
  /** Exclusive upper bound on created_at (epoch ms). */
  createdBefore?: number;
}

export const POST_COLUMNS = [
  'id', 'api_key_id', 'content', 'media_items', 'status', 'scheduled_for', 'timezone', 'is_draft', 'tags',
  'post_settings', 'created_at', 'updated_at', 'published_at', 'version', 'queued_slot',
] as const satisfies readonly (keyof NewPost)[];
export const TARGET_COLUMNS = [
  'id', 'post_id', 'api_key_id', 'position', 'platform', 'account_id', 'custom_content', 'custom_media',
  'platform_specific_data', 'status', 'platform_post_id', 'platform_post_url', 'error', 'error_code', 'attempts',
  'attempt_id', 'attempt_started_at', 'lease_expires_at', 'next_attempt_at', 'checkpoint', 'needs_reconcile',
  'published_at', 'edit_count', 'edit_pending', 'original_platform_post_id', 'updated_at',
] as const satisfies readonly (keyof NewTarget)[];

// Created with every post: built and compiled once (see db/prepared.ts); a post's targets go in one
// statement, compiled once per target count.
const insertPost = prepareRow<NewPost>(POST_COLUMNS, (db, row) => db.insertInto('posts').values(row));
const insertTargets = prepareRows<NewTarget>(TARGET_COLUMNS, (db, rows) => db.insertInto('post_targets').values(rows));
// PostgreSQL: the post and its targets in one statement (a data-modifying WITH), one round trip less in
// every create; compiled once per target count.
const insertPostWithTargets = prepareByShape(
  (n) => POST_COLUMNS.length + n * TARGET_COLUMNS.length,
  (db, n, slots) => {
    const row = <K extends string>(keys: readonly K[], from: number) => Object.fromEntries(keys.map((k, i) => [k, slots[from + i]]));
    const post = row(POST_COLUMNS, 0) as NewPost;
    const targets = Array.from({ length: n }, (_, r) => row(TARGET_COLUMNS, POST_COLUMNS.length + r * TARGET_COLUMNS.length) as NewTarget);
    return db.with('inserted_post', (w) => w.insertInto('posts').values(post)).insertInto('post_targets').values(targets);
  },
);
export const valuesOf = <R extends object>(keys: readonly (keyof R & string)[], row: R) => keys.map((k) => (row[k] === undefined ? null : row[k]));

// The list and its targets run on every GET /v1/posts: compiled once per shape (see db/prepared.ts).
// A page's shape is which optional filters it has, as bits.
const STATUS = 1;
const FROM = 2;
const BEFORE = 4;
const PLATFORM = 8;
const AFTER = 16;
const FILTER_BITS = [STATUS, FROM, BEFORE, PLATFORM, AFTER];

const listPage = prepareByShape<PostRow>(
  // api key, one value per filter (two for the cursor), the limit
  (shape) => 2 + FILTER_BITS.filter((b) => shape & b).length + (shape & AFTER ? 1 : 0),
  (db, shape, slots) => {
    const next = (() => {
      let i = 0;
      return () => slots[i++];
    })();
    let q = db.selectFrom('posts').selectAll().where('api_key_id', '=', next());
    if (shape & STATUS) q = q.where('status', '=', next());
    if (shape & FROM) q = q.where('created_at', '>=', next());
    if (shape & BEFORE) q = q.where('created_at', '<', next());
    if (shape & PLATFORM) {
      const platform = next();
      q = q.where(({ exists, selectFrom }) =>
        exists(selectFrom('post_targets').select('post_targets.id').whereRef('post_targets.post_id', '=', 'posts.id').where('post_targets.platform', '=', platform)),
      );
    }
    if (shape & AFTER) {
      const createdAt = next();
      const id = next();
      q = q.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(createdAt, id)));
    }
    return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(next() as number);
  },
);

const targetsOfPosts = prepareByShape<PresentedTarget>(
  (n) => n,
  (db, _n, ids) => db.selectFrom('post_targets').select(PRESENTED_TARGET_COLUMNS).where('post_id', 'in', ids).orderBy('position'),
);

// Every target of one post, whole rows (GET /v1/posts/{id}, edit, status changes).
const targetsOfPost = prepare<[string], TargetRow>(1, (db, postId) =>
  db.selectFrom('post_targets').selectAll().where('post_id', '=', postId).orderBy('position'),
);

/**
 * What a first comment not yet posted becomes once its target is unpublished (markUnpublished; the comment
 * runner, for one that was in flight then).
 */
export const commentOfUnpublished = {
  comment_status: 'failed',
  comment_error: 'the post was unpublished before its first comment was posted',
  comment_error_code: 'unpublished',
  comment_next_attempt_at: null,
  comment_attempt_id: null,
  comment_lease_expires_at: null,
} as const;

export function createPostsDal(deps: { db: Kysely<Database>; dialect: DialectName }) {
  const { db, dialect } = deps;

  /** What the presentation of a page's posts reads of their targets. */
  async function targetsOf(postIds: string[]): Promise<Map<string, PresentedTarget[]>> {
    const byPost = new Map<string, PresentedTarget[]>(postIds.map((id) => [id, []]));
    if (postIds.length === 0) return byPost;
    const { rows } = await targetsOfPosts.execute(db, postIds.length, postIds);
    for (const row of rows) byPost.get(row.post_id)?.push(row);
    return byPost;
  }

  return {
    async insert(trx: DbTx, post: NewPost, targets: NewTarget[]): Promise<void> {
      if (dialect === 'postgres' && targets.length > 0) {
        await insertPostWithTargets.execute(trx, targets.length, [...valuesOf(POST_COLUMNS, post), ...targets.flatMap((t) => valuesOf(TARGET_COLUMNS, t))]);
        return;
      }
      await insertPost.execute(trx, post);
      if (targets.length > 0) await insertTargets.execute(trx, targets);
    },

    async get(apiKeyId: string, postId: string, executor: DbTx = db): Promise<PostWithTargets | null> {
      const post = await executor.selectFrom('posts').selectAll().where('id', '=', postId).where('api_key_id', '=', apiKeyId).executeTakeFirst();
      if (!post) return null;
      const { rows: targets } = await targetsOfPost.execute(executor, postId);
      return { post, targets };
    },

    /** Reads a post and its targets, locking the post row on PostgreSQL (serialises status changes). */
    async getForUpdate(trx: DbTx, postId: string): Promise<PostWithTargets | null> {
      const post = await forUpdate(dialect, trx.selectFrom('posts').selectAll().where('id', '=', postId)).executeTakeFirst();
      if (!post) return null;
      const { rows: targets } = await targetsOfPost.execute(trx, postId);
      return { post, targets };
    },

    /** Newest first, ties by id; `limit + 1` rows are read to know whether more follow. */
    async list(apiKeyId: string, filter: ListFilter, after: Cursor | null, limit: number): Promise<{ items: PostToPresent[]; hasMore: boolean }> {
      let shape = 0;
      const args: unknown[] = [apiKeyId];
      const add = (bit: number, ...values: unknown[]) => {
        shape |= bit;
        args.push(...values);
      };
      if (filter.status) add(STATUS, filter.status);
      if (filter.createdFrom !== undefined) add(FROM, filter.createdFrom);
      if (filter.createdBefore !== undefined) add(BEFORE, filter.createdBefore);
      if (filter.platform) add(PLATFORM, filter.platform);
      if (after) add(AFTER, after.createdAt, after.id);
      args.push(limit + 1);
      const { rows } = await listPage.execute(db, shape, args);
      const hasMore = rows.length > limit;
      const page = hasMore ? rows.slice(0, limit) : rows;
      const targets = await targetsOf(page.map((p) => p.id));
      return { items: page.map((post) => ({ post, targets: targets.get(post.id) ?? [] })), hasMore };
    },

    /** A changed post (PATCH): its row rewritten in place, its targets replaced. */
    async replace(trx: DbTx, post: NewPost, targets: NewTarget[]): Promise<void> {
      const { id, api_key_id: _key, created_at: _created, ...values } = post;
      await trx.updateTable('posts').set(values).where('id', '=', id as string).execute();
      await trx.deleteFrom('post_targets').where('post_id', '=', id as string).execute();
      if (targets.length > 0) await insertTargets.execute(trx, targets);
    },

    /**
     * Targets deleted from their platforms (unpublish): only published ones change; returns how many did.
     * A first comment still waiting to be posted under one of them fails: there is nothing to reply to.
     */
    async markUnpublished(trx: DbTx, targetIds: string[], now: number): Promise<number> {
      const r = await trx.updateTable('post_targets').set({ status: 'unpublished', updated_at: now }).where('id', 'in', targetIds).where('status', '=', 'published').executeTakeFirst();
      await trx.updateTable('post_targets').set(commentOfUnpublished).where('id', 'in', targetIds).where('status', '=', 'unpublished').where('comment_status', '=', 'pending').execute();
      return Number(r.numUpdatedRows);
    },

    async delete(trx: DbTx, postId: string): Promise<void> {
      await trx.deleteFrom('posts').where('id', '=', postId).execute();
    },

    async setStatus(trx: DbTx, postId: string, status: PostStatus, now: number, publishedAt?: number | null): Promise<void> {
      await trx
        .updateTable('posts')
        .set({ status, updated_at: now, ...(publishedAt !== undefined ? { published_at: publishedAt } : {}) })
        .where('id', '=', postId)
        .execute();
    },
  };
}

export type PostsDal = ReturnType<typeof createPostsDal>;
