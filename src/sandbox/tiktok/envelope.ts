// TikTok's answer shapes: the API envelope {data, error:{code,message,log_id}} and the OAuth
// endpoints' {error, error_description, log_id}, plus how injected faults look in them.
import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { ErrorReply } from '../kit/emulator.ts';
import type { ErrorFaultKind, FaultRule } from '../kit/faults.ts';

/** TikTok log ids: a UTC timestamp (yyyyMMddHHmmss) followed by hex. */
export function logId(now = Date.now()): string {
  const stamp = new Date(now).toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return `${stamp}${randomBytes(10).toString('hex').toUpperCase()}`;
}

export function envelope(data: unknown, code = 'ok', message = ''): { data: unknown; error: { code: string; message: string; log_id: string } } {
  return { data, error: { code, message, log_id: logId() } };
}

export function sendOk(reply: FastifyReply, data: unknown, status = 200): FastifyReply {
  return reply.code(status).send(envelope(data));
}

export function sendError(reply: FastifyReply, status: number, code: string, message: string): FastifyReply {
  return reply.code(status).send(envelope({}, code, message));
}

export function sendOAuthError(reply: FastifyReply, status: number, error: string, description: string): FastifyReply {
  return reply.code(status).send({ error, error_description: description, log_id: logId() });
}

// Documented texts (developers.tiktok.com "Error Handling", API v2) where there is one.
const API_FAULTS: Record<ErrorFaultKind, { status: number; code: string; message: string }> = {
  server_error: { status: 500, code: 'internal_error', message: 'Something went wrong. Please try again later.' },
  rate_limited: { status: 429, code: 'rate_limit_exceeded', message: 'The API rate limit was exceeded. Please try again later.' },
  expired_token: { status: 401, code: 'access_token_invalid', message: 'The access token is invalid or not found in the request.' },
  validation: { status: 400, code: 'invalid_params', message: 'One or more fields in the request are invalid.' },
  permission: { status: 401, code: 'scope_not_authorized', message: 'The user did not authorize the scope required for completing this request.' },
};

const OAUTH_FAULTS: Record<ErrorFaultKind, { status: number; error: string; description: string }> = {
  server_error: { status: 500, error: 'server_error', description: 'The authorization server encountered an unexpected condition.' },
  rate_limited: { status: 429, error: 'rate_limit_exceeded', description: 'Too many requests. Please try again later.' },
  expired_token: { status: 400, error: 'invalid_grant', description: 'The token is expired or has been revoked.' },
  validation: { status: 400, error: 'invalid_request', description: 'The request is missing a required parameter or is malformed.' },
  permission: { status: 400, error: 'invalid_scope', description: 'The requested scope is invalid, unknown, or malformed.' },
};

/** Renders an injected error the way the faulted endpoint would answer. */
export function renderFault(kind: ErrorFaultKind, rule: FaultRule): ErrorReply {
  if (rule.path?.includes('/oauth/')) {
    const f = OAUTH_FAULTS[kind];
    return { status: f.status, body: { error: f.error, error_description: rule.message ?? f.description, log_id: logId() } };
  }
  const f = API_FAULTS[kind];
  // TikTok documents no reset header for rate_limit_exceeded; none is sent.
  return { status: f.status, body: envelope({}, f.code, rule.message ?? f.message) };
}
