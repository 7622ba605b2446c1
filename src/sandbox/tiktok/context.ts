// State the TikTok emulator's routes share, and bearer-token checks as TikTok answers them.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { OAuthServer } from '../kit/oauth.ts';
import { emulatorBaseUrl } from '../kit/emulator.ts';
import { sendError } from './envelope.ts';
import type { PublishStore, TikTokSandboxSettings } from './publishes.ts';
import type { SandboxUser } from './users.ts';

export interface TikTokContext {
  clientId: string;
  clientSecret: string;
  now: () => number;
  oauth: OAuthServer;
  users: Map<string, SandboxUser>;
  publishes: PublishStore;
  settings: TikTokSandboxSettings;
  /** Timestamps of calls per "endpoint:token" (init, creator_info, status), for the per-minute limits. */
  initCalls: Map<string, number[]>;
  /** Unaudited apps: open_id → last time that user posted (5 users per 24 h). */
  postingUsers: Map<string, number>;
  /** Origins whose media TikTok downloads (EmulatorOptions.mediaOrigins); also verified for PULL_FROM_URL. */
  mediaOrigins: () => readonly string[];
}

export interface Caller {
  token: string;
  user: SandboxUser;
  scopes: string[];
}

/** Checks the bearer token (and a scope); answers TikTok's 401 itself and returns null on failure. */
export function authenticate(ctx: TikTokContext, req: FastifyRequest, reply: FastifyReply, scopes?: string[]): Caller | null {
  const header = req.headers.authorization ?? '';
  const token = /^Bearer\s+(.+)$/i.exec(header)?.[1]?.trim();
  const check = ctx.oauth.checkAccess(token);
  const user = check.ok ? ctx.users.get(check.userId) : undefined;
  if (!check.ok || !user || !token) {
    sendError(reply, 401, 'access_token_invalid', 'The access token is invalid or not found in the request.');
    return null;
  }
  if (scopes && !scopes.some((s) => check.scopes.includes(s))) {
    sendError(reply, 401, 'scope_not_authorized', `The user did not authorize the scope required for completing this request (${scopes.join(' or ')}).`);
    return null;
  }
  return { token, user, scopes: check.scopes };
}

export function avatarUrl(req: FastifyRequest, prefix: string, user: SandboxUser): string {
  return `${emulatorBaseUrl(req, prefix)}/sandbox-avatar/${encodeURIComponent(user.openId)}.jpeg`;
}
