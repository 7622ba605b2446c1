// Data access for edits of published posts. Every write is fenced on the exact claim (the JSON of the
// pending edit), so only its holder — or whoever settled it after its time ran out — records an outcome.
import type { DbTx } from '../db/schema.ts';

export interface AppliedEdit {
  targetId: string;
  postId: string;
  /** The claim being settled (post_targets.edit_pending as stored). */
  claim: string;
  platformPostId: string;
  platformPostUrl: string;
  content: string;
  now: number;
}

export function createEditsDal() {
  return {
    /** Takes the edit claim of a published target whose post id is still `previous`; false when taken. */
    async claim(trx: DbTx, targetId: string, previous: string, claim: string): Promise<boolean> {
      const res = await trx
        .updateTable('post_targets')
        .set({ edit_pending: claim })
        .where('id', '=', targetId)
        .where('status', '=', 'published')
        .where('platform_post_id', '=', previous)
        .where('edit_pending', 'is', null)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },

    /** Replaces a claim (null drops it). */
    async replaceClaim(trx: DbTx, targetId: string, claim: string, next: string | null): Promise<void> {
      await trx.updateTable('post_targets').set({ edit_pending: next }).where('id', '=', targetId).where('edit_pending', '=', claim).execute();
    },

    /** Records an edit the platform made; returns the new edit count, or null when the claim is gone. */
    async apply(trx: DbTx, e: AppliedEdit): Promise<number | null> {
      const row = await trx.selectFrom('post_targets').select('edit_count').where('id', '=', e.targetId).where('edit_pending', '=', e.claim).executeTakeFirst();
      if (!row) return null;
      const editCount = row.edit_count + 1;
      await trx
        .updateTable('post_targets')
        .set({
          platform_post_id: e.platformPostId,
          platform_post_url: e.platformPostUrl,
          edit_count: editCount,
          custom_content: e.content,
          edit_pending: null,
          updated_at: e.now,
        })
        .where('id', '=', e.targetId)
        .where('edit_pending', '=', e.claim)
        .execute();
      await trx.updateTable('posts').set({ updated_at: e.now }).where('id', '=', e.postId).execute();
      return editCount;
    },
  };
}

export type EditsDal = ReturnType<typeof createEditsDal>;
