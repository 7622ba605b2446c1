// The MCP tools (API.md section 14): each one calls one REST route through the SDK, with flat arguments
// named as in that route (the create body's fields; postId plus the body's fields for one post; the
// query's fields for lists). Input schemas are derived from the routes' own TypeBox schemas, so a field
// added to a route appears in its tool.
import Type from 'typebox';
import type { Herald } from '@herald/sdk';
import { inlineRefs } from '../contract/components.ts';
import { ListAccountsQuery } from '../accounts/schemas.ts';
import { ImportBody as ImportMediaBody, ListMediaQuery } from '../media/schemas.ts';
import { CreatePostBodySchema, ListPostsQuery, PostIdParams, UnpublishBodySchema } from '../posts/schemas.ts';

/** How long the same create_post arguments return the first post (API.md section 14). */
export const CREATE_REPEAT_WINDOW_SECONDS = 600;

type JsonObjectSchema = { type: 'object'; properties: Record<string, unknown>; required?: string[]; additionalProperties?: boolean };
type Args = Record<string, unknown>;

export interface Tool {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonObjectSchema;
  annotations: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean };
  run(herald: Herald, args: Args): Promise<unknown>;
}

/** One flat object schema from the properties of route schemas (references inlined: MCP hosts get no components). */
function flat(...parts: object[]): JsonObjectSchema {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const part of parts) {
    const s = inlineRefs(part) as { properties?: Record<string, unknown>; required?: string[] };
    Object.assign(properties, s.properties ?? {});
    required.push(...(s.required ?? []));
  }
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
}

const IdempotencyKeyArg = Type.Object({
  idempotencyKey: Type.Optional(
    Type.String({
      format: 'uuid',
      description: `A UUID sent as Idempotency-Key. Without it, the same arguments from the same API key within ${CREATE_REPEAT_WINDOW_SECONDS / 60} minutes return the first post instead of creating another.`,
    }),
  ),
});
const IfMatchArg = Type.Object({ ifMatch: Type.Optional(Type.Integer({ minimum: 1, description: 'The version the change expects (If-Match); another gives VERSION_MISMATCH.' })) });

const NO_ARGS: JsonObjectSchema = { type: 'object', properties: {}, additionalProperties: false };

/** Splits `postId` (and the named extras) from the rest, which is the route's body. */
function take<K extends string>(args: Args, ...names: K[]): [Record<K, unknown>, Args] {
  const picked = {} as Record<K, unknown>;
  const rest: Args = { ...args };
  for (const n of names) {
    picked[n] = rest[n];
    delete rest[n];
  }
  return [picked, rest];
}

const str = (v: unknown) => (typeof v === 'string' ? v : String(v ?? ''));

