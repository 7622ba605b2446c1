// How graph.threads.net answers: Meta's error envelope, parameters from query or form, tokens from
// access_token or an Authorization: Bearer header.
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { field } from '../kit/body.ts';
import type { ErrorReply } from '../kit/emulator.ts';

export interface GraphErrorSpec {
  status: number;
  code: number;
  message: string;
  type?: 'OAuthException' | 'THApiException';
  subcode?: number;
  userTitle?: string;
  userMsg?: string;
  transient?: boolean;
  headers?: Record<string, string>;
}

export function graphError(spec: GraphErrorSpec): ErrorReply {
  return {
    status: spec.status,
    headers: spec.headers,
    body: {
      error: {
        message: spec.message,
        type: spec.type ?? 'THApiException',
        code: spec.code,
        ...(spec.subcode !== undefined ? { error_subcode: spec.subcode } : {}),
        ...(spec.transient ? { is_transient: true } : {}),
        ...(spec.userTitle ? { error_user_title: spec.userTitle } : {}),
        ...(spec.userMsg ? { error_user_msg: spec.userMsg } : {}),
        fbtrace_id: randomBytes(8).toString('base64url'),
      },
    },
  };
}

export function send(reply: FastifyReply, r: ErrorReply): FastifyReply {
  return reply.code(r.status).headers(r.headers ?? {}).send(r.body);
}

/** (#100) with Graph's usual wording for a bad or missing parameter. */
export function invalidParam(message: string, extra: Partial<GraphErrorSpec> = {}): ErrorReply {
  return graphError({ status: 400, code: 100, message, ...extra });
}

/** The answer for ids that do not exist or are not this user's to see. */
export function unsupported(method: string, id: string): ErrorReply {
  return graphError({
    status: 400,
    code: 100,
    subcode: 33,
    message: `Unsupported ${method.toLowerCase()} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation`,
  });
}

export function missingPermission(scope: string): ErrorReply {
  return graphError({ status: 403, code: 10, type: 'OAuthException', message: `(#10) Application does not have permission for this action: ${scope} is required` });
}

/** A parameter from the form body, the JSON body or the query string (Graph takes all three). */
export function param(req: FastifyRequest, name: string): string | undefined {
  const fromBody = field(req.body, name);
  if (fromBody !== undefined) return fromBody;
  const q = (req.query as Record<string, unknown> | undefined)?.[name];
  return typeof q === 'string' ? q : undefined;
}

export function tokenOf(req: FastifyRequest): string | undefined {
  const auth = req.headers.authorization;
  if (auth && /^bearer\s+/iu.test(auth)) return auth.replace(/^bearer\s+/iu, '').trim();
  return param(req, 'access_token');
}

/** The `fields` parameter as a set; Graph answers just the id when none are asked for. */
export function fieldsOf(req: FastifyRequest, fallback = 'id'): Set<string> {
  const raw = param(req, 'fields') ?? fallback;
  return new Set(raw.split(',').map((f) => f.trim()).filter(Boolean));
}

/** Keeps the asked-for fields of an object, dropping undefined ones, as Graph does. */
export function pick(all: Record<string, unknown>, fields: Set<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    // replied_to{id} style sub-selections: answer the sub-object whole.
    const name = f.replace(/\{.*$/u, '');
    if (all[name] !== undefined) out[name] = all[name];
  }
  return out;
}

/** Graph's timestamp format: 2026-11-22T10:00:00+0000. */
export function graphTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/u, '+0000');
}

/** `since`/`until`: a Unix timestamp, or (as strtotime would take it) a date string. */
export function timeParam(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (/^\d+$/u.test(value)) return Number(value) * 1000;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? Number.NaN : ms;
}
