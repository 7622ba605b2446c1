// The HTTP application. buildApp receives every dependency ready-made (the composition root is
// runtime.ts) and only wires routes, hooks and documentation.
import { randomBytes } from 'node:crypto';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Type from 'typebox';
import Fastify, { type FastifyInstance, type FastifyPluginAsync, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { KeysService } from '../keys/keys-service.ts';
import type { Metrics } from '../observability/metrics.ts';
import { installAuth, type SessionAuth } from './auth.ts';
import { BODY_LIMIT_BYTES, MAX_PARAM_LENGTH, frameworkErrorHandler, installErrorHandling } from './error-handler.ts';
import { errors } from '../contract/errors.ts';
import { forbiddenKeyIn, nulStringIn } from '../lib/json.ts';
import './fastify-types.ts';
import type { IdempotencyStore } from '../idempotency/idempotency-store.ts';
import { installIdempotency } from './idempotency-hook.ts';
import type { InFlight } from './in-flight.ts';
import type { RateLimiter } from './rate-limit.ts';
import { validatorCompiler } from '../contract/validation.ts';
import { systemRoutes } from './routes/system.ts';
import { mcpRoutes } from './routes/mcp.ts';
import { openApiWebhooks } from '../events/describe.ts';
import { PLATFORM_DESCRIPTORS } from '../platforms/registry.ts';
import { componentRefs, namedSchemas } from '../contract/components.ts';

const NO_QUERY = Type.Object({}, { additionalProperties: false });

/** The tags of the document's operations, in the order a reader meets them. */
const API_TAGS = [
  { name: 'posts', description: 'Create, schedule, list, change, retry, edit and unpublish posts.' },
  { name: 'accounts', description: 'Connect social accounts (OAuth or app password), list them, check their health, disconnect them.' },
  { name: 'webhooks', description: 'Where events are sent, the signing secret, the delivery log and test sends.' },
  { name: 'media', description: 'The media library: upload or import files once, use them in posts by id.' },
  { name: 'queue', description: 'Weekly posting slots that posts created with queue: true take in turn.' },
  { name: 'system', description: 'Liveness and readiness, without a key.' },
];

export interface AppDeps {
  log: Logger;
  version: string;
  publicUrl: string;
  keys: Pick<KeysService, 'authenticate'> & Partial<Pick<KeysService, 'lookup' | 'callerOf'>>;
  keyLimiter: RateLimiter;
  badKeyLimiter: RateLimiter;
  /** Dashboard sessions, accepted on /v1 in place of the key (API.md section 13). */
  session?: SessionAuth;
  idempotency: IdempotencyStore;
  metrics: Metrics;
  ready(): Promise<void>;
  /** The /v1 route plugins (posts, accounts, connect, webhooks, …), built by the composition root. */
  v1Plugins?: FastifyPluginAsync[];
  /** Public (no key) plugins, e.g. the sandbox emulators. */
  publicPlugins?: { prefix: string; plugin: FastifyPluginAsync }[];
  /** Proxies in front whose X-Forwarded-For is trusted (for per-address limits); 0: none. */
  trustProxyHops?: number;
  /** false for the worker role: only health, readiness and metrics are served. */
  apiRoutes?: boolean;
  /** Tracks running handlers, for a shutdown that waits for them. */
  inFlight?: InFlight;
}

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

// Request ids must be unique, not secret: a random per-process prefix and a counter.
const REQUEST_ID_PREFIX = `req_${randomBytes(6).toString('base64url')}`;
let requestCounter = 0;

function requestId(req: { headers: Record<string, string | string[] | undefined> }): string {
  const incoming = req.headers['x-request-id'];
  if (typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming)) return incoming;
  requestCounter = (requestCounter + 1) % Number.MAX_SAFE_INTEGER;
  return `${REQUEST_ID_PREFIX}${requestCounter.toString(36).padStart(6, '0')}`;
}

