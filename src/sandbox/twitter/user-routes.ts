// Identity (/2/users/me) and a user's own timeline (/2/users/:id/tweets), newest first, paged.
import type { FastifyInstance } from 'fastify';
import { fieldsOf, tweetObject, userObject } from './objects.ts';
import { authenticate, invalidRequest, notFoundError, withinRateLimit, type TwitterContext } from './replies.ts';

function parseTime(value: string | undefined): number | null | undefined {
  if (value === undefined) return undefined;
  const t = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?Z$/.test(value) ? Date.parse(value) : NaN;
  return Number.isFinite(t) ? t : null;
}

export function registerUserRoutes(app: FastifyInstance, ctx: TwitterContext): void {
  app.get('/2/users/me', async (req, reply) => {
    const user = authenticate(ctx, req, reply, ['users.read', 'tweet.read']);
    if (!user || !withinRateLimit(ctx, reply, user, 'GET /2/users/me')) return reply;
    return { data: userObject(user, fieldsOf(req.query, 'user.fields')) };
  });

  app.get('/2/users/:id/tweets', async (req, reply) => {
    const user = authenticate(ctx, req, reply, ['users.read', 'tweet.read']);
    if (!user || !withinRateLimit(ctx, reply, user, 'GET /2/users/:id/tweets')) return reply;
    const { id } = req.params as { id: string };
    const q = req.query as Record<string, string | undefined>;
    const max = q.max_results === undefined ? 10 : Number(q.max_results);
    if (!Number.isInteger(max) || max < 5 || max > 100) {
      return invalidRequest(reply, `The \`max_results\` query parameter value [${q.max_results}] is not between 5 and 100`, { max_results: [q.max_results] });
    }
    const start = parseTime(q.start_time);
    const end = parseTime(q.end_time);
    if (start === null) return invalidRequest(reply, `Invalid 'start_time':'${q.start_time}'.`, { start_time: [q.start_time] });
    if (end === null) return invalidRequest(reply, `Invalid 'end_time':'${q.end_time}'.`, { end_time: [q.end_time] });
    const offset = q.pagination_token ? Number(Buffer.from(q.pagination_token, 'base64url').toString('utf8')) : 0;
    if (!Number.isInteger(offset) || offset < 0) return invalidRequest(reply, 'The pagination token is invalid.', { pagination_token: [q.pagination_token] });
    if (!ctx.state.users.has(id)) return { errors: [notFoundError(id, 'user')] };

    const exclude = new Set((q.exclude ?? '').split(',').filter(Boolean));
    const posts = ctx.state
      .timeline(id)
      .filter((p) => (start === undefined || p.createdAt >= start) && (end === undefined || p.createdAt < end))
      .filter((p) => !(exclude.has('replies') && p.inReplyTo));
    const page = posts.slice(offset, offset + max);
    if (page.length === 0) return { meta: { result_count: 0 } };
    const fields = fieldsOf(req.query, 'tweet.fields');
    const meta: Record<string, unknown> = { result_count: page.length, newest_id: page[0]!.id, oldest_id: page[page.length - 1]!.id };
    if (offset + max < posts.length) meta.next_token = Buffer.from(String(offset + max)).toString('base64url');
    return { data: page.map((p) => tweetObject(ctx.state, p, fields, ctx.now())), meta };
  });
}
