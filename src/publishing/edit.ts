// POST /v1/posts/{id}/edit: edits a published tweet (API.md section 5). Herald checks X's conditions
// first (paid subscription, 1 hour, 5 edits, text only) so the caller gets a precise 422, then asks X.
import type { AccountsDal } from '../accounts/accounts-dal.ts';
import type { CredentialsService } from '../accounts/credentials.ts';
import type { TargetRow } from '../db/schema.ts';
import type { Writer } from '../db/writer.ts';
import { errors } from '../http/errors.ts';
import type { Clock } from '../lib/clock.ts';
import type { PlatformAdapter, PublishOutcome } from '../platforms/types.ts';
import type { PostsDal } from '../posts/posts-dal.ts';
import type { Outbox } from '../webhooks/outbox.ts';

export const EDIT_WINDOW_MS = 60 * 60_000;
export const MAX_EDITS = 5;
const PAID = new Set(['Basic', 'Premium', 'PremiumPlus']);

export function createEditService(deps: {
  write: Writer['write'];
  clock: Clock;
  posts: PostsDal;
  accounts: AccountsDal;
  credentials: CredentialsService;
  twitter: PlatformAdapter;
  outbox: Outbox;
}) {
  const { write, clock, posts, accounts, credentials, twitter, outbox } = deps;

  function pickTarget(targets: TargetRow[], accountId: string | undefined): TargetRow {
    const published = targets.filter((t) => t.platform === 'twitter' && t.status === 'published' && (accountId === undefined || t.account_id === accountId));
    if (published.length === 0) {
      throw errors.unprocessable(accountId ? 'accountId' : undefined, 'this post has no published twitter target to edit', 'EDIT_NOT_SUPPORTED');
    }
    if (published.length > 1) throw errors.invalid('accountId', 'this post has several published twitter targets; name one with accountId');
    return published[0]!;
  }

  return {
    async edit(apiKeyId: string, postId: string, body: Record<string, unknown>) {
      const extra = Object.keys(body).filter((k) => k !== 'content' && k !== 'accountId');
      if (extra.length > 0) {
        throw errors.unprocessable(extra[0], `only the text of a tweet can be edited; remove ${extra.join(', ')}`, 'EDIT_TEXT_ONLY');
      }
      const content = body.content as string;
      const found = await posts.get(apiKeyId, postId);
      if (!found) throw errors.notFound(`no post ${postId}`);
      const target = pickTarget(found.targets, body.accountId as string | undefined);
      const row = await accounts.find(apiKeyId, 'twitter', target.account_id);
      if (!row) throw errors.unprocessable('accountId', `the X account ${target.account_id} is no longer connected`, 'EDIT_NOT_SUPPORTED');
      const meta = JSON.parse(row.meta) as { subscriptionType?: string };
      if (!PAID.has(meta.subscriptionType ?? 'None')) {
        throw errors.unprocessable(undefined, 'editing posts needs a paid X subscription on the account', 'PREMIUM_REQUIRED');
      }
      const now = clock.now();
      const editableUntil = (target.published_at ?? 0) + EDIT_WINDOW_MS;
      if (now > editableUntil) throw errors.unprocessable(undefined, 'a tweet can be edited only within 1 hour of publishing', 'EDIT_WINDOW_EXPIRED');
      if (target.edit_count >= MAX_EDITS) throw errors.unprocessable(undefined, `a tweet can be edited at most ${MAX_EDITS} times`, 'EDIT_LIMIT_REACHED');
      const violation = twitter.validate({ content, media: [], settings: {} }, { meta })[0];
      if (violation) throw errors.unprocessable('content', violation.message, 'CONTENT_INVALID');

      let cred = await credentials.forAccount(row);
      if (!cred.ok) throw errors.platform(`X refused: ${cred.failure.message}`);
      const call = (c: typeof cred & { ok: true }) => twitter.edit!({ account: c.creds, platformPostId: target.platform_post_id!, content });
      let result: PublishOutcome = await call(cred);
      if (!result.ok && result.category === 'auth_expired') {
        cred = await credentials.refreshAfterAuthFailure(row);
        if (cred.ok) result = await call(cred);
      }
      if (!result.ok) throw errors.platform(`X did not accept the edit: ${result.message}`, { category: result.category });

      const previous = target.platform_post_id!;
      const editCount = target.edit_count + 1;
      await write(async (trx) => {
        const updated = await trx
          .updateTable('post_targets')
          .set({ platform_post_id: result.platformPostId, platform_post_url: result.platformPostUrl, edit_count: editCount, custom_content: content, updated_at: now })
          .where('id', '=', target.id)
          .where('platform_post_id', '=', previous)
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) !== 1) throw errors.conflict('the tweet was edited by another request at the same time; read the post and try again');
        await trx.updateTable('posts').set({ updated_at: now }).where('id', '=', postId).execute();
        await outbox.record(trx, apiKeyId, [
          {
            event: 'post.edited',
            data: { postId, platform: 'twitter', accountId: target.account_id, platformPostId: result.platformPostId, previousPlatformPostId: previous },
          },
        ]);
      });
      return {
        id: postId,
        platform: 'twitter' as const,
        accountId: target.account_id,
        platformPostId: result.platformPostId,
        previousPlatformPostId: previous,
        platformPostUrl: result.platformPostUrl,
        editCount,
        editsRemaining: MAX_EDITS - editCount,
        editableUntil: new Date(editableUntil).toISOString(),
      };
    },
  };
}

export type EditService = ReturnType<typeof createEditService>;