function routeLabel(req: FastifyRequest): string {
  return req.routeOptions.url ?? 'unmatched';
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  // Lets /mcp's in-process tool calls skip a second rate-limit count (auth.ts); never sent out.
  const inProcessToken = randomBytes(32).toString('base64url');
  const app = Fastify({
    loggerInstance: deps.log,
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: requestId,
    // Fastify (proxy-addr) takes a hop count, though its types only list the other forms.
    trustProxy: deps.trustProxyHops ? (deps.trustProxyHops as unknown as boolean) : false,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // Errors raised before routing go through the same error model as the rest (error-handler.ts).
    frameworkErrors: frameworkErrorHandler,
    ajv: { customOptions: { removeAdditional: false } },
  }) as unknown as FastifyInstance;
  app.setValidatorCompiler(validatorCompiler);
  app.decorateRequest('caller', null);
  app.decorateRequest('idempotency', null);
  app.decorateRequest('pendingKey', null);

  // JSON is the only body format (API.md section 1): anything else is a 415.
  app.removeContentTypeParser('text/plain');
  // An empty body is "no body" (POST /retry sends none), not a JSON syntax error.
  const defaultJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (body === '' || (typeof body === 'string' && body.trim() === '')) return done(null, undefined);
    defaultJson(req, body as string, (err, value) => {
      // Fastify refuses "__proto__" keys (and "constructor" holding "prototype") as it refuses broken
      // JSON; valid JSON with such a key is told apart and named.
      const found = err ? forbiddenKeyIn(body as string) : null;
      if (found) {
        const what = found.key === '__proto__' ? 'the key "__proto__"' : 'a "constructor" key holding "prototype"';
        return done(errors.invalid(found.path, `${what} is not allowed in a request body (at ${found.path})`), undefined);
      }
      // U+0000 is refused in every field, on both databases (PostgreSQL's text cannot hold it). In JSON it
      // can only be written as an escape, so most bodies are passed over without a walk.
      const nul = !err && /\\u0000/.test(body as string) ? nulStringIn(value) : null;
      if (nul !== null) return done(errors.invalid(nul || undefined, `${nul || 'the body'} must not contain the character U+0000 (NUL)`), undefined);
      done(err, value);
    });
  });

  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
    // No id, name or value holds U+0000 (PostgreSQL's text cannot store it): refused in the path and query.
    if (/%00/.test(req.url)) throw errors.invalid(undefined, 'the request URL holds %00 (the character U+0000), which no id or parameter may contain');
  });
  deps.inFlight?.install(app);
  app.addHook('onResponse', async (req, reply) => {
    const route = routeLabel(req);
    deps.metrics.httpRequests.inc({ method: req.method, route, status: String(reply.statusCode) });
    deps.metrics.httpDuration.observe({ method: req.method, route }, reply.elapsedTime / 1000);
  });
  installErrorHandling(app);
  // Named schemas (contract/components.ts): the serialiser resolves their references, and the OpenAPI
  // document lists them under components/schemas by name.
  for (const schema of namedSchemas()) app.addSchema(schema);

  await app.register(swagger, {
    refResolver: { buildLocalReference: (json: { $id?: unknown }, _base: unknown, _fragment: unknown, i: number) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Herald API',
        version: deps.version,
        license: { name: 'MIT', identifier: 'MIT' },
        description:
          `Publish, schedule and manage social posts on ${PLATFORM_DESCRIPTORS.map((d) => d.info.displayName).join(', ')}. ` +
          'Errors use shape A ({error, code, param?}) everywhere except POST /v1/posts, which uses shape B ({error, type, code, param}).',
      },
      servers: [{ url: deps.publicUrl }],
      tags: API_TAGS,
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'Herald API key (hk_…)' },
          // Not a credential a caller sends: how a receiver recognises Herald's webhook requests.
          heraldSignature: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Herald-Signature',
            description: 'Lowercase hex HMAC-SHA256 of the raw body, keyed with the webhook secret (also signed per Standard Webhooks).',
          },
        },
      },
      // What Herald sends to the webhook URL, one entry per event of the catalog.
      webhooks: componentRefs(openApiWebhooks()),
    } as never,
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list', deepLinking: true } });

  await app.register(systemRoutes, { metrics: deps.metrics, ready: deps.ready });
  if (deps.apiRoutes === false) return app;

  await app.register(
    async (v1) => {
      // A query parameter no route knows is a mistake worth telling (API.md section 2), so every /v1
      // route without its own query schema gets one that accepts none.
      v1.addHook('onRoute', (route) => {
        route.schema ??= {};
        route.schema.querystring ??= NO_QUERY;
      });
      installAuth(v1, { ...deps, inProcessToken, pendingKeys: deps.idempotency.claimInside !== undefined });
      installIdempotency(v1, deps.idempotency);
      for (const plugin of deps.v1Plugins ?? []) await v1.register(plugin);
    },
    { prefix: '/v1' },
  );

  // MCP over Streamable HTTP (API.md section 14), behind the same authentication hook as /v1.
  await app.register(async (scope) => {
    installAuth(scope, deps);
    await scope.register(mcpRoutes({ app, version: deps.version, inProcessToken }));
  });

  // Public plugins (the sandbox emulators) are not part of Herald's API: they stay out of its document.
  for (const { prefix, plugin } of deps.publicPlugins ?? []) {
    await app.register(
      async (scope) => {
        scope.addHook('onRoute', (route) => {
          route.schema = { ...route.schema, hide: true };
        });
        await scope.register(plugin);
      },
      { prefix },
    );
  }
  return app;
}
