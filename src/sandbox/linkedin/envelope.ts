// LinkedIn's answer shapes (platforms.md 7.10): REST.li errors {status, serviceErrorCode, code, message},
// validation errors {errorDetailType, message, errorDetails: {inputErrors}, status}, the OAuth endpoints'
// {error, error_description}, and how injected faults look in them.
import type { FastifyReply } from 'fastify';
import type { ErrorReply } from '../kit/emulator.ts';
import type { ErrorFaultKind, FaultRule } from '../kit/faults.ts';

export interface RestError {
  status: number;
  serviceErrorCode?: number;
  code?: string;
  message: string;
}

export function sendRestError(reply: FastifyReply, e: RestError, headers: Record<string, string> = {}): FastifyReply {
  const body: Record<string, unknown> = { status: e.status };
  if (e.serviceErrorCode !== undefined) body.serviceErrorCode = e.serviceErrorCode;
  if (e.code) body.code = e.code;
  body.message = e.message;
  return reply.code(e.status).headers(headers).send(body);
}

/** Rest.li validation errors: "ERROR :: /field :: reason" lines, or one input error with a code. */
export function sendValidation(reply: FastifyReply, status: number, message: string, inputErrors: { code: string; description: string; field?: string }[] = []): FastifyReply {
  return reply.code(status).send({
    errorDetailType: 'com.linkedin.common.error.BadRequest',
    message,
    errorDetails: {
      inputErrors: inputErrors.map((e) => ({ description: e.description, input: e.field ? { inputPath: { fieldPath: e.field } } : {}, code: e.code })),
    },
    status,
  });
}

export function schemaErrors(reply: FastifyReply, lines: string[]): FastifyReply {
  return reply.code(422).send({ message: lines.map((l) => `ERROR :: ${l}\n`).join(''), status: 422 });
}

export function sendOAuthError(reply: FastifyReply, status: number, error: string, description: string): FastifyReply {
  return reply.code(status).send({ error, error_description: description });
}

export const AUTH_ERRORS = {
  missing: { status: 401, serviceErrorCode: 401, code: 'EMPTY_ACCESS_TOKEN', message: 'Empty oauth2_access_token' },
  invalid: { status: 401, serviceErrorCode: 65600, code: 'INVALID_ACCESS_TOKEN', message: 'Invalid access token' },
  revoked: { status: 401, serviceErrorCode: 65601, code: 'REVOKED_ACCESS_TOKEN', message: 'The token used in the request has been revoked by the user' },
  expired: { status: 401, serviceErrorCode: 65602, code: 'EXPIRED_ACCESS_TOKEN', message: 'The token used in the request has expired' },
} satisfies Record<string, RestError>;

export const THROTTLED: RestError = { status: 429, serviceErrorCode: 101, code: 'TOO_MANY_REQUESTS', message: 'Resource level throttle limit for calls to this resource is reached.' };

export function accessDenied(resource: string): RestError {
  return { status: 403, serviceErrorCode: 100, code: 'ACCESS_DENIED', message: `Not enough permissions to access: ${resource}` };
}

export const AUTHOR_DENIED: RestError = {
  status: 403,
  serviceErrorCode: 100,
  code: 'ACCESS_DENIED',
  message: 'Field Value validation failed in REQUEST_BODY: Data Processing Exception while processing fields [/author]',
};

export function notFound(message = 'No virtual resource found'): RestError {
  return { status: 404, code: 'RESOURCE_NOT_FOUND', message };
}

export function illegal(message: string): RestError {
  return { status: 400, code: 'ILLEGAL_ARGUMENT', message };
}

/** OAuth endpoints live below the token URL; an injected fault there answers in OAuth's shape. */
export const OAUTH_PATHS = /(^|\/)(accessToken|revoke|introspectToken)$/;

const OAUTH_FAULTS: Record<ErrorFaultKind, { status: number; error: string; description: string }> = {
  server_error: { status: 500, error: 'server_error', description: 'The authorization server encountered an unexpected condition' },
  rate_limited: { status: 429, error: 'temporarily_unavailable', description: 'Throttle limit for calls to this resource is reached' },
  expired_token: { status: 400, error: 'invalid_request', description: 'The token is expired or was revoked' },
  validation: { status: 400, error: 'invalid_request', description: 'A required parameter "code" is missing' },
  permission: { status: 401, error: 'invalid_client', description: 'Client authentication failed' },
};

/**
 * Faults in LinkedIn's formats. A throttle carries no header at LinkedIn (its quotas reset at midnight
 * UTC); the injected rate_limited fault stands for a short throttle and says when it lifts with
 * Retry-After, so that both paths of the adapter are exercised (the emulator's daily quota sends none).
 */
export function renderFault(kind: ErrorFaultKind, rule: FaultRule): ErrorReply {
  if (rule.path && OAUTH_PATHS.test(rule.path)) {
    const f = OAUTH_FAULTS[kind];
    return { status: f.status, body: { error: f.error, error_description: rule.message ?? f.description } };
  }
  const with_ = (e: RestError): ErrorReply => ({ status: e.status, body: { ...e, message: rule.message ?? e.message } });
  switch (kind) {
    case 'server_error':
      return with_({ status: 500, code: 'INTERNAL_SERVER_ERROR', message: 'Internal Server Error' });
    case 'rate_limited':
      return { ...with_(THROTTLED), headers: { 'retry-after': String(rule.resetSeconds ?? 60) } };
    case 'expired_token':
      return with_(AUTH_ERRORS.expired);
    case 'permission':
      return with_(accessDenied('partnerApiPostsExternal.CREATE.20260901'));
    case 'validation':
      return {
        status: 422,
        body: {
          errorDetailType: 'com.linkedin.common.error.BadRequest',
          message: rule.message ?? 'ERROR :: /commentary :: field is invalid',
          errorDetails: { inputErrors: [{ description: rule.message ?? 'Invalid field value', input: {}, code: 'INVALID_VALUE' }] },
          status: 422,
        },
      };
  }
}
