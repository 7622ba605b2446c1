// One error model. Handlers throw ApiError; one handler renders it as shape A (everywhere) or shape B
// (POST /v1/posts), API.md section 2. Nothing else builds error JSON.

/**
 * A: every route. B: POST /v1/posts (every error it can give shape B has). B-checks: shape B for the
 * errors of the create checks (400, 413, 415, 422) and shape A for the rest (PATCH, which is checked
 * like a create but authenticates and conflicts like any other route).
 */
export type ErrorShape = 'A' | 'B' | 'B-checks';

export interface ShapeB {
  type: 'invalid_request_error' | 'authentication_error' | 'idempotency_error';
  code: string;
}

export class ApiError extends Error {
  readonly status: number;
  /** Shape A code (upper case). */
  readonly code: string;
  readonly param: string | undefined;
  readonly details: unknown;
  /** Shape B type and code; absent for errors that are always shape A (429, 500). */
  readonly b: ShapeB | undefined;
  /** Extra response headers (Retry-After). */
  readonly headers: Record<string, string>;

  constructor(init: {
    status: number;
    code: string;
    message: string;
    param?: string;
    details?: unknown;
    b?: ShapeB;
    headers?: Record<string, string>;
  }) {
    super(init.message);
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.param = init.param;
    this.details = init.details;
    this.b = init.b;
    this.headers = init.headers ?? {};
  }
}

const invalid = (code: string): ShapeB => ({ type: 'invalid_request_error', code });

export const errors = {
  /** A required field is absent. */
  missing: (param: string, message: string) =>
    new ApiError({ status: 400, code: 'VALIDATION_ERROR', message, param, b: invalid('missing_required_field') }),
  /** A value is malformed or options contradict each other. */
  invalid: (param: string | undefined, message: string, details?: unknown) =>
    new ApiError({ status: 400, code: 'VALIDATION_ERROR', message, param, details, b: invalid('invalid_field_value') }),
  unknownField: (param: string, message: string) =>
    new ApiError({ status: 400, code: 'VALIDATION_ERROR', message, param, b: invalid('unknown_field') }),
  auth: (message = 'API key is missing, malformed, unknown or revoked') =>
    new ApiError({
      status: 401,
      code: 'AUTH_INVALID_KEY',
      message,
      param: 'Authorization',
      b: { type: 'authentication_error', code: 'invalid_credentials' },
    }),
  /** A dashboard session's request that fails the cross-origin checks (API.md section 13). Shape A everywhere. */
  crossOrigin: (message: string) => new ApiError({ status: 403, code: 'CSRF_REJECTED', message }),
  // API.md section 2: a 404 has no shape B form; it is shape A on every route.
  notFound: (message: string) => new ApiError({ status: 404, code: 'NOT_FOUND', message }),
  conflict: (message: string, code = 'CONFLICT') => new ApiError({ status: 409, code, message, b: invalid(code.toLowerCase()) }),
  payloadTooLarge: (limitBytes: number) =>
    new ApiError({
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
      message: `request body is larger than ${limitBytes} bytes`,
      b: invalid('payload_too_large'),
    }),
  /** A path segment longer than any id (Fastify's router stops at 100 characters). */
  uriTooLong: (limit: number) =>
    new ApiError({
      status: 414,
      code: 'URI_TOO_LONG',
      message: `a path segment is longer than ${limit} characters; no id is that long`,
      b: invalid('uri_too_long'),
    }),
  /** The path exists, with other methods: `allow` lists them (the Allow header). */
  methodNotAllowed: (method: string, path: string, allow: string[]) =>
    new ApiError({
      status: 405,
      code: 'METHOD_NOT_ALLOWED',
      message: `${method} is not allowed on ${path}; use ${allow.join(', ')}`,
      headers: { allow: allow.join(', ') },
    }),
  unsupportedMediaType: (contentType: string | undefined) =>
    new ApiError({
      status: 415,
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: `request body must be JSON (Content-Type: application/json), got ${contentType ? `"${contentType}"` : 'none'}`,
      b: invalid('unsupported_media_type'),
    }),
  /** A condition of the request (If-Match) no longer holds. Shape A on every route. */
  preconditionFailed: (message: string, code = 'PRECONDITION_FAILED') => new ApiError({ status: 412, code, message, param: 'If-Match' }),
  /**
   * A state conflict with its own upper-case code, rendered in shape A even on a shape-B route (PATCH's
   * POST_NOT_EDITABLE): the code is the answer's point, not a field error.
   */
  stateConflict: (message: string, code: string) => new ApiError({ status: 409, code, message }),
  /** A platform rule (shape B) or a business rule with its own code (shape A). */
  unprocessable: (param: string | undefined, message: string, code = 'UNPROCESSABLE') =>
    new ApiError({ status: 422, code, message, param, b: invalid('invalid_field_value') }),
  rateLimited: (retryAfterSeconds: number) =>
    new ApiError({
      status: 429,
      code: 'RATE_LIMIT_EXCEEDED',
      message: `rate limit exceeded; retry after ${retryAfterSeconds} s`,
      headers: { 'retry-after': String(retryAfterSeconds) },
    }),
  /** A synchronous platform call failed; with Retry-After when the platform said when it takes the next call. */
  platform: (message: string, details?: unknown, retryAfterSeconds?: number) =>
    new ApiError({
      status: 502,
      code: 'PLATFORM_ERROR',
      message,
      details,
      headers: retryAfterSeconds === undefined ? undefined : { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
    }),
  /** The database cannot serve for now (unreachable, restarting, out of connections or disk). */
  databaseUnavailable: () =>
    new ApiError({
      status: 503,
      code: 'DATABASE_UNAVAILABLE',
      message: 'the database is unavailable for now; try again later (with the same Idempotency-Key for a create)',
      headers: { 'retry-after': '5' },
    }),
  internal: () => new ApiError({ status: 500, code: 'INTERNAL_ERROR', message: 'internal error; the request id identifies it in the logs' }),
  idempotencyInUse: () =>
    new ApiError({
      status: 409,
      code: 'IDEMPOTENCY_KEY_IN_USE',
      message: 'a request with this Idempotency-Key is still being processed; retry once it completes',
      param: 'Idempotency-Key',
      b: { type: 'idempotency_error', code: 'idempotency_key_in_use' },
    }),
  idempotencyReused: () =>
    new ApiError({
      status: 422,
      code: 'IDEMPOTENCY_KEY_REUSED',
      message: 'this Idempotency-Key was used with a different request; use a new key for a new request',
      param: 'Idempotency-Key',
      b: { type: 'idempotency_error', code: 'idempotency_key_reused' },
    }),
};

export function renderError(err: ApiError, shape: ErrorShape): Record<string, unknown> {
  if (shape === 'B' && err.b) {
    return { error: err.message, type: err.b.type, code: err.b.code, param: err.param ?? null };
  }
  const body: Record<string, unknown> = { error: err.message, code: err.code };
  if (err.param !== undefined) body.param = err.param;
  if (err.details !== undefined) body.details = err.details;
  return body;
}
