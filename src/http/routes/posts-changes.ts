// /v1/posts/{id}: changing a post after it was created. PATCH changes a draft or scheduled post (shape B
// errors, like a create); retry, edit and unpublish act on what was published.
import Type from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { UpdateService } from '../../posts/update-service.ts';
import { parseIfMatch } from '../../posts/update-service.ts';
import type { EditService } from '../../publishing/edit.ts';
import type { RetryService } from '../../publishing/retry.ts';
import type { UnpublishService } from '../../publishing/unpublish.ts';
import { PlatformName } from '../../platforms/registry.ts';
import { CreatePostBody, EditPostBody, EditResult, Post, PostIdParams, UnpublishBodySchema } from '../../posts/schemas.ts';
import { ErrorA, ErrorB, commonErrorsA } from '../../contract/schemas.ts';
import { callerOf } from '../fastify-types.ts';
import { component, ref } from '../../contract/components.ts';
import { idempotencyHeader, security } from './posts.ts';

export const UnpublishResult = ref(component('UnpublishResult', Type.Object({
  id: Type.String(),
  platforms: Type.Array(
    Type.Object({
      platform: PlatformName,
      accountId: Type.String(),
      unpublished: Type.Boolean(),
      error: Type.Optional(Type.String()),
      errorCode: Type.Optional(Type.String({ description: 'UNPUBLISH_NOT_SUPPORTED where the platform cannot delete, NOT_PUBLISHED, or the failure category.' })),
    }),
  ),
})));

export function postChangesRoutes(deps: { updates: UpdateService; retry: RetryService; edit: EditService; unpublish: UnpublishService }) {
  return async (base: FastifyInstance) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();

    app.patch(
      '/posts/:postId',
      {
        config: { errorShape: 'B-checks', idempotent: true },
        schema: {
          tags: ['posts'],
          operationId: 'updatePost',
          summary: 'Change a draft or scheduled post before any target has started; checked like a create.',
          description:
            '`platforms` and `mediaItems` replace the whole list. A mode field (isDraft, publishNow, scheduledFor, queue) moves the post; without one it keeps its mode and time. `If-Match: "<version>"` makes the change conditional.',
          security,
          params: PostIdParams,
          headers: Type.Object({
            ...idempotencyHeader.properties,
            'if-match': Type.Optional(Type.String({ description: 'The version the change expects, e.g. "3"; another gives 412 VERSION_MISMATCH.' })),
          }),
          body: CreatePostBody,
          response: { 200: Post, 400: ErrorB, 401: ErrorA, 404: ErrorA, 409: ErrorA, 412: ErrorA, 413: ErrorB, 415: ErrorB, 422: ErrorB, 429: ErrorA, 500: ErrorA, 503: ErrorA },
        },
      },
      async (req) => {
        const caller = callerOf(req);
        const recovered = req.idempotency?.recoveredResourceId;
        if (recovered) return deps.updates.get(caller.id, recovered);
        const header = req.headers['if-match'];
        return deps.updates.update(caller.id, req.params.postId, req.body, parseIfMatch(Array.isArray(header) ? header[0] : header), req.idempotency?.claim);
      },
    );

    app.post(
      '/posts/:postId/retry',
      {
        config: { idempotent: true },
        schema: {
          tags: ['posts'],
          operationId: 'retryPost',
          summary: 'Publish the failed targets (and failed first comments) again; published targets are never touched.',
          security,
          params: PostIdParams,
          headers: idempotencyHeader,
          response: { 200: Post, 409: ErrorA, 422: ErrorA, ...commonErrorsA },
        },
      },
      async (req) => deps.retry.retry(callerOf(req).id, req.params.postId),
    );

    app.post(
      '/posts/:postId/edit',
      {
        config: { idempotent: true },
        schema: {
          tags: ['posts'],
          operationId: 'editPost',
          summary: 'Edit the text of a published post, on platforms whose API can (X: paid subscription, within 1 hour, at most 5 edits).',
          security,
          params: PostIdParams,
          headers: idempotencyHeader,
          body: EditPostBody,
          response: { 200: EditResult, 409: ErrorA, 422: ErrorA, 502: ErrorA, ...commonErrorsA },
        },
      },
      async (req) => deps.edit.edit(callerOf(req).id, req.params.postId, req.body),
    );

    app.post(
      '/posts/:postId/unpublish',
      {
        config: { idempotent: true },
        schema: {
          tags: ['posts'],
          operationId: 'unpublishPost',
          summary: 'Delete a published post from its platforms (the post stays in Herald).',
          security,
          params: PostIdParams,
          headers: idempotencyHeader,
          body: Type.Optional(ref(UnpublishBodySchema)),
          response: { 200: UnpublishResult, 409: ErrorA, ...commonErrorsA },
        },
      },
      async (req) => deps.unpublish.unpublish(callerOf(req).id, req.params.postId, req.body ?? {}),
    );
  };
}
