// Google's answer shapes: the API error envelope {"error":{"code","message","errors":[…],"status"?}}, the
// OAuth endpoints' {"error","error_description"}, the consent page's error pages, and how injected faults
// look in each.
import type { FastifyReply } from 'fastify';
import type { ErrorReply } from '../kit/emulator.ts';
import type { ErrorFaultKind, FaultRule } from '../kit/faults.ts';

export interface ApiErrorSpec {
  status: number;
  message: string;
  reason: string;
  domain?: string;
  location?: string;
  locationType?: string;
  /** Front-end errors carry one (UNAUTHENTICATED, PERMISSION_DENIED, INVALID_ARGUMENT, …). */
  grpcStatus?: string;
  details?: unknown[];
  headers?: Record<string, string>;
}

export function apiErrorBody(e: ApiErrorSpec): unknown {
  const item: Record<string, unknown> = { message: e.message, domain: e.domain ?? 'global', reason: e.reason };
  if (e.location) item.location = e.location;
  if (e.locationType) item.locationType = e.locationType;
  const error: Record<string, unknown> = { code: e.status, message: e.message, errors: [item] };
  if (e.grpcStatus) error.status = e.grpcStatus;
  if (e.details) error.details = e.details;
  return { error };
}

export function sendApiError(reply: FastifyReply, e: ApiErrorSpec): FastifyReply {
  return reply.code(e.status).headers(e.headers ?? {}).type('application/json; charset=UTF-8').send(apiErrorBody(e));
}

export function sendOAuthError(reply: FastifyReply, status: number, error: string, description: string): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send({ error, error_description: description });
}

