// Webhook signatures (API.md section 7). Both are computed over the exact bytes that are sent: the body is
// serialised once when the event is recorded and never re-encoded.
//   X-Herald-Signature: lowercase hex HMAC-SHA256 of the body, keyed with the whole secret string (UTF-8).
//   webhook-signature:  Standard Webhooks, "v1," + base64 HMAC-SHA256 of "id.timestamp.body", keyed with
//                       the base64-decoded part of the secret after "whsec_".
import { createHmac, randomBytes } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';
/** Standard Webhooks secrets are 24 to 64 random bytes; Herald generates 32. */
export const MIN_SECRET_BYTES = 24;
export const MAX_SECRET_BYTES = 64;
const SECRET_SHAPE = /^whsec_((?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?)$/;

export function generateSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** Why a caller-supplied secret is unusable, or null when it is fine. */
export function secretProblem(secret: string): string | null {
  const m = SECRET_SHAPE.exec(secret);
  if (!m) return 'secret must be "whsec_" followed by standard base64';
  const bytes = Buffer.from(m[1]!, 'base64').length;
  if (bytes < MIN_SECRET_BYTES || bytes > MAX_SECRET_BYTES) {
    return `secret must encode ${MIN_SECRET_BYTES} to ${MAX_SECRET_BYTES} random bytes, got ${bytes}`;
  }
  return null;
}

/** The Standard Webhooks key: the bytes after the prefix (a secret without the prefix is taken whole). */
export function standardKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

export function heraldSignature(secret: string, body: Uint8Array | string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex');
}

export function standardSignature(secret: string, id: string, timestampSeconds: number, body: Uint8Array | string): string {
  const mac = createHmac('sha256', standardKey(secret));
  mac.update(`${id}.${timestampSeconds}.`);
  mac.update(body);
  return `v1,${mac.digest('base64')}`;
}

export interface SignedRequest {
  headers: Record<string, string>;
  body: Buffer;
}

/** The request for one attempt: the stored body as is, with every signature header. */
export function signDelivery(input: {
  secret: string;
  eventId: string;
  event: string;
  body: string;
  timestampSeconds: number;
  userAgent: string;
}): SignedRequest {
  const body = Buffer.from(input.body, 'utf8');
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'user-agent': input.userAgent,
      'x-herald-signature': heraldSignature(input.secret, body),
      'x-herald-event': input.event,
      'x-herald-event-id': input.eventId,
      'webhook-id': input.eventId,
      'webhook-timestamp': String(input.timestampSeconds),
      'webhook-signature': standardSignature(input.secret, input.eventId, input.timestampSeconds, body),
    },
  };
}
