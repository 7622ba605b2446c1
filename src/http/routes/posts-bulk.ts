// POST /v1/posts/validate and POST /v1/posts/bulk: checking a post without creating it, and creating
// many at once (JSON or CSV).
import Type from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { ajvToApiError, compileStrict } from '../../contract/validation.ts';
import { errors } from '../../contract/errors.ts';
import { MAX_BULK_BYTES, MAX_BULK_ROWS, bodiesFromCsv, type BulkService } from '../../posts/bulk-service.ts';
import type { ValidateService } from '../../posts/validate-service.ts';
import { PlatformName } from '../../platforms/registry.ts';
import { ErrorA, commonErrorsA } from '../../contract/schemas.ts';
import { callerOf } from '../fastify-types.ts';
import { component, ref } from '../../contract/components.ts';
import { idempotencyHeader, security } from './posts.ts';

const ProblemSchema = ref(component('Problem', Type.Object({
  param: Type.Union([Type.String(), Type.Null()]),
  code: Type.String(),
  message: Type.String(),
})));

export const ValidateResult = ref(component('ValidateResult', Type.Object({
  valid: Type.Boolean(),
  errors: Type.Array(ProblemSchema),
  targets: Type.Array(
    Type.Object({
      platform: PlatformName,
      accountId: Type.String(),
      valid: Type.Boolean(),
      errors: Type.Array(ProblemSchema),
      characters: Type.Object({
        used: Type.Integer({ description: "The text's length as the platform counts it (weighted, graphemes, code points or UTF-16 units: docs/api.md says which)." }),
        limit: Type.Integer(),
      }),
    }),
  ),
})));

const BulkJsonBody = Type.Object(
  {
    posts: Type.Array(Type.Unknown({ description: 'A create body (POST /v1/posts).' }), { maxItems: MAX_BULK_ROWS }),
    dryRun: Type.Optional(Type.Boolean({ description: 'Check every row, create nothing.' })),
  },
  { additionalProperties: false },
);
const checkBulkJson = compileStrict<{ posts: unknown[]; dryRun?: boolean }>(BulkJsonBody);

export const BulkResult = ref(component('BulkResult', Type.Object({
  created: Type.Integer(),
  failed: Type.Integer(),
  results: Type.Array(
    Type.Object({
      index: Type.Integer({ description: 'The row, from 0 (a CSV header is not a row).' }),
      valid: Type.Boolean(),
      id: Type.Optional(Type.String()),
      status: Type.Optional(Type.String()),
      errors: Type.Optional(Type.Array(ProblemSchema)),
    }),
  ),
})));

export function postsBulkRoutes(deps: { validate: ValidateService; bulk: BulkService }) {
  return async (base: FastifyInstance) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    // CSV bodies only on this scope (the bulk route); streamed into a capped string by Fastify.
    app.addContentTypeParser('text/csv', { parseAs: 'string', bodyLimit: MAX_BULK_BYTES }, (_req, body, done) => done(null, body));

    app.post(
      '/posts/validate',
      {
        schema: {
          tags: ['posts'],
          operationId: 'validatePost',
          summary: 'Run every check of a create without creating anything: all errors at once, a verdict and character count per target.',
          description: 'Takes a create body. Only a body that is not valid JSON gets 400 (a non-JSON content type: 415); every other problem is in the answer.',
          security,
          body: Type.Unknown({ description: 'A create body (POST /v1/posts).' }),
          response: { 200: ValidateResult, ...commonErrorsA },
        },
      },
      async (req) => deps.validate.validate(callerOf(req).id, req.body),
    );

    app.post(
      '/posts/bulk',
      {
        bodyLimit: MAX_BULK_BYTES,
        config: { idempotent: true },
        schema: {
          tags: ['posts'],
          operationId: 'importPosts',
          summary: `Create up to ${MAX_BULK_ROWS} posts from JSON ({posts, dryRun}) or CSV (text/csv, header row), each exactly as a single create.`,
          description:
            'CSV columns: content, scheduledFor, timezone, platforms (platform:accountId joined by ;), mediaUrls (joined by ;; .mp4/.mov/.m4v/.webm are videos), tags (joined by ;), isDraft, queue. At most 5 MiB. `?dryRun=true` (or dryRun in JSON) creates nothing. Idempotency-Key covers the whole import.',
          security,
          headers: idempotencyHeader,
          querystring: Type.Object({ dryRun: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
          body: {
            content: {
              'application/json': { schema: BulkJsonBody },
              'text/csv': { schema: Type.String({ description: 'A header row, then one row per post.' }) },
            },
          },
          response: { 200: BulkResult, 409: ErrorA, 422: ErrorA, ...commonErrorsA },
        },
      },
      async (req) => {
        const caller = callerOf(req);
        let rows: unknown[];
        let dryRun = req.query.dryRun === true;
        if (typeof req.body === 'string') {
          rows = bodiesFromCsv(req.body);
        } else {
          if (!checkBulkJson(req.body)) throw ajvToApiError(checkBulkJson.errors ?? [], 'body');
          rows = req.body.posts;
          dryRun ||= req.body.dryRun === true;
        }
        if (rows.length === 0) throw errors.invalid('posts', 'nothing to import: send at least one post');
        return deps.bulk.import(caller.id, rows, { dryRun, idempotencyKey: req.idempotency?.claim.key });
      },
    );
  };
}
