// POST /v1/posts/{id}/edit: changes the text of a published post on any platform whose adapter has the
// edit capability. The platform's own limits (X: paid subscription, 1 hour, 5 edits) are data of that
// capability; Herald checks them first so the caller gets a precise 422, then asks the platform.
//
// An edit is a platform write like a publish, so it follows the same rule: claim, send, record. The
// claim (post_targets.edit_pending) is taken before the platform is called, so two concurrent edits of
// one post send one; an edit whose answer is lost stays claimed until the platform is asked whether it
// happened (capability.find), and is never re-sent blindly. A claim left by a crashed process is settled
// the same way by the next edit once its time is up.
import type { AccountsDal } from '../accounts/accounts-dal.ts';
import type { CredentialsService } from '../accounts/credentials.ts';
import { errors } from '../contract/errors.ts';
import type { AccountRow, TargetRow } from '../db/schema.ts';
import type { Writer } from '../db/writer.ts';
import type { Clock } from '../lib/clock.ts';
import { newAttemptId } from '../lib/ids.ts';
import { fromJson } from '../lib/json.ts';
import type { Platform, PlatformRegistry } from '../platforms/registry.ts';
import type { AccountMeta, EditCapability, EditRequest, PublishOutcome, ReconcileOutcome } from '../platforms/types.ts';
import type { PostsDal } from '../posts/posts-dal.ts';
import { postEdited } from '../events/catalog.ts';
import type { Outbox } from '../webhooks/outbox.ts';
import type { EditsDal } from './edits-dal.ts';

/** An edit sent (or about to be sent) to the platform whose result is not yet recorded. */
interface PendingEdit {
  claim: string;
  previous: string;
  content: string;
  /** Until then the claimer is still working; after it, anyone may settle the claim. */
  until: number;
}

type Published = { platformPostId: string; platformPostUrl: string };

/** The fields a body may carry; anything else is refused with EDIT_TEXT_ONLY. */
const EDIT_FIELDS = new Set(['content', 'platform', 'accountId']);

/** The edit target chosen from the post, with what editing it needs. */
interface Chosen {
  target: TargetRow;
  account: AccountRow;
  capability: EditCapability;
  displayName: string;
}

