// The first comment on Facebook: POST /{object-id}/comments as the Page, with its Page token (needs
// pages_manage_engagement). The object is what publishing answered: a feed or photo post
// ("{page-id}_{post-id}"), or a video or reel (its video id). Stories cannot take comments (validate
// refuses them). A lost answer is looked for among the object's comments, newest first: the Page's own
// (`from.id`, which Graph shows to a Page token) with the same text. Graph hides comments from user
// tokens on New Pages Experience, so the Page token reads them too.
import { obj, str } from '../meta/graph.ts';
import { graphComment } from '../meta/comments.ts';
import type { CommentCapability } from '../types.ts';
import type { FacebookContext } from './common.ts';

export function facebookComment(ctx: FacebookContext): CommentCapability {
  return graphComment(ctx.deps, ctx.graph, {
    label: 'Facebook',
    fields: 'id,message,created_time,from',
    textField: 'message',
    timeField: 'created_time',
    listQuery: { filter: 'stream', order: 'reverse_chronological' },
    isOwn: (comment, account) => str(obj(comment, 'from'), 'id') === account.accountId,
  });
}
