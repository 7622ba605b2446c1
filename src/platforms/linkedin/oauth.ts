// LinkedIn's 3-legged OAuth (7.2): consent URL, code exchange, refresh (programmatic-refresh apps
// only), revoke and token introspection, all below the token URL (www.linkedin.com/oauth/v2).
import type { AdapterDeps } from '../deps.ts';
import { failure, type AccountCredentials, type PlatformFailure, type TokenGrant } from '../types.ts';
import { asNumber, asObject, asString, callOAuth, type Json } from './api.ts';
import { isSuccess, linkedInFailure } from './errors.ts';
import { LINKEDIN_SCOPES } from './info.ts';

/**
 * The consent URL. A `scope` already on the configured authorize URL wins over Herald's list: that is
 * how an app with other LinkedIn products (OpenID Connect + Share on LinkedIn) names the scopes it has.
 */
export function authorizeUrl(deps: AdapterDeps, input: { state: string; redirectUri: string; codeChallenge?: string }): string {
  const url = new URL(deps.app.authUrl);
  const scopes = url.searchParams.get('scope')?.split(/[\s,]+/).filter(Boolean) ?? LINKEDIN_SCOPES;
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', deps.app.clientId);
  url.searchParams.set('redirect_uri', input.redirectUri);
  url.searchParams.set('state', input.state);
  url.searchParams.set('scope', scopes.join(' '));
  if (input.codeChallenge) {
    url.searchParams.set('code_challenge', input.codeChallenge);
    url.searchParams.set('code_challenge_method', 'S256');
  }
  // LinkedIn documents the scope list as space separated and URL-encoded: %20, not the form's '+'.
  url.search = url.search.replace(/([?&]scope=)([^&]*)/, (_m, key: string, value: string) => key + value.replace(/\+/g, '%20'));
  return url.toString();
}

/** LinkedIn answers `scope` as a comma list (`email,openid,profile,w_member_social`); spaces tolerated. */
export function parseScopes(raw: unknown): string[] {
  return (asString(raw) ?? '').split(/[\s,]+/).map((s) => s.trim()).filter(Boolean);
}

export function toGrant(body: Json, now: number): TokenGrant | PlatformFailure {
  const accessToken = asString(body.access_token);
  if (!accessToken) return failure('platform_unavailable', 'LinkedIn answered the token request without an access token');
  const expiresIn = asNumber(body.expires_in);
  const grant: TokenGrant = {
    accessToken,
    expiresAt: expiresIn !== undefined ? now + expiresIn * 1000 : null,
    scopes: parseScopes(body.scope),
  };
  const refreshToken = asString(body.refresh_token);
  if (refreshToken) {
    grant.refreshToken = refreshToken;
    const refreshIn = asNumber(body.refresh_token_expires_in);
    if (refreshIn !== undefined) grant.refreshExpiresAt = now + refreshIn * 1000;
  }
  return grant;
}

async function tokenCall(deps: AdapterDeps, form: Record<string, string | undefined>, label: string): Promise<TokenGrant | PlatformFailure> {
  const res = await callOAuth(deps, '/accessToken', { ...form, client_id: deps.app.clientId, client_secret: deps.app.clientSecret });
  if (!isSuccess(res)) return linkedInFailure(res, deps.clock.now(), label);
  return toGrant(asObject(res.body), deps.clock.now());
}

export function exchangeCode(deps: AdapterDeps, input: { code: string; redirectUri: string; codeVerifier?: string }): Promise<TokenGrant | PlatformFailure> {
  return tokenCall(
    deps,
    { grant_type: 'authorization_code', code: input.code, redirect_uri: input.redirectUri, code_verifier: input.codeVerifier },
    'LinkedIn refused the authorization code',
  );
}

export interface Introspection {
  active: boolean;
  status?: string;
  expiresAt: number | null;
  scopes: string[];
}

/** POST /introspectToken: whether the token works, its scopes and expiry (7.2). */
export async function introspect(deps: AdapterDeps, token: string): Promise<{ ok: true; token: Introspection } | PlatformFailure> {
  const res = await callOAuth(deps, '/introspectToken', { client_id: deps.app.clientId, client_secret: deps.app.clientSecret, token });
  if (!isSuccess(res)) return linkedInFailure(res, deps.clock.now(), 'LinkedIn token check failed');
  const b = asObject(res.body);
  const expiresAt = asNumber(b.expires_at);
  return {
    ok: true,
    token: { active: b.active === true, status: asString(b.status), expiresAt: expiresAt !== undefined ? expiresAt * 1000 : null, scopes: parseScopes(b.scope) },
  };
}

/**
 * New tokens. With a refresh token: LinkedIn's refresh grant (the refresh token keeps its own clock,
 * counted from consent). Without one (most apps: programmatic refresh is for approved partners) there
 * is nothing to renew with, so the answer depends on the token: still active → a transient failure that
 * leaves it in use until it expires (health says to reconnect before then); dead → auth_expired.
 */
export async function refreshGrant(deps: AdapterDeps, account: AccountCredentials): Promise<{ ok: true; grant: TokenGrant } | PlatformFailure> {
  if (account.refreshToken) {
    const grant = await tokenCall(deps, { grant_type: 'refresh_token', refresh_token: account.refreshToken }, 'LinkedIn refused to refresh the token');
    return 'ok' in grant ? grant : { ok: true, grant };
  }
  const now = deps.clock.now();
  if (account.expiresAt !== null && account.expiresAt <= now) {
    return failure('auth_expired', 'the LinkedIn token has expired and LinkedIn gave this app no refresh token; connect the account again');
  }
  const checked = await introspect(deps, account.accessToken);
  if (!checked.ok) return checked;
  if (!checked.token.active) {
    return failure('auth_expired', `the LinkedIn token is ${checked.token.status ?? 'no longer active'} and cannot be renewed without a refresh token; connect the account again`);
  }
  const until = checked.token.expiresAt ?? account.expiresAt;
  return failure(
    'platform_unavailable',
    `LinkedIn gives this app no refresh token (programmatic refresh is for approved partners); the current token works${until ? ` until ${new Date(until).toISOString()}` : ''}, connect the account again before then`,
    { platformCode: 'NO_REFRESH_TOKEN' },
  );
}

async function revokeToken(deps: AdapterDeps, token: string): Promise<{ ok: true } | PlatformFailure> {
  const res = await callOAuth(deps, '/revoke', { client_id: deps.app.clientId, client_secret: deps.app.clientSecret, token });
  return isSuccess(res) ? { ok: true } : linkedInFailure(res, deps.clock.now(), 'LinkedIn refused to revoke the token');
}

/** Revokes the grant; a dead access token is renewed first when a refresh token allows it. */
export async function revokeAccount(deps: AdapterDeps, account: AccountCredentials): Promise<{ ok: true; revoked: boolean } | PlatformFailure> {
  const first = await revokeToken(deps, account.accessToken);
  if (first.ok) return { ok: true, revoked: true };
  if (first.category !== 'auth_expired' || !account.refreshToken) return first;
  const renewed = await refreshGrant(deps, account);
  if (!renewed.ok) return renewed;
  const second = await revokeToken(deps, renewed.grant.accessToken);
  return second.ok ? { ok: true, revoked: true } : second;
}
