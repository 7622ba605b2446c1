// POST /v1/posts/{id}/edit: edits a published tweet (API.md section 5). Herald checks X's conditions
// first (paid subscription, 1 hour, 5 edits, text only) so the caller gets a precise 422, then asks X.
//
// An edit is a platform write like a publish, so it follows the same rule: claim, send, record. The
// claim (post_targets.edit_pending) is taken before X is called, so two concurrent edits of one tweet
// send one; an edit whose answer is lost stays claimed until X is asked whether it happened
// (adapter.findEdit), and is never re-sent blindly. A claim left by a crashed process is settled the
// same way by the next edit once its time is up.
import type { AccountsDal } from '../accounts/accounts-dal.ts';
import type { CredentialsService } from '../accounts/credentials.ts';
import type { AccountRow, TargetRow } from '../db/schema.ts';
import type { Writer } from '../db/writer.ts';
import { errors } from '../contract/errors.ts';
import type { Clock } from '../lib/clock.ts';
import { newAttemptId } from '../lib/ids.ts';
import type { EditRequest, PlatformAdapter, PublishOutcome, ReconcileOutcome } from '../platforms/types.ts';
import type { PostsDal } from '../posts/posts-dal.ts';
import type { Outbox } from '../webhooks/outbox.ts';

export const EDIT_WINDOW_MS = 60 * 60_000;
export const MAX_EDITS = 5;
const PAID = new Set(['Basic', 'Premium', 'PremiumPlus']);

/** An edit sent (or about to be sent) to X whose result is not yet recorded. */
interface PendingEdit {
  claim: string;
  previous: string;
  content: string;
  /** Until then the claimer is still working; after it, anyone may settle the claim. */
  until: number;
}

type Published = { platformPostId: string; platformPostUrl: string };