export const TOOLS: Tool[] = [
  {
    name: 'list_accounts',
    title: 'List connected accounts',
    description: 'GET /v1/accounts: the social accounts connected to this API key (platform, accountId, username, status). Use accountId and platform as targets of create_post.',
    inputSchema: flat(ListAccountsQuery),
    annotations: { readOnlyHint: true },
    run: (h, args) => h.accounts.list(args as never),
  },
  {
    name: 'accounts_health',
    title: 'Check account health',
    description: 'GET /v1/accounts/health: each account checked live with its platform: token validity, permissions, and recommendations such as RECONNECT.',
    inputSchema: NO_ARGS,
    annotations: { readOnlyHint: true, openWorldHint: true },
    run: (h) => h.accounts.health(),
  },
  {
    name: 'create_post',
    title: 'Create a post',
    description:
      'POST /v1/posts: create a post and publish it now (publishNow: true), schedule it (scheduledFor, with timezone), queue it (queue: true) or save a draft (isDraft: true); exactly one mode. ' +
      `Calling again with the same arguments within ${CREATE_REPEAT_WINDOW_SECONDS / 60} minutes returns the first post: nothing is ever posted twice. Run validate_post first to see every problem at once.`,
    inputSchema: flat(CreatePostBodySchema, IdempotencyKeyArg),
    annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: true },
    run: (h, args) => {
      const [{ idempotencyKey }, body] = take(args, 'idempotencyKey');
      return h.posts.create(body as never, idempotencyKey ? { idempotencyKey: str(idempotencyKey) } : { idempotencyWindowSeconds: CREATE_REPEAT_WINDOW_SECONDS });
    },
  },
  {
    name: 'validate_post',
    title: 'Validate a post',
    description:
      'POST /v1/posts/validate: run every check of create_post (schema, mode, accounts, each platform\'s rules, character counts as each platform counts) without creating anything.',
    inputSchema: flat(CreatePostBodySchema),
    annotations: { readOnlyHint: true },
    run: (h, args) => h.posts.validate(args),
  },
  {
    name: 'update_post',
    title: 'Change a draft or scheduled post',
    description:
      'PATCH /v1/posts/{postId}: change a draft or scheduled post before any target started; platforms and mediaItems replace the whole list; a mode field moves it (isDraft, publishNow, scheduledFor, queue).',
    inputSchema: flat(PostIdParams, CreatePostBodySchema, IfMatchArg, IdempotencyKeyArg),
    annotations: { destructiveHint: false, openWorldHint: true },
    run: (h, args) => {
      const [{ postId, ifMatch, idempotencyKey }, body] = take(args, 'postId', 'ifMatch', 'idempotencyKey');
      return h.posts.update(str(postId), body as never, {
        ...(ifMatch !== undefined ? { ifMatch: ifMatch as number } : {}),
        ...(idempotencyKey ? { idempotencyKey: str(idempotencyKey) } : {}),
      });
    },
  },
  {
    name: 'list_posts',
    title: 'List posts',
    description: 'GET /v1/posts: posts newest first, filtered by status, platform and creation dates; pass the answer\'s cursor back for the next page.',
    inputSchema: flat(ListPostsQuery),
    annotations: { readOnlyHint: true },
    run: (h, args) => h.posts.list(args as never),
  },
  {
    name: 'get_post',
    title: 'Get a post',
    description: 'GET /v1/posts/{postId}: one post with the status of each target, its platform post id and URL, or why it failed.',
    inputSchema: flat(PostIdParams),
    annotations: { readOnlyHint: true },
    run: (h, args) => h.posts.get(str(args.postId)),
  },
  {
    name: 'delete_post',
    title: 'Delete a post from Herald',
    description: 'DELETE /v1/posts/{postId}: remove the post from Herald and cancel its scheduled work. It is NOT removed from the platforms (use unpublish_post for that).',
    inputSchema: flat(PostIdParams),
    annotations: { destructiveHint: true, idempotentHint: true },
    run: (h, args) => h.posts.delete(str(args.postId)),
  },
  {
    name: 'retry_post',
    title: 'Retry failed targets',
    description: 'POST /v1/posts/{postId}/retry: publish the failed targets (and failed first comments) again; published targets are never touched.',
    inputSchema: flat(PostIdParams, IdempotencyKeyArg),
    annotations: { destructiveHint: false, openWorldHint: true },
    run: (h, args) => h.posts.retry(str(args.postId), args.idempotencyKey ? { idempotencyKey: str(args.idempotencyKey) } : {}),
  },
  {
    name: 'unpublish_post',
    title: 'Unpublish a post',
    description: 'POST /v1/posts/{postId}/unpublish: delete the published post from its platforms (all published targets, or those listed); the post stays in Herald.',
    inputSchema: flat(PostIdParams, UnpublishBodySchema, IdempotencyKeyArg),
    annotations: { destructiveHint: true, openWorldHint: true },
    run: (h, args) => {
      const [{ postId, idempotencyKey }, body] = take(args, 'postId', 'idempotencyKey');
      return h.posts.unpublish(str(postId), body as never, idempotencyKey ? { idempotencyKey: str(idempotencyKey) } : {});
    },
  },
  {
    name: 'import_media',
    title: 'Import media from a URL',
    description: 'POST /v1/media/import: Herald fetches the file at url into the media library and answers the media object; use its id as {mediaId} in a post\'s mediaItems.',
    inputSchema: flat(ImportMediaBody),
    annotations: { destructiveHint: false, openWorldHint: true },
    run: (h, args) => h.media.import(args as never),
  },
  {
    name: 'list_media',
    title: 'List media',
    description: 'GET /v1/media: the media library, newest first; pass the answer\'s cursor back for the next page.',
    inputSchema: flat(ListMediaQuery),
    annotations: { readOnlyHint: true },
    run: (h, args) => h.media.list(args as never),
  },
  {
    name: 'get_queue',
    title: 'Get the posting queue',
    description: 'GET /v1/queue: the weekly slots and the next 10 free slot times (UTC) that create_post with queue: true would take.',
    inputSchema: NO_ARGS,
    annotations: { readOnlyHint: true },
    run: (h) => h.queue.get(),
  },
];
