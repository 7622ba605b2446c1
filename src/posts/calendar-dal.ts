// The calendar's read (the dashboard, API.md section 13): a key's posts placed at a time inside a range.
// A post's place is when it was published, else when it is scheduled for, else (a failed or running
// publishNow post) when it was created; drafts without a time have no place. Each of the three times has
// an index per key, so the read stays a few index ranges however many posts the key has. The database
// places, orders and cuts them at the limit, so a busy range costs the rows shown, not every row in it.
import { sql, type Kysely } from 'kysely';
import type { Database, PostRow } from '../db/schema.ts';
import { PRESENTED_TARGET_COLUMNS, presentPost, type PresentedTarget } from './present.ts';
import type { PostOut } from './schemas.ts';

export interface CalendarPost {
  /** When the calendar places the post (ISO). */
  at: string;
  post: PostOut;
}

export function placeOf(p: Pick<PostRow, 'published_at' | 'scheduled_for' | 'created_at' | 'status'>): number | null {
  if (p.published_at !== null) return p.published_at;
  if (p.scheduled_for !== null) return p.scheduled_for;
  return p.status === 'draft' ? null : p.created_at;
}

export function createCalendarDal(deps: { db: Kysely<Database> }) {
  const { db } = deps;
  return {
    /** Posts placed in [from, to), in time order; at most `limit` (`truncated` says more were there). */
    async between(apiKeyId: string, from: number, to: number, limit: number): Promise<{ posts: CalendarPost[]; truncated: boolean }> {
      // placeOf, in SQL: published, else scheduled, else (not a draft) created.
      const place = sql<number | null>`coalesce(published_at, scheduled_for, case when status = 'draft' then null else created_at end)`;
      const rows = await db
        .selectFrom('posts')
        .selectAll()
        .where('api_key_id', '=', apiKeyId)
        .where((eb) =>
          eb.or([
            eb.and([eb('published_at', '>=', from), eb('published_at', '<', to)]),
            eb.and([eb('scheduled_for', '>=', from), eb('scheduled_for', '<', to)]),
            eb.and([eb('created_at', '>=', from), eb('created_at', '<', to)]),
          ]),
        )
        .where(place, '>=', from)
        .where(place, '<', to)
        .orderBy(place)
        .orderBy('id')
        .limit(limit + 1)
        .execute();
      const page = rows.slice(0, limit).map((post) => ({ post, at: placeOf(post)! }));
      const targets = new Map<string, PresentedTarget[]>(page.map((p) => [p.post.id, []]));
      const ids = page.map((p) => p.post.id);
      // In chunks: both databases cap the number of bound parameters of one statement.
      for (let i = 0; i < ids.length; i += 500) {
        const chunk = ids.slice(i, i + 500);
        const found = await db.selectFrom('post_targets').select(PRESENTED_TARGET_COLUMNS).where('post_id', 'in', chunk).orderBy('position').execute();
        for (const t of found) targets.get(t.post_id)?.push(t);
      }
      return {
        posts: page.map((p) => ({ at: new Date(p.at).toISOString(), post: presentPost(p.post, targets.get(p.post.id) ?? []) })),
        truncated: rows.length > limit,
      };
    },
  };
}

export type CalendarDal = ReturnType<typeof createCalendarDal>;