/** The consent page does not redirect for a bad client, redirect URI or scope: it shows an error page. */
export function sendErrorPage(reply: FastifyReply, status: number, error: string, detail: string): FastifyReply {
  const html = `<!doctype html><html><head><title>Error ${status}: ${error}</title></head><body><h1>Access blocked: authorization error</h1><p>Error ${status}: ${error}</p><p>${escapeHtml(detail)}</p></body></html>`;
  return reply.code(status).type('text/html; charset=utf-8').send(html);
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

// The answers Google gives; texts as quoted in platforms.md section 8.8 and the issues cited there.
export const ERR = {
  loginRequired: (): ApiErrorSpec => ({
    status: 401,
    message: 'Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
    reason: 'required',
    location: 'Authorization',
    locationType: 'header',
    grpcStatus: 'UNAUTHENTICATED',
    headers: { 'www-authenticate': 'Bearer realm="https://accounts.google.com/"' },
  }),
  invalidCredentials: (message?: string): ApiErrorSpec => ({
    status: 401,
    message: message ?? 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
    reason: 'authError',
    location: 'Authorization',
    locationType: 'header',
    grpcStatus: 'UNAUTHENTICATED',
    headers: { 'www-authenticate': 'Bearer realm="https://accounts.google.com/", error="invalid_token"' },
  }),
  insufficientScope: (method: string, message?: string): ApiErrorSpec => ({
    status: 403,
    message: message ?? 'Request had insufficient authentication scopes.',
    reason: 'insufficientPermissions',
    grpcStatus: 'PERMISSION_DENIED',
    details: [
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: 'ACCESS_TOKEN_SCOPE_INSUFFICIENT',
        domain: 'googleapis.com',
        metadata: { service: 'youtube.googleapis.com', method: `youtube.api.v3.V3DataService.${method}` },
      },
    ],
    headers: { 'www-authenticate': 'Bearer realm="https://accounts.google.com/", error="insufficient_scope"' },
  }),
  signupRequired: (): ApiErrorSpec => ({
    status: 401,
    message: 'Unauthorized',
    reason: 'youtubeSignupRequired',
    domain: 'youtube.header',
    location: 'Authorization',
    locationType: 'header',
  }),
  forbidden: (message = 'Access forbidden. The request may not be properly authorized.', domain = 'youtube.common'): ApiErrorSpec => ({ status: 403, message, reason: 'forbidden', domain }),
  quotaExceeded: (): ApiErrorSpec => ({
    status: 403,
    message: 'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.',
    reason: 'quotaExceeded',
    domain: 'youtube.quota',
  }),
  rateLimited: (seconds: number, reason = 'rateLimitExceeded', message?: string): ApiErrorSpec => ({
    status: 429,
    message: message ?? 'The request cannot be completed because you have exceeded your rate limit. Please try again later.',
    reason,
    domain: reason === 'uploadRateLimitExceeded' ? 'youtube.thumbnail' : 'usageLimits',
    grpcStatus: 'RESOURCE_EXHAUSTED',
    details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${seconds}s` }],
    headers: { 'retry-after': String(seconds) },
  }),
  required: (param: string, locationType = 'parameter'): ApiErrorSpec => ({ status: 400, message: `Required parameter: ${param}`, reason: 'required', location: param, locationType }),
  badParam: (reason: string, message: string, location?: string): ApiErrorSpec => ({ status: 400, message, reason, ...(location ? { location, locationType: 'parameter' } : {}) }),
  invalidArgument: (message: string): ApiErrorSpec => ({ status: 400, message, reason: 'invalid', grpcStatus: 'INVALID_ARGUMENT' }),
  youtube: (status: number, domain: string, reason: string, message: string, location?: string): ApiErrorSpec => ({
    status,
    message,
    reason,
    domain,
    ...(location ? { location, locationType: 'other' } : {}),
  }),
  notFound: (): ApiErrorSpec => ({ status: 404, message: 'Not Found', reason: 'notFound' }),
  backend: (): ApiErrorSpec => ({ status: 500, message: 'Backend Error', reason: 'backendError' }),
};

const VIDEO_METADATA = {
  invalidTitle: 'The request metadata specifies an invalid or empty video title.',
  invalidDescription: 'The request metadata specifies an invalid video description.',
  invalidTags: 'The request metadata specifies invalid video keywords.',
  invalidCategoryId: 'The request metadata specifies an invalid video category.',
  invalidPublishAt: 'The request metadata specifies an invalid scheduled publishing time.',
  invalidVideoMetadata: 'The request metadata is invalid.',
} as const;

export function videoMetadataError(reason: keyof typeof VIDEO_METADATA, location: string): ApiErrorSpec {
  return ERR.youtube(400, 'youtube.video', reason, VIDEO_METADATA[reason], location);
}

const OAUTH_FAULTS: Record<ErrorFaultKind, { status: number; error: string; description: string }> = {
  server_error: { status: 500, error: 'internal_failure', description: 'Backend Error' },
  rate_limited: { status: 429, error: 'rate_limit_exceeded', description: 'Rate limit exceeded.' },
  expired_token: { status: 400, error: 'invalid_grant', description: 'Token has been expired or revoked.' },
  validation: { status: 400, error: 'invalid_request', description: 'Bad Request' },
  permission: { status: 401, error: 'unauthorized_client', description: 'Unauthorized' },
};

function validationFault(path: string, message: string | undefined): ApiErrorSpec {
  if (path.includes('commentThreads')) return ERR.youtube(400, 'youtube.commentThread', 'commentTextTooLong', message ?? 'The comment resource that is being inserted contains too many characters in the snippet.topLevelComment.snippet.textOriginal property.');
  if (path.includes('thumbnails')) return ERR.youtube(400, 'youtube.thumbnail', 'invalidImage', message ?? 'The provided image content is invalid.');
  return ERR.youtube(400, 'youtube.video', 'invalidTitle', message ?? VIDEO_METADATA.invalidTitle, 'body.snippet.title');
}

/** Renders an injected error the way the faulted endpoint would answer. */
export function renderFault(kind: ErrorFaultKind, rule: FaultRule): ErrorReply {
  const path = rule.path ?? '';
  if (/^\/(token|revoke|tokeninfo)/.test(path)) {
    const f = OAUTH_FAULTS[kind];
    const headers: Record<string, string> = kind === 'rate_limited' ? { 'retry-after': String(rule.resetSeconds ?? 60) } : {};
    return { status: f.status, headers, body: { error: f.error, error_description: rule.message ?? f.description } };
  }
  let spec: ApiErrorSpec;
  switch (kind) {
    case 'server_error':
      spec = { ...ERR.backend(), ...(rule.message ? { message: rule.message } : {}) };
      break;
    case 'rate_limited':
      spec = ERR.rateLimited(rule.resetSeconds ?? 60, 'rateLimitExceeded', rule.message);
      break;
    case 'expired_token':
      spec = ERR.invalidCredentials(rule.message);
      break;
    case 'validation':
      spec = validationFault(path, rule.message);
      break;
    case 'permission':
      spec = ERR.insufficientScope('Fault', rule.message);
      break;
  }
  return { status: spec.status, headers: { 'content-type': 'application/json; charset=UTF-8', ...(spec.headers ?? {}) }, body: apiErrorBody(spec) };
}