export function createEditService(deps: {
  write: Writer['write'];
  clock: Clock;
  posts: PostsDal;
  accounts: AccountsDal;
  credentials: CredentialsService;
  twitter: PlatformAdapter;
  outbox: Outbox;
  /** How long a claim protects an edit in flight: longer than the slowest send plus a lookup. */
  claimMs: number;
}) {
  const { write, clock, posts, accounts, credentials, twitter, outbox, claimMs } = deps;

  function textOf(body: Record<string, unknown>): string {
    const extra = Object.keys(body).filter((k) => k !== 'content' && k !== 'accountId');
    if (extra.length > 0) {
      throw errors.unprocessable(extra[0], `only the text of a tweet can be edited; remove ${extra.join(', ')}`, 'EDIT_TEXT_ONLY');
    }
    if (typeof body.content !== 'string') throw errors.missing('content', 'content is required: the new text of the tweet');
    return body.content;
  }

  function pickTarget(targets: TargetRow[], accountId: string | undefined): TargetRow {
    const published = targets.filter((t) => t.platform === 'twitter' && t.status === 'published' && (accountId === undefined || t.account_id === accountId));
    if (published.length === 0) {
      throw errors.unprocessable(accountId ? 'accountId' : undefined, 'this post has no published twitter target to edit', 'EDIT_NOT_SUPPORTED');
    }
    if (published.length > 1) throw errors.invalid('accountId', 'this post has several published twitter targets; name one with accountId');
    return published[0]!;
  }

  async function load(apiKeyId: string, postId: string, accountId: string | undefined) {
    const found = await posts.get(apiKeyId, postId);
    if (!found) throw errors.notFound(`no post ${postId}`);
    const target = pickTarget(found.targets, accountId);
    const account = await accounts.find(apiKeyId, 'twitter', target.account_id);
    if (!account) throw errors.unprocessable('accountId', `the X account ${target.account_id} is no longer connected`, 'EDIT_NOT_SUPPORTED');
    return { target, account };
  }

  /** Calls X with the account's token, refreshing it once when X says it expired. */
  async function withToken<T extends PublishOutcome | ReconcileOutcome>(account: AccountRow, call: (request: EditRequest['account']) => Promise<T>): Promise<T | { ok: false; category: 'auth_expired'; message: string }> {
    let cred = await credentials.forAccount(account);
    if (!cred.ok) return { ok: false, category: 'auth_expired', message: cred.failure.message };
    let result = await call(cred.creds);
    if (!result.ok && result.category === 'auth_expired') {
      cred = await credentials.refreshAfterAuthFailure(account);
      if (cred.ok) result = await call(cred.creds);
    }
    return result;
  }

  // Every write below is fenced on the exact claim, so only its holder (or whoever settled it after its
  // time ran out) records its outcome, and only once.
  async function claim(target: TargetRow, pending: PendingEdit): Promise<boolean> {
    return write(async (trx) => {
      const res = await trx
        .updateTable('post_targets')
        .set({ edit_pending: JSON.stringify(pending) })
        .where('id', '=', target.id)
        .where('status', '=', 'published')
        .where('platform_post_id', '=', pending.previous)
        .where('edit_pending', 'is', null)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    });
  }

  async function release(target: TargetRow, raw: string, until?: number): Promise<void> {
    const next = until === undefined ? null : JSON.stringify({ ...(JSON.parse(raw) as PendingEdit), until });
    await write((trx) => trx.updateTable('post_targets').set({ edit_pending: next }).where('id', '=', target.id).where('edit_pending', '=', raw).execute());
  }

  async function apply(apiKeyId: string, target: TargetRow, raw: string, pending: PendingEdit, result: Published): Promise<number> {
    const now = clock.now();
    return write(async (trx) => {
      const row = await trx.selectFrom('post_targets').select('edit_count').where('id', '=', target.id).where('edit_pending', '=', raw).executeTakeFirst();
      if (!row) throw errors.conflict('the edit was settled by another request; read the post to see its state');
      const editCount = row.edit_count + 1;
      await trx
        .updateTable('post_targets')
        .set({
          platform_post_id: result.platformPostId,
          platform_post_url: result.platformPostUrl,
          edit_count: editCount,
          custom_content: pending.content,
          edit_pending: null,
          updated_at: now,
        })
        .where('id', '=', target.id)
        .where('edit_pending', '=', raw)
        .execute();
      await trx.updateTable('posts').set({ updated_at: now }).where('id', '=', target.post_id).execute();
      await outbox.record(trx, apiKeyId, [
        {
          event: 'post.edited',
          data: {
            postId: target.post_id,
            platform: 'twitter',
            accountId: target.account_id,
            platformPostId: result.platformPostId,
            previousPlatformPostId: pending.previous,
          },
        },
      ]);
      return editCount;
    });
  }

  /** Asks X whether a claimed edit happened and records the answer. */
  async function ask(apiKeyId: string, target: TargetRow, account: AccountRow, raw: string, pending: PendingEdit): Promise<ReconcileOutcome> {
    const found = await withToken(account, (creds) => twitter.findEdit!({ account: creds, platformPostId: pending.previous, content: pending.content }));
    if (found.ok && found.found === true) await apply(apiKeyId, target, raw, pending, found);
    else if (found.ok && found.found === false) await release(target, raw);
    // Still unknown: the claim stays, open to the next request at once, so the question is asked again.
    else await release(target, raw, clock.now());
    return found;
  }

  /**
   * A claim left by an earlier request: settled first, or the caller is told one is in flight.
   * Returns the earlier edit when X had made it.
   */
  async function settle(apiKeyId: string, target: TargetRow, account: AccountRow): Promise<(Published & { content: string; previous: string }) | null> {
    const raw = target.edit_pending!;
    const pending = JSON.parse(raw) as PendingEdit;
    if (pending.until > clock.now()) throw errors.conflict('another edit of this tweet is in progress; read the post and try again once it is done');
    const found = await ask(apiKeyId, target, account, raw, pending);
    if (!found.ok || found.found === 'unknown') {
      throw errors.platform(`an earlier edit of this tweet may or may not have reached X, and X cannot say yet (${found.message}); try again later`, {
        category: 'outcome_unknown',
      });
    }
    return found.found ? { ...found, content: pending.content, previous: pending.previous } : null;
  }

  function answer(postId: string, target: TargetRow, editCount: number, previous: string, published: Published, editableUntil: number) {
    return {
      id: postId,
      platform: 'twitter' as const,
      accountId: target.account_id,
      platformPostId: published.platformPostId,
      previousPlatformPostId: previous,
      platformPostUrl: published.platformPostUrl,
      editCount,
      editsRemaining: MAX_EDITS - editCount,
      editableUntil: new Date(editableUntil).toISOString(),
    };
  }

  function checkRules(target: TargetRow, account: AccountRow, content: string): number {
    const meta = JSON.parse(account.meta) as { subscriptionType?: string };
    if (!PAID.has(meta.subscriptionType ?? 'None')) {
      throw errors.unprocessable(undefined, 'editing posts needs a paid X subscription on the account', 'PREMIUM_REQUIRED');
    }
    const editableUntil = (target.published_at ?? 0) + EDIT_WINDOW_MS;
    if (clock.now() > editableUntil) throw errors.unprocessable(undefined, 'a tweet can be edited only within 1 hour of publishing', 'EDIT_WINDOW_EXPIRED');
    if (target.edit_count >= MAX_EDITS) throw errors.unprocessable(undefined, `a tweet can be edited at most ${MAX_EDITS} times`, 'EDIT_LIMIT_REACHED');
    const violation = twitter.validate({ content, media: [], settings: {} }, { meta })[0];
    if (violation) throw errors.unprocessable('content', violation.message, 'CONTENT_INVALID');
    return editableUntil;
  }

  return {
    async edit(apiKeyId: string, postId: string, body: Record<string, unknown>) {
      const content = textOf(body);
      const accountId = body.accountId as string | undefined;
      let { target, account } = await load(apiKeyId, postId, accountId);
      if (target.edit_pending !== null) {
        const earlier = await settle(apiKeyId, target, account);
        ({ target, account } = await load(apiKeyId, postId, accountId));
        // The caller sending again the edit whose answer was lost: X made it, so that is the answer.
        if (earlier && earlier.content === content && target.platform_post_id === earlier.platformPostId) {
          return answer(postId, target, target.edit_count, earlier.previous, earlier, (target.published_at ?? 0) + EDIT_WINDOW_MS);
        }
      }
      const editableUntil = checkRules(target, account, content);

      const pending: PendingEdit = { claim: newAttemptId(), previous: target.platform_post_id!, content, until: clock.now() + claimMs };
      const raw = JSON.stringify(pending);
      if (!(await claim(target, pending))) throw errors.conflict('the tweet was edited by another request at the same time; read the post and try again');

      // A throw from here on leaves the claim in place: nothing is known about what reached X, so the
      // claim is settled by asking X once its time is up.
      const sent = await withToken(account, (creds) => twitter.edit!({ account: creds, platformPostId: pending.previous, content }));
      let published: Published;
      if (sent.ok) {
        await apply(apiKeyId, target, raw, pending, sent);
        published = sent;
      } else if (sent.category !== 'outcome_unknown') {
        await release(target, raw);
        throw errors.platform(`X did not accept the edit: ${sent.message}`, { category: sent.category });
      } else {
        const found = await ask(apiKeyId, target, account, raw, pending);
        if (found.ok && found.found === true) published = found;
        else if (found.ok && found.found === false) {
          throw errors.platform('X did not receive the edit (its answer was lost and X shows no such edit); it is safe to send it again', {
            category: 'platform_unavailable',
          });
        } else {
          throw errors.platform(`X may or may not have made the edit and cannot say yet (${sent.message}); sending it again later asks X first`, {
            category: 'outcome_unknown',
          });
        }
      }
      return answer(postId, target, target.edit_count + 1, pending.previous, published, editableUntil);
    },
  };
}

export type EditService = ReturnType<typeof createEditService>;
