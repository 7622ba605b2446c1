// POST /v1/posts/{id}/unpublish (API.md section 12): deletes a published post from its platforms through
// each adapter's unpublish capability. Deleting is safe to repeat (a post the platform no longer has
// counts as deleted), so there is nothing to reconcile: a target whose delete failed can be sent again.
// Removed targets become `unpublished`; the post stays in Herald (SPEC's DELETE is the other way round).
import type { AccountsDal } from '../accounts/accounts-dal.ts';
import type { CredentialsService } from '../accounts/credentials.ts';
import { errors } from '../contract/errors.ts';
import type { TargetRow } from '../db/schema.ts';
import type { Writer } from '../db/writer.ts';
import { postUnpublished } from '../events/catalog.ts';
import type { Clock } from '../lib/clock.ts';
import { fromJson } from '../lib/json.ts';
import type { Platform, PlatformRegistry } from '../platforms/registry.ts';
import type { PlatformFailure } from '../platforms/types.ts';
import type { PostsDal } from '../posts/posts-dal.ts';
import { settlePostStatus } from '../posts/status.ts';
import type { Outbox } from '../webhooks/outbox.ts';

export interface UnpublishResult {
  platform: Platform;
  accountId: string;
  unpublished: boolean;
  error?: string;
  errorCode?: string;
}

export function createUnpublishService(deps: {
  write: Writer['write'];
  clock: Clock;
  posts: PostsDal;
  accounts: AccountsDal;
  credentials: CredentialsService;
  adapters: PlatformRegistry;
  outbox: Outbox;
}) {
  const { write, clock, posts, accounts, credentials, adapters, outbox } = deps;

  function choose(targets: TargetRow[], wanted: { platform: string; accountId: string }[] | undefined): TargetRow[] {
    if (wanted === undefined) {
      const published = targets.filter((t) => t.status === 'published');
      if (published.length === 0) throw errors.stateConflict('this post has no published target to unpublish', 'NOTHING_TO_UNPUBLISH');
      return published;
    }
    return wanted.map((w, i) => {
      const t = targets.find((x) => x.platform === w.platform && x.account_id === w.accountId);
      if (!t) throw errors.invalid(`platforms[${i}]`, `this post has no ${w.platform} target for account ${w.accountId}`);
      return t;
    });
  }

  async function unpublishOne(apiKeyId: string, t: TargetRow): Promise<UnpublishResult> {
    const base = { platform: t.platform as Platform, accountId: t.account_id };
    if (t.status === 'unpublished') return { ...base, unpublished: true };
    if (t.status !== 'published') return { ...base, unpublished: false, errorCode: 'NOT_PUBLISHED', error: `this target is ${t.status}, not published` };
    const adapter = adapters[t.platform as Platform];
    if (!adapter.unpublish) {
      return { ...base, unpublished: false, errorCode: 'UNPUBLISH_NOT_SUPPORTED', error: `${adapter.info.displayName}'s API cannot delete a published post; delete it in the app` };
    }
    const row = await accounts.find(apiKeyId, t.platform as Platform, t.account_id);
    if (!row) return { ...base, unpublished: false, errorCode: 'account_disconnected', error: `the ${adapter.info.displayName} account ${t.account_id} is no longer connected` };
    let cred = await credentials.forAccount(row);
    if (!cred.ok) return { ...base, unpublished: false, errorCode: cred.failure.category, error: cred.failure.message };
    const request = {
      account: cred.creds,
      platformPostId: t.platform_post_id!,
      checkpoint: fromJson<Record<string, unknown> | null>(t.checkpoint, null),
      platformCommentId: t.comment_status === 'published' ? t.comment_id : null,
    };
    let result = await adapter.unpublish(request);
    if (!result.ok && result.category === 'auth_expired') {
      cred = await credentials.refreshAfterAuthFailure(row);
      if (cred.ok) result = await adapter.unpublish({ ...request, account: cred.creds });
    }
    if (!result.ok) return { ...base, unpublished: false, errorCode: (result as PlatformFailure).category, error: (result as PlatformFailure).message };
    return { ...base, unpublished: true };
  }

  return {
    async unpublish(apiKeyId: string, postId: string, body: { platforms?: { platform: string; accountId: string }[] }) {
      const found = await posts.get(apiKeyId, postId);
      if (!found) throw errors.notFound(`no post ${postId}`);
      const chosen = choose(found.targets, body.platforms);
      const results = await Promise.all(chosen.map((t) => unpublishOne(apiKeyId, t)));
      const removed = chosen.filter((t, i) => results[i]!.unpublished && t.status === 'published');
      const now = clock.now();
      await write(async (trx) => {
        const current = await posts.getForUpdate(trx, postId);
        if (!current || removed.length === 0) return;
        // Only the call that takes a target down announces it: a repeat, or a concurrent call that lost the
        // race for the same targets, changes nothing and emits nothing, so post.unpublished comes once.
        const changed = await posts.markUnpublished(trx, removed.map((t) => t.id), now);
        if (changed === 0) return;
        await settlePostStatus(trx, current.post, now);
        await outbox.record(trx, apiKeyId, [postUnpublished(postId, results)]);
      });
      return { id: postId, platforms: results };
    },
  };
}

export type UnpublishService = ReturnType<typeof createUnpublishService>;
