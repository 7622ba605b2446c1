// createHerald: one typed method per route of Herald's API, on openapi-fetch and the types generated
// from the OpenAPI document (schema.ts). Errors are thrown (errors.ts); Idempotency-Keys are added to
// every call that creates or changes something that must not happen twice; lists page with `for await`.
import createClient, {} from 'openapi-fetch';
import { apiError, HeraldConnectionError, HeraldError } from "./errors.js";
import { retryingFetch } from "./transport.js";
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
function idempotencyMiddleware() {
    return {
        onRequest({ request, schemaPath }) {
            if (!IDEMPOTENT.has(`${request.method} ${schemaPath}`))
                return undefined;
            if (request.headers.has('idempotency-key') || request.headers.has('idempotency-window'))
                return undefined;
            request.headers.set('idempotency-key', crypto.randomUUID());
            return request;
        },
    };
}
/** The method of each answer's request, for the errors (openapi-fetch hands back only the Response). */
const methodOf = new WeakMap();
async function unwrap(call) {
    const { data, error, response } = await call;
    if (!response.ok)
        throw apiError(response, methodOf.get(response) ?? '', error);
    return data;
}
function idempotencyHeaders(call = {}) {
    if (call.idempotencyKey)
        return { 'idempotency-key': call.idempotencyKey };
    if (call.idempotencyWindowSeconds)
        return { 'idempotency-window': call.idempotencyWindowSeconds };
    return {};
}
/** Pages through a cursor-paged list, one request per page, as `for await` consumes it. */
async function* paged(first, fetchPage, items) {
    let cursor = first;
    for (;;) {
        const page = await fetchPage(cursor);
        yield* items(page);
        if (!page.hasMore || !page.cursor)
            return;
        cursor = page.cursor;
    }
}
export function createHerald(options) {
    if (!options.baseUrl)
        throw new HeraldError('createHerald needs baseUrl, e.g. http://127.0.0.1:3000');
    if (!options.apiKey)
        throw new HeraldError('createHerald needs apiKey (hk_…)');
    const baseUrl = options.baseUrl.replace(/\/+$/, '');
    const retry = { maxRetries: 2, maxRetryDelayMs: 30_000, baseDelayMs: 250, ...options.retry };
    const plainFetch = options.fetch ?? ((request) => globalThis.fetch(request));
    const retrying = retryingFetch(plainFetch, retry);
    const send = async (request) => {
        const response = await retrying(request);
        methodOf.set(response, request.method);
        return response;
    };
    const headers = { ...options.headers, authorization: `Bearer ${options.apiKey}` };
    const api = createClient({ baseUrl, fetch: send, headers });
    api.use(idempotencyMiddleware());
    /** A call to a route that has no generated types yet (the media library); same retries and errors. */
    async function request(method, path, init = {}) {
        const url = new URL(`${baseUrl}${path}`);
        for (const [k, v] of Object.entries(init.query ?? {}))
            if (v !== undefined && v !== null)
                url.searchParams.set(k, String(v));
        const h = new Headers({ ...headers, ...init.headers });
        if (init.body !== undefined)
            h.set('content-type', 'application/json');
        if (IDEMPOTENT.has(`${method} ${path}`) && !h.has('idempotency-key') && !h.has('idempotency-window'))
            h.set('idempotency-key', crypto.randomUUID());
        const response = await send(new Request(url, { method, headers: h, body: init.body === undefined ? undefined : JSON.stringify(init.body) }));
        return readAnswer(response, method);
    }
    async function readAnswer(response, method) {
        const text = await response.text();
        let payload = text;
        try {
            payload = text ? JSON.parse(text) : undefined;
        }
        catch { }
        if (!response.ok)
            throw apiError(response, method, payload);
        return payload;
    }
    const postId = (id) => ({ path: { postId: id } });
    const posts = {
        /** POST /v1/posts. Errors are shape B (InvalidRequestError's `type` and `param`). */
        create: (body, call = {}) => unwrap(api.POST('/v1/posts', { body, params: { header: idempotencyHeaders(call) } })),
        list: (query = {}) => unwrap(api.GET('/v1/posts', { params: { query } })),
        /** Every post matching `query`, newest first, page by page: `for await (const post of herald.posts.iterate())`. */
        iterate: (query = {}) => paged(query.cursor, (cursor) => posts.list({ ...query, cursor }), (page) => page.posts),
        get: (id) => unwrap(api.GET('/v1/posts/{postId}', { params: postId(id) })),
        /** PATCH /v1/posts/{id}: a draft or scheduled post; `ifMatch` (a version) makes it conditional. */
        update: (id, body, call = {}) => unwrap(api.PATCH('/v1/posts/{postId}', {
            body,
            params: { ...postId(id), header: { ...idempotencyHeaders(call), ...(call.ifMatch !== undefined ? { 'if-match': `"${call.ifMatch}"` } : {}) } },
        })),
        delete: (id) => unwrap(api.DELETE('/v1/posts/{postId}', { params: postId(id) })),
        retry: (id, call = {}) => unwrap(api.POST('/v1/posts/{postId}/retry', { params: { ...postId(id), header: idempotencyHeaders(call) } })),
        edit: (id, body, call = {}) => unwrap(api.POST('/v1/posts/{postId}/edit', { body, params: { ...postId(id), header: idempotencyHeaders(call) } })),
        unpublish: (id, body = {}, call = {}) => unwrap(api.POST('/v1/posts/{postId}/unpublish', { body, params: { ...postId(id), header: idempotencyHeaders(call) } })),
        /** Every check of a create, nothing created: {valid, errors, targets}. */
        validate: (body) => unwrap(api.POST('/v1/posts/validate', { body: body })),
        /** Up to 500 creates at once: JSON ({posts, dryRun}) or a CSV text. */
        bulk: async (input, call = {}) => {
            if (typeof input !== 'string') {
                return unwrap(api.POST('/v1/posts/bulk', { body: input, params: { header: idempotencyHeaders(call), query: call.dryRun ? { dryRun: true } : {} } }));
            }
            const url = new URL(`${baseUrl}/v1/posts/bulk`);
            if (call.dryRun)
                url.searchParams.set('dryRun', 'true');
            const h = new Headers({ ...headers, 'content-type': 'text/csv', 'idempotency-key': call.idempotencyKey ?? crypto.randomUUID() });
            return readAnswer(await send(new Request(url, { method: 'POST', headers: h, body: input })), 'POST');
        },
    };
    const accounts = {
        list: (query = {}) => unwrap(api.GET('/v1/accounts', { params: { query } })),
        health: () => unwrap(api.GET('/v1/accounts/health')),
        disconnect: (platform, accountId) => unwrap(api.DELETE('/v1/accounts/{platform}/{accountId}', { params: { path: { platform, accountId } } })),
    };
    const connect = {
        start: (platform, query = {}) => unwrap(api.GET('/v1/connect/{platform}', { params: { path: { platform }, query } })),
        complete: (platform, body) => unwrap(api.POST('/v1/connect/{platform}', { params: { path: { platform } }, body })),
    };
    const deliveries = {
        list: (query = {}) => unwrap(api.GET('/v1/webhooks/deliveries', { params: { query } })),
        iterate: (query = {}) => paged(query.cursor, (cursor) => deliveries.list({ ...query, cursor }), (page) => page.deliveries),
        get: (id) => unwrap(api.GET('/v1/webhooks/deliveries/{id}', { params: { path: { id } } })),
        redeliver: (id) => unwrap(api.POST('/v1/webhooks/deliveries/{id}/redeliver', { params: { path: { id } } })),
    };
    const webhooks = {
        getSettings: () => unwrap(api.GET('/v1/webhooks/settings')),
        saveSettings: (body) => unwrap(api.POST('/v1/webhooks/settings', { body })),
        deleteSettings: () => unwrap(api.DELETE('/v1/webhooks/settings')),
        rotateSecret: () => unwrap(api.POST('/v1/webhooks/secret/rotate')),
        test: (event) => unwrap(api.POST('/v1/webhooks/test', { body: { event } })),
        deliveries,
    };
    const queue = {
        get: () => unwrap(api.GET('/v1/queue')),
        set: (body) => unwrap(api.PUT('/v1/queue', { body })),
        delete: () => unwrap(api.DELETE('/v1/queue')),
    };
    // The media library (API.md section 10), by its documented routes.
    const media = {
        /**
         * POST /v1/media with the file as the body, streamed (a ReadableStream is sent as it is read, never
         * held whole). Not retried: a stream cannot be sent twice.
         */
        upload: async (file, upload = {}) => {
            const url = new URL(`${baseUrl}/v1/media`);
            if (upload.filename)
                url.searchParams.set('filename', upload.filename);
            if (upload.altText)
                url.searchParams.set('altText', upload.altText);
            const total = upload.size ?? (file instanceof Blob ? file.size : file instanceof Uint8Array ? file.byteLength : null);
            const type = upload.contentType ?? (file instanceof Blob && file.type ? file.type : 'application/octet-stream');
            let body = file instanceof ReadableStream ? file : file instanceof Blob ? file.stream() : new Blob([file]).stream();
            if (upload.onProgress) {
                let sent = 0;
                const report = upload.onProgress;
                body = body.pipeThrough(new TransformStream({
                    transform(chunk, controller) {
                        sent += chunk.byteLength;
                        report(sent, total);
                        controller.enqueue(chunk);
                    },
                }));
            }
            const h = new Headers({ ...headers, 'content-type': type });
            if (total !== null)
                h.set('content-length', String(total));
            let response;
            try {
                response = await plainFetch(new Request(url, { method: 'POST', headers: h, body, duplex: 'half' }));
            }
            catch (err) {
                throw new HeraldConnectionError('POST', url.toString(), err);
            }
            return readAnswer(response, 'POST');
        },
        /** POST /v1/media/import: Herald fetches the URL into the library. */
        import: (body, call = {}) => request('POST', '/v1/media/import', { body, headers: call.idempotencyKey ? { 'idempotency-key': call.idempotencyKey } : {} }),
        list: (query = {}) => request('GET', '/v1/media', { query }),
        iterate: (query = {}) => paged(query.cursor, (cursor) => media.list({ ...query, cursor }), (page) => page.media),
        get: (id) => request('GET', `/v1/media/${encodeURIComponent(id)}`),
        update: (id, body) => request('PATCH', `/v1/media/${encodeURIComponent(id)}`, { body }),
        delete: (id) => request('DELETE', `/v1/media/${encodeURIComponent(id)}`),
    };
    const system = {
        health: () => unwrap(api.GET('/healthz')),
        ready: () => unwrap(api.GET('/readyz')),
    };
    return { posts, accounts, connect, webhooks, queue, media, system, request, raw: api };
}
