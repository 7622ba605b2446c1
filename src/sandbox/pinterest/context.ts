// State the Pinterest emulator's routes share, Pinterest's {code, message} error envelope, and the
// checks every API call goes through: the bearer token, the endpoint's scopes (as a set), and the
// per-user org_write rate limit.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { emulatorBaseUrl } from '../kit/emulator.ts';
import type { OAuthServer } from '../kit/oauth.ts';
import type { ImageFetcher } from './images.ts';
import type { PinterestStore } from './store.ts';
import type { SandboxUser } from './users.ts';

export interface PinterestSandboxSettings {
  /** How long processing an uploaded video takes. */
  processingMs: number;
  /** org_write calls (Pin create/delete, media registration) per user per minute. */
  writesPerMinute: number;
  /** How long the S3 upload policy of a registered video stays valid. */
  uploadPolicyTtlMs: number;
  /** An app with Trial access: Pins may be created only in Pinterest's API sandbox, not in production. */
  trialAccess: boolean;
}

export interface PinterestContext {
  clientId: string;
  clientSecret: string;
  now: () => number;
  oauth: OAuthServer;
  store: PinterestStore;
  settings: PinterestSandboxSettings;
  fetchImage: ImageFetcher;
  /** Signs the S3 upload policies (the emulator's stand-in for AWS credentials). */
  uploadSecret: string;
  prefix: string;
}

export interface Caller {
  token: string;
  user: SandboxUser;
  scopes: string[];
}

export function sendError(reply: FastifyReply, status: number, code: number, message: string, extra: Record<string, unknown> = {}): FastifyReply {
  return reply.code(status).send({ code, message, ...extra });
}

export const MESSAGES = {
  authentication: 'Authentication failed.',
  scopes: 'Your token does not have sufficient permissions to perform this operation. Please ensure your token is authorized with the correct set of scopes.',
  notPermitted: 'You are not permitted to access that resource.',
  rateLimited:
    'This request exceeded a rate limit. This can happen if the client exceeds one of the published rate limits or if multiple write operations are applied to an object within a short time window.',
  boardNotFound: 'Board not found.',
  pinNotFound: 'Pin not found.',
  uploadNotFound: 'Media upload not found.',
  serverError: 'Something went wrong on our end. Sorry about that.',
  // Reported by postiz (gitroomhq/postiz-app issue 1084) for a Trial access app.
  trialAccess: 'Apps with Trial access may not create Pins in production https://api.pinterest.com - use API Sandbox https://api-sandbox.pinterest.com instead.',
} as const;

/** Bearer token, then the endpoint's scopes, all of which the token must hold. Answers the 401 itself. */
export function authenticate(ctx: PinterestContext, req: FastifyRequest, reply: FastifyReply, scopes: readonly string[]): Caller | null {
  const token = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
  const check = ctx.oauth.checkAccess(token);
  const user = check.ok ? ctx.store.users.get(check.userId) : undefined;
  if (!check.ok || !user || !token) {
    sendError(reply, 401, 2, MESSAGES.authentication, { status: 'failure' });
    return null;
  }
  if (!scopes.every((s) => check.scopes.includes(s))) {
    sendError(reply, 401, 3, MESSAGES.scopes);
    return null;
  }
  return { token, user, scopes: check.scopes };
}

/** The org_write category limit; answers 429 code 8 itself (Retry-After: when the oldest write leaves the window). */
export function takeWrite(ctx: PinterestContext, caller: Caller, reply: FastifyReply): boolean {
  const now = ctx.now();
  const recent = (ctx.store.writes.get(caller.user.id) ?? []).filter((t) => now - t < 60_000);
  const limit = ctx.settings.writesPerMinute;
  reply.header('x-userendpoint-ratelimit-limit', String(limit));
  if (recent.length >= limit) {
    ctx.store.writes.set(caller.user.id, recent);
    reply.header('x-userendpoint-ratelimit-remaining', '0');
    reply.header('retry-after', String(Math.max(1, Math.ceil((recent[0]! + 60_000 - now) / 1000))));
    sendError(reply, 429, 8, MESSAGES.rateLimited);
    return false;
  }
  recent.push(now);
  ctx.store.writes.set(caller.user.id, recent);
  reply.header('x-userendpoint-ratelimit-remaining', String(limit - recent.length));
  return true;
}

export function baseUrl(ctx: PinterestContext, req: FastifyRequest): string {
  return emulatorBaseUrl(req, ctx.prefix);
}

export function avatarUrl(ctx: PinterestContext, req: FastifyRequest, user: SandboxUser): string {
  return `${baseUrl(ctx, req)}/sandbox-avatar/${user.id}.jpg`;
}

/** Pinterest's page_size: 1–250, default 25. */
export function pageSize(raw: unknown): number | null {
  if (raw === undefined) return 25;
  const n = Number(raw);
  return Number.isInteger(n) && n >= 1 && n <= 250 ? n : null;
}

/** The length Pinterest's maxLength counts (code points). */
export function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}
