// State the LinkedIn emulator's routes share, and the checks every call goes through as LinkedIn makes
// them: the bearer token (401s with LinkedIn's service codes), scopes (403 "Not enough permissions to
// access: <resource>.<METHOD>.<version>"), and on /rest/* the LinkedIn-Version and protocol headers.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Ledger } from '../kit/ledger.ts';
import type { OAuthServer } from '../kit/oauth.ts';
import { accessDenied, AUTH_ERRORS, sendRestError } from './envelope.ts';
import type { CommentRecord, IdMint, MediaRecord, PostRecord, SandboxMember } from './store.ts';

export interface LinkedInSandboxSettings {
  /** How long media processing takes (PROCESSING → AVAILABLE). */
  processingMs: number;
  /** Video parts (LinkedIn: 4 MiB); tests shrink them. */
  partBytes: number;
  /** Posts a member may create per UTC day before LinkedIn throttles (429). */
  dailyPostsPerMember: number;
  /** Refresh tokens are issued (apps with programmatic refresh). */
  programmaticRefresh: boolean;
  /** How many months a LinkedIn-Version stays served. */
  versionMonths: number;
}

export interface LinkedInContext {
  clientId: string;
  clientSecret: string;
  /** Scopes the app's products allow. */
  appScopes: ReadonlySet<string>;
  now: () => number;
  oauth: OAuthServer;
  ledger: Ledger;
  ids: IdMint;
  settings: LinkedInSandboxSettings;
  members: Map<string, SandboxMember>;
  media: Map<string, MediaRecord>;
  posts: Map<string, PostRecord>;
  comments: CommentRecord[];
  /** "memberId:YYYY-MM-DD" → posts created that day. */
  dailyPosts: Map<string, number>;
  /** When each member consented (refresh tokens count from it). */
  consentAt: Map<string, number>;
}

export interface Caller {
  token: string;
  member: SandboxMember;
  scopes: string[];
}

function bearer(req: FastifyRequest): string | undefined {
  return /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1]?.trim() || undefined;
}

/** Checks the bearer token; answers LinkedIn's 401 itself and returns null on failure. */
export function authenticate(ctx: LinkedInContext, req: FastifyRequest, reply: FastifyReply): Caller | null {
  const token = bearer(req);
  const check = ctx.oauth.checkAccess(token);
  const member = check.ok ? ctx.members.get(check.userId) : undefined;
  if (!check.ok || !member || !token) {
    const reason = check.ok ? 'invalid' : check.reason;
    sendRestError(reply, AUTH_ERRORS[reason]);
    return null;
  }
  return { token, member, scopes: check.scopes };
}

/** The version suffix LinkedIn puts on resource names in 403s: 202609 → 20260901. */
export function versionTag(req: FastifyRequest): string {
  const v = String(req.headers['linkedin-version'] ?? '');
  return /^\d{6}$/.test(v) ? `${v}01` : v.replace('.', '') || 'NO_VERSION';
}

/** Needs one of `scopes`; answers the 403 itself otherwise. */
export function requireScope(req: FastifyRequest, reply: FastifyReply, caller: Caller, scopes: string[], resource: string): boolean {
  if (scopes.some((s) => caller.scopes.includes(s))) return true;
  sendRestError(reply, accessDenied(`${resource}.${versionTag(req)}`));
  return false;
}

/** The member's posting role on a Page (ADMINISTRATOR, CONTENT_ADMINISTRATOR), if any. */
export function postingRole(member: SandboxMember, orgUrn: string): string | undefined {
  const page = member.pages.find((p) => p.urn === orgUrn);
  return page && (page.role === 'ADMINISTRATOR' || page.role === 'CONTENT_ADMINISTRATOR') ? page.role : undefined;
}

/**
 * May the caller write as `urn` (post, upload, comment, edit, delete)? A member as themself with
 * w_member_social; a Page with w_organization_social and a posting role on it.
 */
export function canWriteAs(caller: Caller, urn: string): 'ok' | 'scope' | 'author' {
  if (urn === caller.member.urn) return caller.scopes.includes('w_member_social') ? 'ok' : 'scope';
  if (urn.startsWith('urn:li:organization:')) {
    if (!caller.scopes.includes('w_organization_social')) return 'scope';
    return postingRole(caller.member, urn) ? 'ok' : 'author';
  }
  return 'author';
}

/**
 * May the caller read `author`'s posts and comments? A Page's with r_organization_social and a role on
 * it; a member's own only with r_member_social, which LinkedIn grants to partners alone.
 */
export function canReadAs(caller: Caller, author: string): boolean {
  if (author === caller.member.urn) return caller.scopes.includes('r_member_social');
  if (author.startsWith('urn:li:organization:')) {
    return caller.scopes.includes('r_organization_social') && caller.member.pages.some((p) => p.urn === author);
  }
  return false;
}

/**
 * A URN in a path must come percent-encoded under protocol 2.0 (platforms.md 7.4). Fastify decodes the
 * parameter; the raw URL tells whether a bare `urn:li:` was sent.
 */
export function hasBareUrnKey(req: FastifyRequest): boolean {
  return /urn:li:/.test(req.url.split('?')[0] ?? '');
}
