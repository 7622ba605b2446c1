// Mastodon's answer shapes (platforms.md §11.10): `{"error": "…"}` for the API, `{error,
// error_description}` for the OAuth endpoints, HTML pages for the consent page's own errors, and how
// injected faults look in them.
import type { FastifyReply } from 'fastify';
import type { ErrorReply } from '../kit/emulator.ts';
import type { ErrorFaultKind, FaultRule } from '../kit/faults.ts';

export const TEXT = {
  recordNotFound: 'Record not found',
  notFound: 'Not Found',
  tooManyRequests: 'Too many requests',
  temporaryProblem: 'There was a temporary problem serving your request, please try again',
  outsideScopes: 'This action is outside the authorized scopes',
  tokenInvalid: 'The access token is invalid',
  tokenRevoked: 'The access token was revoked',
  tokenExpired: 'The access token expired',
  userRequired: 'This method requires an authenticated user',
  replyNotFound: 'The post you are trying to reply to does not appear to exist.',
  tooManyFiles: (n: number) => `Cannot attach more than ${n} files`,
  mediaNotFound: (ids: string[]) => `Media ${ids.join(', ')} not found or already attached to another post`,
  imagesAndVideo: 'Cannot attach a video to a post that already contains images',
  notReady: 'Cannot attach files that have not finished processing. Try again in a moment!',
  processingFailed: 'Error processing thumbnail for uploaded media',
  textBlank: "Validation failed: Text can't be blank",
  tooLong: (n: number) => `Validation failed: Text character limit of ${n} exceeded`,
} as const;

/** OAuth texts: Doorkeeper's locale (config/locales/doorkeeper.en.yml). */
export const OAUTH_TEXT = {
  invalid_client: 'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.',
  invalid_grant:
    'The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.',
  invalid_scope: 'The requested scope is invalid, unknown, or malformed.',
  unsupported_grant_type: 'The authorization grant type is not supported by the authorization server.',
  unsupported_response_type: 'The authorization server does not support this response type.',
  access_denied: 'The resource owner or authorization server denied the request.',
  invalid_redirect_uri: 'The requested redirect uri is malformed or doesn\'t match client redirect URI.',
  code_challenge_method: 'The code_challenge_method must be S256.',
  unauthorized_revoke: 'You are not authorized to revoke this token',
} as const;

export function sendError(reply: FastifyReply, status: number, error: string, headers: Record<string, string> = {}): FastifyReply {
  return reply.code(status).headers(headers).send({ error });
}

export function sendOAuthError(reply: FastifyReply, status: number, error: keyof typeof OAUTH_TEXT | string, description?: string): FastifyReply {
  const text = description ?? (OAUTH_TEXT as Record<string, string>)[error] ?? error;
  return reply.code(status).send({ error, error_description: text });
}

/** The consent page's own error page (no redirect when the client or redirect URI is not trusted). */
export function sendErrorPage(reply: FastifyReply, status: number, text: string): FastifyReply {
  const html = `<!DOCTYPE html><html><head><title>An error has occurred</title></head><body><div class="form-container"><h1>An error has occurred</h1><p>${text.replace(/[<>&]/g, '')}</p></div></body></html>`;
  return reply.code(status).type('text/html; charset=utf-8').send(html);
}

export function wwwAuthenticate(description: string): Record<string, string> {
  return { 'www-authenticate': `Bearer realm="Doorkeeper", error="invalid_token", error_description="${description}"` };
}

/** ISO 8601 with microseconds, as the server writes X-RateLimit-Reset. */
export function isoMicro(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

export function renderFault(kind: ErrorFaultKind, rule: FaultRule): ErrorReply {
  switch (kind) {
    case 'server_error':
      // Rails' exceptions app answers a JSON request with its own shape, not the API's envelope.
      return { status: 500, body: { status: 500, error: rule.message ?? 'Internal Server Error' } };
    case 'rate_limited': {
      const reset = Date.now() + (rule.resetSeconds ?? 60) * 1000;
      return {
        status: 429,
        headers: { 'x-ratelimit-limit': '300', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': isoMicro(reset) },
        body: { error: rule.message ?? TEXT.tooManyRequests },
      };
    }
    case 'expired_token':
      return { status: 401, headers: wwwAuthenticate(TEXT.tokenInvalid), body: { error: rule.message ?? TEXT.tokenInvalid } };
    case 'validation':
      return { status: 422, body: { error: rule.message ?? TEXT.textBlank } };
    case 'permission':
      return { status: 403, body: { error: rule.message ?? TEXT.outsideScopes } };
  }
}
