// Turns anything thrown while handling a request into API.md's error shapes. Bugs become a 500 that
// names the request id and nothing else; the details go to the log.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, errors, renderError, type ErrorShape } from '../contract/errors.ts';
import { ajvToApiError } from '../contract/validation.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';

export const BODY_LIMIT_BYTES = 1024 * 1024;
/** Fastify's router refuses longer path parameters (its maxParamLength default). */
export const MAX_PARAM_LENGTH = 100;
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

const CHECK_STATUSES = new Set([400, 413, 415, 422]);

function shapeOf(req: FastifyRequest, status: number): 'A' | 'B' {
  const shape: ErrorShape = req.routeOptions?.config?.errorShape ?? 'A';
  if (shape === 'B-checks') return CHECK_STATUSES.has(status) ? 'B' : 'A';
  return shape;
}

/** The limit the refused body was held to: the route's own (bulk imports take 5 MiB), else the default. */
const bodyLimitOf = (req: FastifyRequest): number => req.routeOptions?.bodyLimit ?? BODY_LIMIT_BYTES;

/** Maps Fastify's own errors (parsing, limits, validation) to ApiErrors; null for anything else. */
export function fromFastifyError(err: FastifyError, req: FastifyRequest): ApiError | null {
  if (err.validation) {
    return ajvToApiError(err.validation as never, (err.validationContext ?? 'body') as 'body');
  }
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return errors.payloadTooLarge(bodyLimitOf(req));
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return errors.unsupportedMediaType(req.headers['content-type']);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return errors.invalid(undefined, 'request body is empty; send a JSON object');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return errors.invalid(undefined, 'Content-Length does not match the body');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return errors.invalid(undefined, 'request body is not valid JSON');
    default:
      break;
  }
  if (err instanceof SyntaxError || (err.statusCode === 400 && /JSON/i.test(err.message))) {
    return errors.invalid(undefined, 'request body is not valid JSON');
  }
  if (err.statusCode === 413) return errors.payloadTooLarge(bodyLimitOf(req));
  if (err.statusCode === 415) return errors.unsupportedMediaType(req.headers['content-type']);
  return null;
}

/**
 * Errors Fastify raises before routing (Fastify's `frameworkErrors`), which never reach the error
 * handler: a malformed percent-escape in the path, a path segment too long for the router.
 */
export function frameworkErrorHandler(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  let apiError: ApiError;
  if (err.code === 'FST_ERR_BAD_URL') {
    apiError = errors.invalid(undefined, 'the request path is not a valid URL: a "%" must start a two-digit hex escape such as %20');
  } else if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    apiError = errors.uriTooLong(MAX_PARAM_LENGTH);
  } else {
    req.log.error({ err }, 'framework error');
    apiError = errors.internal();
  }
  // The onRequest hooks did not run: the request id is set here.
  void reply.code(apiError.status).headers({ ...apiError.headers, 'x-request-id': req.id }).send(renderError(apiError, 'A'));
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(async (err: FastifyError, req, reply) => {
    // Raised before the key was checked (a body that is not JSON, too large, …): the key is checked first,
    // so a bad key is still answered 401 (or 429) before anything else.
    if (req.pendingKey) {
      try {
        await req.pendingKey.check();
      } catch (authErr) {
        err = authErr as FastifyError;
      }
    }
    let apiError = err instanceof ApiError ? err : fromFastifyError(err, req);
    if (!apiError && isDatabaseUnavailable(err)) {
      req.log.warn({ err }, 'database unavailable');
      apiError = errors.databaseUnavailable();
    } else if (!apiError) {
      req.log.error({ err }, 'unhandled error');
      apiError = errors.internal();
    } else if (apiError.status >= 500) {
      req.log.error({ err }, 'request failed');
    }
    reply.code(apiError.status).headers(apiError.headers);
    return reply.send(renderError(apiError, shapeOf(req, apiError.status)));
  });

  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0] ?? '/';
    // A path that exists with other methods: 405 with the methods it takes, not "no route".
    const allow = METHODS.filter((method) => method !== req.method && app.findRoute({ method, url: path }) !== null);
    const apiError = allow.length > 0 ? errors.methodNotAllowed(req.method, path, allow) : errors.notFound(`no route ${req.method} ${path}`);
    return reply.code(apiError.status).headers(apiError.headers).send(renderError(apiError, 'A'));
  });
}
