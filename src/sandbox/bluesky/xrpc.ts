// The XRPC answer shapes of a Bluesky PDS: every error is {"error", "message"} served as
// application/json; charset=utf-8 (docs/internal/bluesky-pds.md), plus content ids and injected faults.
import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { ErrorReply } from '../kit/emulator.ts';
import type { ErrorFaultKind, FaultRule } from '../kit/faults.ts';

export const JSON_TYPE = 'application/json; charset=utf-8';

export class XrpcError extends Error {
  readonly status: number;
  readonly error: string;
  readonly headers: Record<string, string>;
  constructor(status: number, error: string, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.error = error;
    this.headers = headers;
  }
}

export const invalid = (message: string) => new XrpcError(400, 'InvalidRequest', message);

export function sendXrpcError(reply: FastifyReply, status: number, error: string, message: string, headers: Record<string, string> = {}): FastifyReply {
  return reply.code(status).headers({ ...headers, 'content-type': JSON_TYPE }).send(JSON.stringify({ error, message }));
}

export function sendJson(reply: FastifyReply, body: unknown): FastifyReply {
  return reply.code(200).header('content-type', JSON_TYPE).send(JSON.stringify(body));
}

const B32 = 'abcdefghijklmnopqrstuvwxyz234567';

function base32(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += B32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += B32[(value << (5 - bits)) & 31];
  return out;
}

/** A CIDv1 with a sha-256 multihash, base32: raw bytes ("bafkrei…", blobs) or dag-cbor ("bafyrei…", records). */
export function cidOf(data: Uint8Array | string, codec: 'raw' | 'dag-cbor'): string {
  const digest = createHash('sha256').update(data).digest();
  return `b${base32(new Uint8Array([0x01, codec === 'raw' ? 0x55 : 0x71, 0x12, 0x20, ...digest]))}`;
}

/** The rate-limit headers of a limit that lifts at `resetMs` (draft-polli, as the PDS sends them). */
export function rateLimitHeaders(limit: number, windowSeconds: number, resetMs: number, now: number): Record<string, string> {
  return {
    'ratelimit-limit': String(limit),
    'ratelimit-remaining': '0',
    'ratelimit-reset': String(Math.ceil(resetMs / 1000)),
    'ratelimit-policy': `${limit};w=${windowSeconds}`,
    'retry-after': String(Math.max(0, Math.ceil((resetMs - now) / 1000))),
  };
}

/** Injected errors, as the PDS words them. */
export function renderFault(kind: ErrorFaultKind, rule: FaultRule, now = Date.now()): ErrorReply {
  const reply = (status: number, error: string, message: string, headers: Record<string, string> = {}): ErrorReply => ({
    status,
    headers: { ...headers, 'content-type': JSON_TYPE },
    body: JSON.stringify({ error, message: rule.message ?? message }),
  });
  switch (kind) {
    case 'server_error':
      return reply(500, 'InternalServerError', 'Internal Server Error');
    case 'rate_limited': {
      const seconds = rule.resetSeconds ?? 60;
      return reply(429, 'RateLimitExceeded', 'Rate Limit Exceeded', rateLimitHeaders(3000, 300, now + seconds * 1000, now));
    }
    case 'expired_token':
      return reply(400, 'ExpiredToken', 'Token has expired');
    case 'validation':
      return reply(400, 'InvalidRequest', 'Invalid app.bsky.feed.post record: Missing required key "text" at $.record');
    case 'permission':
      return reply(400, 'InvalidToken', 'Bad token scope');
  }
}
