// The first comment on Instagram: POST /{ig-media-id}/comments by the account itself (needs
// instagram_manage_comments), posted by the engine once the media is published, never by publish.
// Stories cannot take comments (validate refuses them). A lost answer is looked for among the media's
// comments: the account's own (by username, or `from.id` where Graph gives it) with the same text.
import { obj, str } from '../meta/graph.ts';
import { graphComment } from '../meta/comments.ts';
import type { CommentCapability } from '../types.ts';
import type { InstagramContext } from './lookup.ts';

export function instagramComment(ctx: InstagramContext): CommentCapability {
  return graphComment(ctx.deps, ctx.graph, {
    label: 'Instagram',
    fields: 'id,text,timestamp,username,from',
    textField: 'text',
    timeField: 'timestamp',
    listQuery: {},
    isOwn: (comment, account) => {
      const username = str(comment, 'username') ?? str(obj(comment, 'from'), 'username');
      return str(obj(comment, 'from'), 'id') === account.accountId || (username !== undefined && username.toLowerCase() === account.username.toLowerCase());
    },
  });
}
