// Bluesky sessions from an app password (10.2, 10.3): createSession on the user's PDS, refreshSession with
// the refresh JWT (rotating; the old one answers with the same next pair for a grace period), deleteSession
// to revoke it, getSession as the health check, and the profile record for display name and avatar.
// No OAuth: the file keeps its name because every platform's sign-in lives in oauth.ts.
import type { AdapterDeps } from '../deps.ts';
import { failure, type AccountCredentials, type AccountMeta, type ConnectedAccount, type HealthReport, type Outcome, type PlatformFailure, type TokenGrant } from '../types.ts';
import { asString, bodyOf, failureOf, isOk, serverOf, xrpc, type Json } from './client.ts';
import { APP_PASSWORD_SCOPE, PROFILE_COLLECTION, WIDER_SCOPES } from './info.ts';
import { jwtClaims, jwtExpiresAt } from './jwt.ts';

/** The account's PDS as its DID document names it (`#atproto_pds`), when the session answer carries one. */
export function pdsEndpointOf(didDoc: unknown): string | undefined {
  const services = (didDoc as { service?: unknown } | null)?.service;
  if (!Array.isArray(services)) return undefined;
  for (const s of services as Json[]) {
    const id = asString(s?.id);
    if ((id === '#atproto_pds' || id?.endsWith('#atproto_pds')) && typeof s.serviceEndpoint === 'string') return s.serviceEndpoint;
  }
  return undefined;
}

export interface Session {
  did: string;
  handle: string;
  active: boolean;
  status?: string;
  pdsUrl?: string;
  grant: TokenGrant;
}

/** The permissions a session's access token carries; the wider scopes include what an app password may do. */
export function permissionsOf(accessJwt: string): string[] {
  const scope = jwtClaims(accessJwt).scope;
  if (!scope) return [];
  return WIDER_SCOPES.includes(scope) ? [scope, APP_PASSWORD_SCOPE] : [scope];
}

function sessionOf(body: Json, label: string): Session | PlatformFailure {
  const accessJwt = asString(body.accessJwt);
  const refreshJwt = asString(body.refreshJwt);
  const did = asString(body.did);
  if (!accessJwt || !refreshJwt || !did) return failure('platform_unavailable', `${label}: the PDS answered without a session`);
  const grant: TokenGrant = {
    accessToken: accessJwt,
    refreshToken: refreshJwt,
    expiresAt: jwtExpiresAt(accessJwt),
    refreshExpiresAt: jwtExpiresAt(refreshJwt),
    scopes: permissionsOf(accessJwt),
  };
  const session: Session = { did, handle: asString(body.handle) ?? did, active: body.active !== false, grant };
  const status = asString(body.status);
  if (status) session.status = status;
  const pds = pdsEndpointOf(body.didDoc);
  if (pds) session.pdsUrl = pds;
  return session;
}

function inactive(session: { status?: string }, what: string): PlatformFailure {
  return failure('permission_missing', `${what}: the Bluesky account is ${session.status ?? 'not active'} and cannot post`);
}

/** createSession with the identifier (handle, DID or e-mail) and an app password. */
export async function createSession(deps: AdapterDeps, input: { identifier: string; password: string; serverUrl: string }): Promise<Session | PlatformFailure> {
  const label = `Bluesky sign-in on ${input.serverUrl}`;
  const res = await xrpc(deps, {
    server: input.serverUrl,
    nsid: 'com.atproto.server.createSession',
    method: 'POST',
    json: { identifier: input.identifier, password: input.password },
  });
  if (!isOk(res)) {
    const f = failureOf(deps, res, label);
    // E-mail 2FA applies to the main password; app passwords are how tools sign in without the code.
    if (f.platformCode === 'AuthFactorTokenRequired') return { ...f, message: `${label}: this account asks for an e-mail code; use an app password (Settings → Privacy and security → App passwords)` };
    return f;
  }
  return sessionOf(bodyOf(res), label);
}

export interface Profile {
  displayName?: string;
  avatarUrl?: string;
}

/**
 * The profile record (app.bsky.actor.profile/self) read from the repository itself: a com.atproto read that
 * any PDS answers, unlike app.bsky.actor.getProfile, which needs an AppView behind the PDS. Best effort.
 */
