// Google OAuth 2.0 for a web server app (§8.3): consent URL with offline access and PKCE, code and
// refresh-token grants (refresh tokens are not rotated), revoke (ends the whole grant), tokeninfo.
import type { AdapterDeps } from '../deps.ts';
import { failure, type AccountCredentials, type PlatformFailure, type TokenGrant } from '../types.ts';
import { asNumber, asString, callOAuth, tokenUrl, type Json } from './client.ts';
import { answeredFailure, parseOAuthError, unansweredFailure } from './errors.ts';
import { YOUTUBE_SCOPES } from './info.ts';

export function authorizeUrl(deps: AdapterDeps, input: { state: string; redirectUri: string; codeChallenge?: string }): string {
  const url = new URL(deps.app.authUrl);
  url.searchParams.set('client_id', deps.app.clientId);
  url.searchParams.set('redirect_uri', input.redirectUri);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('scope', YOUTUBE_SCOPES.join(' '));
  // A refresh token comes only with offline access, and only on a consent screen: prompt=consent makes
  // every connection show one, so a reconnect gets a fresh refresh token too (§8.3).
  url.searchParams.set('access_type', 'offline');
  url.searchParams.set('prompt', 'consent');
  url.searchParams.set('include_granted_scopes', 'true');
  url.searchParams.set('state', input.state);
  if (input.codeChallenge) {
    url.searchParams.set('code_challenge', input.codeChallenge);
    url.searchParams.set('code_challenge_method', 'S256');
  }
  return url.toString();
}

function toGrant(body: Json, now: number): TokenGrant | PlatformFailure {
  const accessToken = asString(body.access_token);
  if (!accessToken) return failure('platform_unavailable', 'Google answered the token request without an access token');
  const expiresIn = asNumber(body.expires_in);
  const grant: TokenGrant = {
    accessToken,
    expiresAt: expiresIn !== undefined ? now + expiresIn * 1000 : null,
    // With granular consent the user may have unticked scopes: what was granted is what `scope` says.
    scopes: (asString(body.scope) ?? '').split(/\s+/).filter(Boolean),
  };
  const refreshToken = asString(body.refresh_token);
  if (refreshToken) grant.refreshToken = refreshToken;
  const refreshExpiresIn = asNumber(body.refresh_token_expires_in);
  if (refreshExpiresIn !== undefined) grant.refreshExpiresAt = now + refreshExpiresIn * 1000;
  return grant;
}

export async function exchangeCode(deps: AdapterDeps, input: { code: string; redirectUri: string; codeVerifier?: string }): Promise<TokenGrant | PlatformFailure> {
  const res = await callOAuth(deps, '/token', {
    code: input.code,
    client_id: deps.app.clientId,
    client_secret: deps.app.clientSecret,
    redirect_uri: input.redirectUri,
    grant_type: 'authorization_code',
    code_verifier: input.codeVerifier,
  });
  return res.ok ? toGrant(res.body, deps.clock.now()) : res;
}

/**
 * Google does not rotate refresh tokens: the answer carries no new one, and the engine keeps the stored
 * one. invalid_grant (revoked, expired, or a 7-day "Testing" grant run out) means reconnecting.
 */
export async function refreshGrant(deps: AdapterDeps, refreshToken: string | null): Promise<TokenGrant | PlatformFailure> {
  if (!refreshToken) return failure('auth_expired', 'no Google refresh token is stored for this account; connect it again');
  const res = await callOAuth(deps, '/token', {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: deps.app.clientId,
    client_secret: deps.app.clientSecret,
  });
  return res.ok ? toGrant(res.body, deps.clock.now()) : res;
}

/**
 * Revoking either token ends the whole grant; the refresh token is used when there is one (it outlives
 * the access token). A refresh token Google no longer knows (invalid_token) belongs to a grant already
 * gone, which is what revoking asks for.
 */
export async function revokeAccount(deps: AdapterDeps, account: AccountCredentials): Promise<{ ok: true; revoked: boolean } | PlatformFailure> {
  const token = account.refreshToken ?? account.accessToken;
  const res = await callOAuth(deps, '/revoke', { token });
  if (res.ok) return { ok: true, revoked: true };
  if (account.refreshToken && res.platformCode === 'invalid_token') return { ok: true, revoked: true };
  return res;
}

export interface TokenInfo {
  scopes: string[];
  expiresAt: number | null;
}

/** GET /tokeninfo: the scopes granted and the expiry, without using API quota. */
export async function tokenInfo(deps: AdapterDeps, accessToken: string, signal?: AbortSignal): Promise<{ ok: true; info: TokenInfo } | PlatformFailure> {
  const result = await deps.http.request({ method: 'GET', url: tokenUrl(deps, '/tokeninfo'), query: { access_token: accessToken }, signal });
  if (result.sent !== true) return unansweredFailure(result, false);
  const now = deps.clock.now();
  if (result.status < 200 || result.status >= 300) {
    // An expired or revoked token: 400 invalid_token (§8.3); the engine refreshes it.
    const oauth = parseOAuthError(result.body);
    if (oauth && result.status === 400) return failure('auth_expired', `Google does not accept the access token (${oauth.description || oauth.error})`, { platformCode: oauth.error, httpStatus: 400 });
    return answeredFailure(result, now);
  }
  const body = (result.body && typeof result.body === 'object' ? result.body : {}) as Json;
  const exp = asNumber(body.exp);
  return {
    ok: true,
    info: { scopes: (asString(body.scope) ?? '').split(/\s+/).filter(Boolean), expiresAt: exp !== undefined ? exp * 1000 : null },
  };
}

