// How the X emulator answers: problem JSON in X's shapes, bearer-token checks, and the
// x-rate-limit-* headers (with a 429 once a user's window is used up).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Ledger } from '../kit/ledger.ts';
import type { OAuthServer } from '../kit/oauth.ts';
import type { SandboxUser, TwitterState } from './state.ts';

export interface TwitterContext {
  state: TwitterState;
  oauth: OAuthServer;
  ledger: Ledger;
  now(): number;
  clientId: string;
  clientSecret: string;
  processingMs: number;
}

export const PROBLEM_TYPE_BASE = 'https://api.x.com/2/problems/';
const PROBLEM_CONTENT_TYPE = 'application/problem+json';
const WINDOW_MS = 15 * 60_000;
const DAY_MS = 24 * 60 * 60_000;

/** Per-user limits per 15 minutes (X's published table); the key is "METHOD route". */
export const RATE_LIMITS: Record<string, number> = {
  'POST /2/tweets': 100,
  'DELETE /2/tweets/:id': 50,
  'GET /2/tweets/:id': 900,
  'GET /2/users/me': 75,
  'GET /2/users/:id/tweets': 900,
  'POST /2/media/upload': 500,
  'GET /2/media/upload': 1000,
  'POST /2/media/upload/initialize': 1875,
  'POST /2/media/upload/:id/append': 1875,
  'POST /2/media/upload/:id/finalize': 1875,
  'POST /2/media/metadata': 500,
};

/**
 * Per-app limits from the same table: a 15-minute window for post lookups, 24 hours for writes and
 * uploads. All sandbox users share one app, as all of Herald's users share one X app.
 */
export const APP_LIMITS: Record<string, { limit: number; windowMs: number }> = {
  'POST /2/tweets': { limit: 10_000, windowMs: DAY_MS },
  'GET /2/tweets/:id': { limit: 450, windowMs: WINDOW_MS },
  'POST /2/media/upload': { limit: 50_000, windowMs: DAY_MS },
  'GET /2/media/upload': { limit: 100_000, windowMs: DAY_MS },
  'POST /2/media/upload/initialize': { limit: 180_000, windowMs: DAY_MS },
  'POST /2/media/upload/:id/append': { limit: 180_000, windowMs: DAY_MS },
  'POST /2/media/upload/:id/finalize': { limit: 180_000, windowMs: DAY_MS },
};

export function blankProblem(status: number, title: string, detail: string = title): Record<string, unknown> {
  return { title, detail, type: 'about:blank', status };
}

export function sendProblem(reply: FastifyReply, status: number, body: Record<string, unknown>): FastifyReply {
  return reply.code(status).header('content-type', PROBLEM_CONTENT_TYPE).send(body);
}

export function invalidRequestBody(message: string, parameters: Record<string, unknown[]>): Record<string, unknown> {
  return {
    errors: [{ parameters, message }],
    title: 'Invalid Request',
    detail: 'One or more parameters to your request was invalid.',
    type: `${PROBLEM_TYPE_BASE}invalid-request`,
  };
}

export function invalidRequest(reply: FastifyReply, message: string, parameters: Record<string, unknown[]> = {}): FastifyReply {
  return sendProblem(reply, 400, invalidRequestBody(message, parameters));
}

export function forbidden(reply: FastifyReply, detail: string): FastifyReply {
  return sendProblem(reply, 403, blankProblem(403, 'Forbidden', detail));
}

export function notFoundError(value: string, resourceType: 'tweet' | 'user'): Record<string, unknown> {
  const what = resourceType === 'tweet' ? 'tweet' : 'user';
  return {
    value,
    detail: `Could not find ${what} with id: [${value}].`,
    title: 'Not Found Error',
    resource_type: resourceType,
    parameter: 'id',
    resource_id: value,
    type: `${PROBLEM_TYPE_BASE}resource-not-found`,
  };
}

export function rateHeaders(limit: number, remaining: number, resetSecs: number): Record<string, string> {
  return { 'x-rate-limit-limit': String(limit), 'x-rate-limit-remaining': String(remaining), 'x-rate-limit-reset': String(resetSecs) };
}

/**
 * Counts the call against the user's window and the app's; answers 429 (and returns false) once either
 * is used up. x-rate-limit-* describe the 15-minute window that binds; a 24-hour app window is reported
 * in x-app-limit-24hour-*, as X does on its write endpoints.
 */
export function withinRateLimit(ctx: TwitterContext, reply: FastifyReply, user: SandboxUser, route: keyof typeof RATE_LIMITS): boolean {
  const now = ctx.now();
  const w = ctx.state.hit(`${user.id} ${route}`, RATE_LIMITS[route]!, WINDOW_MS, now);
  const appLimit = APP_LIMITS[route];
  const app = appLimit ? ctx.state.hit(`app ${route}`, appLimit.limit, appLimit.windowMs, now) : undefined;
  const daily = app && appLimit!.windowMs === DAY_MS;
  const binding = app && !daily && (app.exceeded || app.remaining < w.remaining) ? app : w;
  reply.headers(rateHeaders(binding.limit, binding.remaining, binding.resetSecs));
  if (app && daily) {
    reply.headers({
      'x-app-limit-24hour-limit': String(app.limit),
      'x-app-limit-24hour-remaining': String(app.remaining),
      'x-app-limit-24hour-reset': String(app.resetSecs),
    });
  }
  if (!w.exceeded && !app?.exceeded) return true;
  sendProblem(reply, 429, blankProblem(429, 'Too Many Requests'));
  return false;
}

/**
 * The user behind the bearer token, if it is valid and carries the scopes; otherwise answers 401 or
 * 403 as X does and returns undefined.
 */
export function authenticate(ctx: TwitterContext, req: FastifyRequest, reply: FastifyReply, scopes: string[]): SandboxUser | undefined {
  const header = req.headers.authorization ?? '';
  const token = /^Bearer\s+(.+)$/i.exec(header)?.[1]?.trim();
  const check = ctx.oauth.checkAccess(token);
  const user = check.ok ? ctx.state.users.get(check.userId) : undefined;
  if (!check.ok || !user) {
    sendProblem(reply, 401, blankProblem(401, 'Unauthorized'));
    return undefined;
  }
  if (!scopes.every((s) => check.scopes.includes(s))) {
    forbidden(reply, 'Forbidden');
    return undefined;
  }
  return user;
}
