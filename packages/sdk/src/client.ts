// createHerald: one typed method per route of Herald's API, on openapi-fetch and the types generated
// from the OpenAPI document (schema.ts). Errors are thrown (errors.ts); Idempotency-Keys are added to
// every call that creates or changes something that must not happen twice; lists page with `for await`.
import createClient, { type Middleware } from 'openapi-fetch';
import { apiError, HeraldConnectionError, HeraldError } from './errors.ts';
import type { components, operations, paths } from './schema.ts';
import { retryingFetch, type RetryOptions } from './transport.ts';

type Schemas = components['schemas'];
export type Post = Schemas['Post'];
export type PlatformResult = Schemas['PlatformResult'];
export type MediaItem = Schemas['MediaItem'];
export type CreatePostInput = Schemas['CreatePostRequest'];
export type TargetInput = Schemas['TargetInput'];
export type PostPage = Schemas['PostPage'];
export type EditPostInput = Schemas['EditPostRequest'];
export type EditResult = Schemas['EditResult'];
export type UnpublishInput = Schemas['UnpublishRequest'];
export type UnpublishResult = Schemas['UnpublishResult'];
export type ValidateResult = Schemas['ValidateResult'];
export type BulkResult = Schemas['BulkResult'];
export type Account = Schemas['Account'];
export type AccountHealth = Schemas['AccountHealth'];
export type ConnectStart = Schemas['ConnectStart'];
export type ConnectResult = Schemas['ConnectResult'];
export type Queue = Schemas['Queue'];
export type QueueInput = Schemas['QueueRequest'];
export type WebhookSettings = Schemas['WebhookSettings'];
export type WebhookSettingsInput = Schemas['WebhookSettingsRequest'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type WebhookDeliveryDetail = Schemas['WebhookDeliveryDetail'];
export type WebhookTestResult = Schemas['WebhookTestResult'];
export type Platform = PlatformResult['platform'];
export type ListPostsQuery = NonNullable<operations['listPosts']['parameters']['query']>;
export type ListDeliveriesQuery = NonNullable<operations['listWebhookDeliveries']['parameters']['query']>;
export type StartConnectQuery = NonNullable<operations['startConnect']['parameters']['query']>;
export type CompleteConnectInput = NonNullable<operations['completeConnect']['requestBody']>['content']['application/json'];
export type BulkInput = { posts: CreatePostInput[]; dryRun?: boolean };

/** A media library item (API.md section 10). */
export interface Media {
  id: string;
  type: 'image' | 'video' | 'document';
  contentType: string;
  bytes: number;
  sha256: string;
  width: number | null;
  height: number | null;
  durationMs: number | null;
  frameRate: number | null;
  videoCodec: string | null;
  audioCodec: string | null;
  pages: number | null;
  altText: string | null;
  url: string;
  createdAt: string;
}
export interface MediaPage {
  media: Media[];
  cursor: string | null;
  hasMore: boolean;
}

export interface HeraldOptions {
  /** Where Herald answers, e.g. http://127.0.0.1:3000 (no /v1). */
  baseUrl: string;
  /** An API key (hk_…). */
  apiKey: string;
  /** A fetch of your own (a proxy, a test double, a framework's fetch); default globalThis.fetch. */
  fetch?: (request: Request) => Promise<Response>;
  /** Headers sent with every request (say a User-Agent of yours). */
  headers?: Record<string, string>;
  /** Retries of 429, 5xx and unanswered requests: see transport.ts. */
  retry?: Partial<RetryOptions>;
}

/** Options of calls that honour an Idempotency-Key. */
export interface IdempotentCall {
  /** A UUID of yours; by default the client makes one per call (and reuses it for its own retries). */
  idempotencyKey?: string;
}
export interface CreateCall extends IdempotentCall {
  /**
   * Instead of a key: seconds during which the same create by the same API key returns the first post
   * (Idempotency-Window; what the MCP server sends). Ignored when idempotencyKey is given.
   */
  idempotencyWindowSeconds?: number;
}

export interface UploadOptions {
  /** The file's type as sent (Herald recognises the kind from the bytes); default application/octet-stream. */
  contentType?: string;
  filename?: string;
  altText?: string;
  /** The size in bytes, when known, for onProgress's total. */
  size?: number;
  /** Called as bytes go out. */
  onProgress?: (sentBytes: number, totalBytes: number | null) => void;
}

/** The routes whose calls get an Idempotency-Key unless one is given (method and path template). */
const IDEMPOTENT = new Set([
  'POST /v1/posts',
  'PATCH /v1/posts/{postId}',
  'POST /v1/posts/{postId}/retry',
  'POST /v1/posts/{postId}/edit',
  'POST /v1/posts/{postId}/unpublish',
  'POST /v1/posts/bulk',
  'POST /v1/media/import',
]);

function idempotencyMiddleware(): Middleware {
  return {
    onRequest({ request, schemaPath }) {
      if (!IDEMPOTENT.has(`${request.method} ${schemaPath}`)) return undefined;
      if (request.headers.has('idempotency-key') || request.headers.has('idempotency-window')) return undefined;
      request.headers.set('idempotency-key', crypto.randomUUID());
      return request;
    },
  };
}

type Answer<T> = { data?: T; error?: unknown; response: Response };

/** The method of each answer's request, for the errors (openapi-fetch hands back only the Response). */
const methodOf = new WeakMap<Response, string>();

async function unwrap<T>(call: Promise<Answer<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw apiError(response, methodOf.get(response) ?? '', error);
  return data as T;
}

type IdempotencyHeaders = { 'idempotency-key'?: string; 'idempotency-window'?: number };

function idempotencyHeaders(call: CreateCall = {}): IdempotencyHeaders {
  if (call.idempotencyKey) return { 'idempotency-key': call.idempotencyKey };
  if (call.idempotencyWindowSeconds) return { 'idempotency-window': call.idempotencyWindowSeconds };
  return {};
}

/** Pages through a cursor-paged list, one request per page, as `for await` consumes it. */
async function* paged<T, P extends { cursor: string | null; hasMore: boolean }>(
  first: string | undefined,
  fetchPage: (cursor: string | undefined) => Promise<P>,
  items: (page: P) => T[],
): AsyncGenerator<T, void, undefined> {
  let cursor = first;
  for (;;) {
    const page = await fetchPage(cursor);
    yield* items(page);
    if (!page.hasMore || !page.cursor) return;
    cursor = page.cursor;
  }
}

export type Herald = ReturnType<typeof createHerald>;

export function createHerald(options: HeraldOptions) {
  if (!options.baseUrl) throw new HeraldError('createHerald needs baseUrl, e.g. http://127.0.0.1:3000');
  if (!options.apiKey) throw new HeraldError('createHerald needs apiKey (hk_…)');
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const retry: RetryOptions = { maxRetries: 2, maxRetryDelayMs: 30_000, baseDelayMs: 250, ...options.retry };
  const plainFetch = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const retrying = retryingFetch(plainFetch, retry);
  const send = async (request: Request) => {
    const response = await retrying(request);
    methodOf.set(response, request.method);
    return response;
  };
  const headers = { ...options.headers, authorization: `Bearer ${options.apiKey}` };
  const api = createClient<paths>({ baseUrl, fetch: send, headers });
  api.use(idempotencyMiddleware());

  /** A call to a route that has no generated types yet (the media library); same retries and errors. */
  async function request<T>(method: string, path: string, init: { query?: Record<string, unknown>; body?: unknown; headers?: Record<string, string> } = {}): Promise<T> {
    const url = new URL(`${baseUrl}${path}`);
    for (const [k, v] of Object.entries(init.query ?? {})) if (v !== undefined && v !== null) url.searchParams.set(k, String(v));
    const h = new Headers({ ...headers, ...init.headers });
    if (init.body !== undefined) h.set('content-type', 'application/json');
    if (IDEMPOTENT.has(`${method} ${path}`) && !h.has('idempotency-key') && !h.has('idempotency-window')) h.set('idempotency-key', crypto.randomUUID());
    const response = await send(new Request(url, { method, headers: h, body: init.body === undefined ? undefined : JSON.stringify(init.body) }));
    return readAnswer<T>(response, method);
  }

  async function readAnswer<T>(response: Response, method: string): Promise<T> {
    const text = await response.text();
    let payload: unknown = text;
    try {
      payload = text ? JSON.parse(text) : undefined;
    } catch {}
    if (!response.ok) throw apiError(response, method, payload);
    return payload as T;
  }

  const postId = (id: string) => ({ path: { postId: id } });

  const posts = {
    /** POST /v1/posts. Errors are shape B (InvalidRequestError's `type` and `param`). */
    create: (body: CreatePostInput, call: CreateCall = {}) =>
      unwrap(api.POST('/v1/posts', { body, params: { header: idempotencyHeaders(call) } })),
    list: (query: ListPostsQuery = {}) => unwrap(api.GET('/v1/posts', { params: { query } })),
    /** Every post matching `query`, newest first, page by page: `for await (const post of herald.posts.iterate())`. */
    iterate: (query: Omit<ListPostsQuery, 'cursor'> & { cursor?: string } = {}) =>
      paged(query.cursor, (cursor) => posts.list({ ...query, cursor }), (page: PostPage) => page.posts),
    get: (id: string) => unwrap(api.GET('/v1/posts/{postId}', { params: postId(id) })),
    /** PATCH /v1/posts/{id}: a draft or scheduled post; `ifMatch` (a version) makes it conditional. */
    update: (id: string, body: CreatePostInput, call: IdempotentCall & { ifMatch?: number | string } = {}) =>
      unwrap(
        api.PATCH('/v1/posts/{postId}', {
          body,
          params: { ...postId(id), header: { ...idempotencyHeaders(call), ...(call.ifMatch !== undefined ? { 'if-match': `"${call.ifMatch}"` } : {}) } as never },
        }),
      ),
    delete: (id: string) => unwrap(api.DELETE('/v1/posts/{postId}', { params: postId(id) })),
    retry: (id: string, call: IdempotentCall = {}) => unwrap(api.POST('/v1/posts/{postId}/retry', { params: { ...postId(id), header: idempotencyHeaders(call) } })),
    edit: (id: string, body: EditPostInput, call: IdempotentCall = {}) =>
      unwrap(api.POST('/v1/posts/{postId}/edit', { body, params: { ...postId(id), header: idempotencyHeaders(call) } })),
    unpublish: (id: string, body: UnpublishInput = {}, call: IdempotentCall = {}) =>
      unwrap(api.POST('/v1/posts/{postId}/unpublish', { body, params: { ...postId(id), header: idempotencyHeaders(call) } })),
    /** Every check of a create, nothing created: {valid, errors, targets}. */
    validate: (body: CreatePostInput | Record<string, unknown>) => unwrap(api.POST('/v1/posts/validate', { body: body as never })),
    /** Up to 500 creates at once: JSON ({posts, dryRun}) or a CSV text. */
    bulk: async (input: BulkInput | string, call: IdempotentCall & { dryRun?: boolean } = {}): Promise<BulkResult> => {
      if (typeof input !== 'string') {
        return unwrap(api.POST('/v1/posts/bulk', { body: input as never, params: { header: idempotencyHeaders(call), query: call.dryRun ? { dryRun: true } : {} } }));
      }
      const url = new URL(`${baseUrl}/v1/posts/bulk`);
      if (call.dryRun) url.searchParams.set('dryRun', 'true');
      const h = new Headers({ ...headers, 'content-type': 'text/csv', 'idempotency-key': call.idempotencyKey ?? crypto.randomUUID() });
      return readAnswer<BulkResult>(await send(new Request(url, { method: 'POST', headers: h, body: input })), 'POST');
    },
  };

  const accounts = {
    list: (query: { platform?: Platform } = {}) => unwrap(api.GET('/v1/accounts', { params: { query } })),
    health: () => unwrap(api.GET('/v1/accounts/health')),
    disconnect: (platform: Platform, accountId: string) => unwrap(api.DELETE('/v1/accounts/{platform}/{accountId}', { params: { path: { platform, accountId } } })),
  };

  const connect = {
    start: (platform: Platform, query: StartConnectQuery = {}) => unwrap(api.GET('/v1/connect/{platform}', { params: { path: { platform }, query } })),
    complete: (platform: Platform, body: CompleteConnectInput) => unwrap(api.POST('/v1/connect/{platform}', { params: { path: { platform } }, body })),
  };

  const deliveries = {
    list: (query: ListDeliveriesQuery = {}) => unwrap(api.GET('/v1/webhooks/deliveries', { params: { query } })),
    iterate: (query: ListDeliveriesQuery = {}) =>
      paged(query.cursor, (cursor) => deliveries.list({ ...query, cursor }), (page: Schemas['WebhookDeliveryPage']) => page.deliveries),
    get: (id: string) => unwrap(api.GET('/v1/webhooks/deliveries/{id}', { params: { path: { id } } })),
    redeliver: (id: string) => unwrap(api.POST('/v1/webhooks/deliveries/{id}/redeliver', { params: { path: { id } } })),
  };

  const webhooks = {
    getSettings: () => unwrap(api.GET('/v1/webhooks/settings')),
    saveSettings: (body: WebhookSettingsInput) => unwrap(api.POST('/v1/webhooks/settings', { body })),
    deleteSettings: () => unwrap(api.DELETE('/v1/webhooks/settings')),
    rotateSecret: () => unwrap(api.POST('/v1/webhooks/secret/rotate')),
    test: (event: WebhookDelivery['event']) => unwrap(api.POST('/v1/webhooks/test', { body: { event } })),
    deliveries,
  };

  const queue = {
    get: () => unwrap(api.GET('/v1/queue')),
    set: (body: QueueInput) => unwrap(api.PUT('/v1/queue', { body })),
    delete: () => unwrap(api.DELETE('/v1/queue')),
  };

  // The media library (API.md section 10), by its documented routes.
  const media = {
    /**
     * POST /v1/media with the file as the body, streamed (a ReadableStream is sent as it is read, never
     * held whole). Not retried: a stream cannot be sent twice.
     */
    upload: async (file: Blob | Uint8Array | ReadableStream<Uint8Array>, upload: UploadOptions = {}): Promise<Media> => {
      const url = new URL(`${baseUrl}/v1/media`);
      if (upload.filename) url.searchParams.set('filename', upload.filename);
      if (upload.altText) url.searchParams.set('altText', upload.altText);
      const total = upload.size ?? (file instanceof Blob ? file.size : file instanceof Uint8Array ? file.byteLength : null);
      const type = upload.contentType ?? (file instanceof Blob && file.type ? file.type : 'application/octet-stream');
      let body: BodyInit = file instanceof ReadableStream ? file : file instanceof Blob ? file.stream() : new Blob([file as BlobPart]).stream();
      if (upload.onProgress) {
        let sent = 0;
        const report = upload.onProgress;
        body = (body as ReadableStream<Uint8Array>).pipeThrough(
          new TransformStream<Uint8Array, Uint8Array>({
            transform(chunk, controller) {
              sent += chunk.byteLength;
              report(sent, total);
              controller.enqueue(chunk);
            },
          }),
        );
      }
      const h = new Headers({ ...headers, 'content-type': type });
      if (total !== null) h.set('content-length', String(total));
      let response: Response;
      try {
        response = await plainFetch(new Request(url, { method: 'POST', headers: h, body, duplex: 'half' } as RequestInit));
      } catch (err) {
        throw new HeraldConnectionError('POST', url.toString(), err);
      }
      return readAnswer<Media>(response, 'POST');
    },
    /** POST /v1/media/import: Herald fetches the URL into the library. */
    import: (body: { url: string; altText?: string }, call: IdempotentCall = {}) =>
      request<Media>('POST', '/v1/media/import', { body, headers: call.idempotencyKey ? { 'idempotency-key': call.idempotencyKey } : {} }),
    list: (query: { limit?: number; cursor?: string } = {}) => request<MediaPage>('GET', '/v1/media', { query }),
    iterate: (query: { limit?: number; cursor?: string } = {}) => paged(query.cursor, (cursor) => media.list({ ...query, cursor }), (page: MediaPage) => page.media),
    get: (id: string) => request<Media>('GET', `/v1/media/${encodeURIComponent(id)}`),
    update: (id: string, body: { altText: string | null }) => request<Media>('PATCH', `/v1/media/${encodeURIComponent(id)}`, { body }),
    delete: (id: string) => request<{ id: string; deleted: boolean }>('DELETE', `/v1/media/${encodeURIComponent(id)}`),
  };

  const system = {
    health: () => unwrap(api.GET('/healthz')),
    ready: () => unwrap(api.GET('/readyz')),
  };

  return { posts, accounts, connect, webhooks, queue, media, system, request, raw: api };
}