export function createEditService(deps: {
  write: Writer['write'];
  clock: Clock;
  posts: PostsDal;
  accounts: AccountsDal;
  edits: EditsDal;
  credentials: CredentialsService;
  adapters: PlatformRegistry;
  outbox: Outbox;
  /** How long a claim protects an edit in flight: longer than the slowest send plus a lookup. */
  claimMs: number;
}) {
  const { write, clock, posts, accounts, edits, credentials, adapters, outbox, claimMs } = deps;

  function textOf(body: Record<string, unknown>): string {
    const extra = Object.keys(body).filter((k) => !EDIT_FIELDS.has(k));
    if (extra.length > 0) {
      throw errors.unprocessable(extra[0], `only the text of a published post can be edited; remove ${extra.join(', ')}`, 'EDIT_TEXT_ONLY');
    }
    if (typeof body.content !== 'string') throw errors.missing('content', 'content is required: the new text of the post');
    return body.content;
  }

  function pickTarget(targets: TargetRow[], platform: string | undefined, accountId: string | undefined): TargetRow {
    const published = targets.filter(
      (t) => t.status === 'published' && (platform === undefined || t.platform === platform) && (accountId === undefined || t.account_id === accountId),
    );
    const editable = published.filter((t) => adapters[t.platform as Platform]?.edit);
    const named = platform ? `${platform} ` : '';
    if (published.length === 0) {
      throw errors.unprocessable(accountId ? 'accountId' : platform ? 'platform' : undefined, `this post has no published ${named}target to edit`, 'EDIT_NOT_SUPPORTED');
    }
    if (editable.length === 0) {
      const names = [...new Set(published.map((t) => t.platform))].join(', ');
      throw errors.unprocessable(platform ? 'platform' : undefined, `${names} cannot change a published post through its API`, 'EDIT_NOT_SUPPORTED');
    }
    if (editable.length > 1) {
      const param = new Set(editable.map((t) => t.platform)).size > 1 && !platform ? 'platform' : 'accountId';
      throw errors.invalid(param, `this post has several published targets that can be edited; name one with ${param}`);
    }
    return editable[0]!;
  }

  async function load(apiKeyId: string, postId: string, platform: string | undefined, accountId: string | undefined): Promise<Chosen> {
    const found = await posts.get(apiKeyId, postId);
    if (!found) throw errors.notFound(`no post ${postId}`);
    const target = pickTarget(found.targets, platform, accountId);
    const adapter = adapters[target.platform as Platform];
    const account = await accounts.find(apiKeyId, target.platform as Platform, target.account_id);
    if (!account) {
      throw errors.unprocessable('accountId', `the ${adapter.info.displayName} account ${target.account_id} is no longer connected`, 'EDIT_NOT_SUPPORTED');
    }
    return { target, account, capability: adapter.edit!, displayName: adapter.info.displayName };
  }

  /** Calls the platform with the account's token, refreshing it once when the platform says it expired. */
  async function withToken<T extends PublishOutcome | ReconcileOutcome>(
    account: AccountRow,
    call: (creds: EditRequest['account']) => Promise<T>,
  ): Promise<T | { ok: false; category: 'auth_expired'; message: string }> {
    let cred = await credentials.forAccount(account);
    if (!cred.ok) return { ok: false, category: 'auth_expired', message: cred.failure.message };
    let result = await call(cred.creds);
    if (!result.ok && result.category === 'auth_expired') {
      cred = await credentials.refreshAfterAuthFailure(account);
      if (cred.ok) result = await call(cred.creds);
    }
    return result;
  }

  async function release(target: TargetRow, raw: string, until?: number): Promise<void> {
    const next = until === undefined ? null : JSON.stringify({ ...(JSON.parse(raw) as PendingEdit), until });
    await write((trx) => edits.replaceClaim(trx, target.id, raw, next));
  }

  async function apply(apiKeyId: string, target: TargetRow, raw: string, pending: PendingEdit, result: Published): Promise<number> {
    const now = clock.now();
    return write(async (trx) => {
      const editCount = await edits.apply(trx, {
        targetId: target.id,
        postId: target.post_id,
        claim: raw,
        platformPostId: result.platformPostId,
        platformPostUrl: result.platformPostUrl,
        content: pending.content,
        now,
      });
      if (editCount === null) throw errors.conflict('the edit was settled by another request; read the post to see its state');
      await outbox.record(trx, apiKeyId, [
        postEdited({
          postId: target.post_id,
          platform: target.platform,
          accountId: target.account_id,
          platformPostId: result.platformPostId,
          previousPlatformPostId: pending.previous,
        }),
      ]);
      return editCount;
    });
  }

  /** Asks the platform whether a claimed edit happened and records the answer. */
  async function ask(apiKeyId: string, chosen: Chosen, raw: string, pending: PendingEdit): Promise<ReconcileOutcome> {
    const { target, account, capability } = chosen;
    const found = await withToken(account, (creds) => capability.find({ account: creds, platformPostId: pending.previous, content: pending.content }));
    if (found.ok && found.found === true) await apply(apiKeyId, target, raw, pending, found);
    else if (found.ok && found.found === false) await release(target, raw);
    // Still unknown: the claim stays, open to the next request at once, so the question is asked again.
    else await release(target, raw, clock.now());
    return found;
  }

  /**
   * A claim left by an earlier request: settled first, or the caller is told one is in flight.
   * Returns the earlier edit when the platform had made it.
   */
  async function settle(apiKeyId: string, chosen: Chosen): Promise<(Published & { content: string; previous: string }) | null> {
    const raw = chosen.target.edit_pending!;
    const pending = JSON.parse(raw) as PendingEdit;
    if (pending.until > clock.now()) throw errors.conflict('another edit of this post is in progress; read the post and try again once it is done');
    const found = await ask(apiKeyId, chosen, raw, pending);
    if (!found.ok || found.found === 'unknown') {
      throw errors.platform(
        `an earlier edit of this post may or may not have reached ${chosen.displayName}, and it cannot say yet (${found.message}); try again later`,
        { category: 'outcome_unknown' },
      );
    }
    return found.found ? { ...found, content: pending.content, previous: pending.previous } : null;
  }

  function answer(postId: string, chosen: Chosen, editCount: number, previous: string, published: Published) {
    const { target, capability } = chosen;
    const { windowMs, maxEdits } = capability.limits;
    return {
      id: postId,
      platform: target.platform as Platform,
      accountId: target.account_id,
      platformPostId: published.platformPostId,
      previousPlatformPostId: previous,
      platformPostUrl: published.platformPostUrl,
      editCount,
      editsRemaining: maxEdits === null ? null : maxEdits - editCount,
      editableUntil: windowMs === null ? null : new Date((target.published_at ?? 0) + windowMs).toISOString(),
    };
  }

  /** The platform's own conditions, checked before it is asked (422 with the condition's code). */
  function checkRules(chosen: Chosen, content: string): void {
    const { target, account, capability, displayName } = chosen;
    const meta = fromJson<AccountMeta>(account.meta, {});
    const { windowMs, maxEdits, accountRule } = capability.limits;
    const refused = accountRule?.(meta);
    if (refused) throw errors.unprocessable(undefined, refused.message, refused.code);
    if (windowMs !== null && clock.now() > (target.published_at ?? 0) + windowMs) {
      throw errors.unprocessable(undefined, `a ${displayName} post can be edited only within ${Math.round(windowMs / 60_000)} minutes of publishing`, 'EDIT_WINDOW_EXPIRED');
    }
    if (maxEdits !== null && target.edit_count >= maxEdits) {
      throw errors.unprocessable(undefined, `a ${displayName} post can be edited at most ${maxEdits} times`, 'EDIT_LIMIT_REACHED');
    }
    const violation = capability.validate(content, { meta })[0];
    if (violation) throw errors.unprocessable('content', violation.message, 'CONTENT_INVALID');
  }

  return {
    async edit(apiKeyId: string, postId: string, body: Record<string, unknown>) {
      const content = textOf(body);
      const platform = body.platform as string | undefined;
      const accountId = body.accountId as string | undefined;
      let chosen = await load(apiKeyId, postId, platform, accountId);
      if (chosen.target.edit_pending !== null) {
        const earlier = await settle(apiKeyId, chosen);
        chosen = await load(apiKeyId, postId, platform, accountId);
        // The caller sending again the edit whose answer was lost: the platform made it, so that is the answer.
        if (earlier && earlier.content === content && chosen.target.platform_post_id === earlier.platformPostId) {
          return answer(postId, chosen, chosen.target.edit_count, earlier.previous, earlier);
        }
      }
      checkRules(chosen, content);
      const { target, account, capability, displayName } = chosen;

      const pending: PendingEdit = { claim: newAttemptId(), previous: target.platform_post_id!, content, until: clock.now() + claimMs };
      const raw = JSON.stringify(pending);
      if (!(await write((trx) => edits.claim(trx, target.id, pending.previous, raw)))) {
        throw errors.conflict('the post was edited by another request at the same time; read the post and try again');
      }

      // A throw from here on leaves the claim in place: nothing is known about what reached the platform,
      // so the claim is settled by asking the platform once its time is up.
      const sent = await withToken(account, (creds) => capability.send({ account: creds, platformPostId: pending.previous, content }));
      let published: Published;
      if (sent.ok) {
        await apply(apiKeyId, target, raw, pending, sent);
        published = sent;
      } else if (sent.category !== 'outcome_unknown') {
        await release(target, raw);
        const retryAt = 'retryAt' in sent ? sent.retryAt : undefined;
        const wait = retryAt === undefined ? undefined : (retryAt - clock.now()) / 1000;
        throw errors.platform(`${displayName} did not accept the edit: ${sent.message}`, { category: sent.category }, wait);
      } else {
        const found = await ask(apiKeyId, chosen, raw, pending);
        if (found.ok && found.found === true) published = found;
        else if (found.ok && found.found === false) {
          throw errors.platform(`${displayName} did not receive the edit (its answer was lost and the post shows no such edit); it is safe to send it again`, {
            category: 'platform_unavailable',
          });
        } else {
          throw errors.platform(`${displayName} may or may not have made the edit and cannot say yet (${sent.message}); sending it again later asks first`, {
            category: 'outcome_unknown',
          });
        }
      }
      return answer(postId, chosen, target.edit_count + 1, pending.previous, published);
    },
  };
}

export type EditService = ReturnType<typeof createEditService>;
