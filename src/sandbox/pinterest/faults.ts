// Injected faults, rendered the way the faulted endpoint would answer: Pinterest's {code, message}
// envelope on the API, the token endpoint's 401 code 283 for a dead grant, and S3's XML on the upload host.
import type { ErrorReply } from '../kit/emulator.ts';
import type { ErrorFaultKind, FaultRule } from '../kit/faults.ts';
import { MESSAGES } from './context.ts';

export const UPLOAD_PATH = '/pinterest-media-upload/';

export function s3Xml(code: string, message: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><RequestId>SANDBOX</RequestId><HostId>sandbox</HostId></Error>`;
}

const S3_FAULTS: Record<ErrorFaultKind, { status: number; code: string; message: string }> = {
  server_error: { status: 500, code: 'InternalError', message: 'We encountered an internal error. Please try again.' },
  rate_limited: { status: 503, code: 'SlowDown', message: 'Please reduce your request rate.' },
  expired_token: { status: 400, code: 'ExpiredToken', message: 'The provided token has expired.' },
  validation: { status: 400, code: 'InvalidArgument', message: 'Bucket POST must contain a field named key.' },
  permission: { status: 403, code: 'AccessDenied', message: 'Access Denied' },
};

export function renderFault(kind: ErrorFaultKind, rule: FaultRule): ErrorReply {
  if (rule.path?.includes(UPLOAD_PATH)) {
    const f = S3_FAULTS[kind];
    return { status: f.status, headers: { 'content-type': 'application/xml' }, body: s3Xml(f.code, rule.message ?? f.message) };
  }
  const tokenEndpoint = rule.path?.includes('/oauth/token') ?? false;
  switch (kind) {
    case 'server_error':
      return { status: 500, body: { code: 12, message: rule.message ?? MESSAGES.serverError } };
    case 'rate_limited':
      // Retry-After is not documented for v5 (§9.10, unconfirmed); the emulator sends it, Herald copes without.
      return { status: 429, headers: { 'retry-after': String(rule.resetSeconds ?? 60) }, body: { code: 8, message: rule.message ?? MESSAGES.rateLimited } };
    case 'expired_token':
      return tokenEndpoint
        ? { status: 401, body: { code: 283, message: rule.message ?? 'The authorization grant is invalid' } }
        : { status: 401, body: { code: 2, message: rule.message ?? MESSAGES.authentication, status: 'failure' } };
    case 'validation':
      return { status: 400, body: { code: 1, message: `Invalid request: ${rule.message ?? 'the request body does not match the schema'}` } };
    case 'permission':
      return { status: 401, body: { code: 3, message: rule.message ?? MESSAGES.scopes } };
  }
}