export async function fetchProfile(deps: AdapterDeps, server: string, did: string, pdsUrl?: string): Promise<Profile> {
  const res = await xrpc(deps, {
    server,
    nsid: 'com.atproto.repo.getRecord',
    method: 'GET',
    query: { repo: did, collection: PROFILE_COLLECTION, rkey: 'self' },
  });
  if (!isOk(res)) return {};
  const value = (bodyOf(res).value ?? {}) as Json;
  const out: Profile = {};
  const displayName = asString(value.displayName)?.trim();
  if (displayName) out.displayName = displayName;
  const cid = asString(((value.avatar as Json | undefined)?.ref as Json | undefined)?.$link);
  if (cid) {
    // The blob as the account's own PDS serves it (public, no token).
    const url = new URL(`${(pdsUrl ?? server).replace(/\/+$/, '')}/xrpc/com.atproto.sync.getBlob`);
    url.searchParams.set('did', did);
    url.searchParams.set('cid', cid);
    out.avatarUrl = url.toString();
  }
  return out;
}

export function accountMeta(serverUrl: string, session: Pick<Session, 'pdsUrl' | 'handle'>): AccountMeta {
  return { serverUrl, ...(session.pdsUrl ? { pdsUrl: session.pdsUrl } : {}), handle: session.handle };
}

export async function connectWithPassword(
  deps: AdapterDeps,
  input: { identifier: string; password: string; serverUrl: string },
): Promise<Outcome<{ accounts: ConnectedAccount[] }>> {
  const session = await createSession(deps, input);
  if ('ok' in session) return session;
  if (!session.active) return inactive(session, `Bluesky sign-in on ${input.serverUrl}`);
  const profile = await fetchProfile(deps, input.serverUrl, session.did, session.pdsUrl);
  const account: ConnectedAccount = {
    accountId: session.did,
    username: session.handle,
    grant: session.grant,
    meta: accountMeta(input.serverUrl, session),
  };
  if (profile.displayName) account.displayName = profile.displayName;
  if (profile.avatarUrl) account.avatarUrl = profile.avatarUrl;
  return { ok: true, accounts: [account] };
}

/** refreshSession with the refresh JWT: a new pair (the refresh token rotates). */
export async function refreshSession(deps: AdapterDeps, account: AccountCredentials): Promise<Outcome<{ grant: TokenGrant }>> {
  if (!account.refreshToken) return failure('auth_expired', 'no Bluesky refresh token is stored for this account; connect it again');
  const server = serverOf(account, deps.app.apiUrl);
  const res = await xrpc(deps, { server, nsid: 'com.atproto.server.refreshSession', method: 'POST', token: account.refreshToken });
  const label = 'Bluesky refused to renew the session';
  if (!isOk(res)) return failureOf(deps, res, label);
  const session = sessionOf(bodyOf(res), label);
  if ('ok' in session) return session;
  return { ok: true, grant: session.grant };
}

/**
 * deleteSession with the refresh JWT: that session's refresh token dies (access JWTs live until they
 * expire, at most 2 hours). A refresh token already expired or revoked has nothing left to revoke.
 */
export async function deleteSession(deps: AdapterDeps, account: AccountCredentials): Promise<Outcome<{ revoked: boolean }>> {
  if (!account.refreshToken) return { ok: true, revoked: false };
  const server = serverOf(account, deps.app.apiUrl);
  const res = await xrpc(deps, { server, nsid: 'com.atproto.server.deleteSession', method: 'POST', token: account.refreshToken });
  if (isOk(res)) return { ok: true, revoked: true };
  const f = failureOf(deps, res, 'Bluesky refused to end the session');
  if (f.platformCode === 'ExpiredToken') return { ok: true, revoked: true };
  return f;
}

/** getSession with the access token: the token works and the account is active. */
export async function checkSession(deps: AdapterDeps, account: AccountCredentials): Promise<Outcome<HealthReport>> {
  const server = serverOf(account, deps.app.apiUrl);
  const res = await xrpc(deps, { server, nsid: 'com.atproto.server.getSession', method: 'GET', token: account.accessToken });
  const label = 'Bluesky session check failed';
  if (!isOk(res)) return failureOf(deps, res, label);
  const body = bodyOf(res);
  const status = asString(body.status);
  if (body.active === false) return inactive({ ...(status ? { status } : {}) }, label);
  const handle = asString(body.handle);
  return {
    ok: true,
    permissions: permissionsOf(account.accessToken),
    expiresAt: jwtExpiresAt(account.accessToken) ?? account.expiresAt,
    meta: { ...(handle ? { handle } : {}), active: true },
  };
}
