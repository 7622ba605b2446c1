// /v1/posts: create (shape B errors), list, get, delete. Changes to a post are in posts-changes.ts.
import Type from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccountsAhead, PostsService } from '../../posts/posts-service.ts';
import {
  CreatePostBody,
  DeletedPost,
  ListPostsQuery,
  Post,
  PostIdParams,
  PostPage,
} from '../../posts/schemas.ts';
import { callerOf } from '../fastify-types.ts';
import { ErrorA, ErrorB, commonErrorsA } from '../../contract/schemas.ts';

export const security = [{ bearerAuth: [] }];
export const idempotencyHeader = Type.Object({
  'idempotency-key': Type.Optional(Type.String({ description: 'A UUID; repeats of the request with it return the first answer for 24 h.' })),
  'idempotency-window': Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 86_400,
      description:
        'Instead of Idempotency-Key: seconds during which a repeat of this same request (method, path and body) by the same API key returns the first answer, counted from the first request.',
    }),
  ),
});

export function postsRoutes(deps: { posts: PostsService }) {
  return async (base: FastifyInstance) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    // With the key it was read for: a key not yet checked names the id its hash had before (auth.ts).
    const aheadOf = new WeakMap<FastifyRequest, { apiKeyId: string; ahead: AccountsAhead }>();
    app.post(
      '/posts',
      {
        config: {
          errorShape: 'B',
          idempotent: true,
          // The accounts the body names are read with the key's claim (one round trip on PostgreSQL).
          alongsideClaim: (req, apiKeyId) => {
            const ahead = deps.posts.accountsAhead(apiKeyId, req.body);
            if (!ahead) return undefined;
            aheadOf.set(req, { apiKeyId, ahead });
            return ahead.read;
          },
        },
        schema: {
          tags: ['posts'],
          operationId: 'createPost',
          summary: 'Create a post: publish now, schedule, or save a draft.',
          security,
          headers: idempotencyHeader,
          body: CreatePostBody,
          response: {
            201: Post,
            400: ErrorB,
            401: ErrorB,
            409: ErrorB,
            413: ErrorB,
            415: ErrorB,
            422: ErrorB,
            429: ErrorA,
            500: ErrorA,
            503: ErrorA,
          },
        },
      },
      async (req, reply) => {
        const caller = callerOf(req);
        const recovered = req.idempotency?.recoveredResourceId;
        if (recovered) return reply.code(201).send(await deps.posts.get(caller.id, recovered));
        const read = aheadOf.get(req);
        const { post, json } = await deps.posts.createAnswer(caller.id, req.body, req.idempotency?.claim, read?.apiKeyId === caller.id ? read.ahead : undefined);
        // A stored answer goes out as stored: serialised once, the same bytes as its replays.
        if (json !== null) return reply.code(201).type('application/json; charset=utf-8').send(json as never);
        return reply.code(201).send(post);
      },
    );

    app.get(
      '/posts',
      {
        schema: {
          tags: ['posts'],
          operationId: 'listPosts',
          summary: 'List posts, newest first, with keyset pagination.',
          security,
          querystring: ListPostsQuery,
          response: { 200: PostPage, ...commonErrorsA },
        },
      },
      async (req) => deps.posts.list(callerOf(req).id, req.query),
    );

    app.get(
      '/posts/:postId',
      {
        schema: {
          tags: ['posts'],
          operationId: 'getPost',
          summary: 'Get one post with per-platform status.',
          security,
          params: PostIdParams,
          response: { 200: Post, ...commonErrorsA },
        },
      },
      async (req) => deps.posts.get(callerOf(req).id, req.params.postId),
    );

    app.delete(
      '/posts/:postId',
      {
        schema: {
          tags: ['posts'],
          operationId: 'deletePost',
          summary: 'Delete a post from Herald (not from the platforms); cancels scheduled work.',
          security,
          params: PostIdParams,
          response: { 200: DeletedPost, 409: ErrorA, ...commonErrorsA },
        },
      },
      async (req) => deps.posts.remove(callerOf(req).id, req.params.postId),
    );
  };
}
