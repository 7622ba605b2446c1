// Login Kit v2: consent URL, code and refresh-token grants (refresh tokens rotate), revoke, identity.
import type { AdapterDeps } from '../deps.ts';
import { failure, type AccountCredentials, type PlatformFailure, type TokenGrant } from '../types.ts';
import { asNumber, asString, callApi, callOAuth, isFailure, type Json } from './client.ts';
import { TIKTOK_SCOPES } from './info.ts';

export function authorizeUrl(deps: AdapterDeps, input: { state: string; redirectUri: string; codeChallenge?: string }): string {
  const url = new URL(deps.app.authUrl);
  url.searchParams.set('client_key', deps.app.clientId);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('scope', TIKTOK_SCOPES.join(','));
  url.searchParams.set('redirect_uri', input.redirectUri);
  url.searchParams.set('state', input.state);
  // Herald does not ask for PKCE (info.usesPkce is false); honour a challenge if one is handed in anyway.
  if (input.codeChallenge) {
    url.searchParams.set('code_challenge', input.codeChallenge);
    url.searchParams.set('code_challenge_method', 'S256');
  }
  // TikTok's docs write the scope list with bare commas; they are legal in a query, so keep them so.
  url.search = url.search.replace(/([?&]scope=)([^&]*)/, (_m, key: string, value: string) => key + value.replace(/%2C/gi, ','));
  return url.toString();
}

export interface GrantWithOpenId {
  grant: TokenGrant;
  openId?: string;
}

function toGrant(body: Json, now: number): GrantWithOpenId | PlatformFailure {
  const accessToken = asString(body.access_token);
  if (!accessToken) return failure('platform_unavailable', 'TikTok answered the token request without an access token');
  const expiresIn = asNumber(body.expires_in);
  const refreshExpiresIn = asNumber(body.refresh_expires_in);
  const grant: TokenGrant = {
    accessToken,
    expiresAt: expiresIn !== undefined ? now + expiresIn * 1000 : null,
    scopes: (asString(body.scope) ?? '').split(',').map((s) => s.trim()).filter(Boolean),
  };
  const refreshToken = asString(body.refresh_token);
  if (refreshToken) grant.refreshToken = refreshToken;
  if (refreshExpiresIn !== undefined) grant.refreshExpiresAt = now + refreshExpiresIn * 1000;
  return { grant, openId: asString(body.open_id) };
}

export async function exchangeCode(deps: AdapterDeps, input: { code: string; redirectUri: string; codeVerifier?: string }): Promise<GrantWithOpenId | PlatformFailure> {
  const res = await callOAuth(deps, '/v2/oauth/token/', {
    client_key: deps.app.clientId,
    client_secret: deps.app.clientSecret,
    code: input.code,
    grant_type: 'authorization_code',
    redirect_uri: input.redirectUri,
    code_verifier: input.codeVerifier,
  });
  return res.ok ? toGrant(res.body, deps.clock.now()) : res;
}

/** Refresh tokens rotate: the answer carries a new one and the one sent stops working. */
export async function refreshGrant(deps: AdapterDeps, refreshToken: string | null): Promise<GrantWithOpenId | PlatformFailure> {
  if (!refreshToken) return failure('auth_expired', 'no TikTok refresh token is stored for this account; reconnect it');
  const res = await callOAuth(deps, '/v2/oauth/token/', {
    client_key: deps.app.clientId,
    client_secret: deps.app.clientSecret,
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
  });
  return res.ok ? toGrant(res.body, deps.clock.now()) : res;
}

export async function revokeToken(deps: AdapterDeps, accessToken: string): Promise<{ ok: true } | PlatformFailure> {
  const res = await callOAuth(deps, '/v2/oauth/revoke/', {
    client_key: deps.app.clientId,
    client_secret: deps.app.clientSecret,
    token: accessToken,
  });
  return res.ok ? { ok: true } : res;
}

/** Revoke needs a live access token; an expired one is renewed first (the grant is going away anyway). */
export async function revokeAccount(deps: AdapterDeps, account: AccountCredentials): Promise<{ ok: true; revoked: boolean } | PlatformFailure> {
  const first = await revokeToken(deps, account.accessToken);
  if (first.ok) return { ok: true, revoked: true };
  if (first.category !== 'auth_expired' || !account.refreshToken) return first;
  const renewed = await refreshGrant(deps, account.refreshToken);
  if (isFailure(renewed)) return renewed;
  const second = await revokeToken(deps, renewed.grant.accessToken);
  return second.ok ? { ok: true, revoked: true } : second;
}

export interface TikTokUser {
  openId: string;
  username?: string;
  displayName?: string;
  avatarUrl?: string;
}

export const USER_FIELDS = 'open_id,union_id,avatar_url,display_name,username';
const BASIC_USER_FIELDS = 'open_id,union_id,avatar_url,display_name';

/** username needs user.info.profile; asking for a field beyond the grant fails the whole call. */
export function userFields(scopes: string[]): string {
  return scopes.length === 0 || scopes.includes('user.info.profile') ? USER_FIELDS : BASIC_USER_FIELDS;
}

export async function fetchUser(deps: AdapterDeps, token: string, scopes: string[]): Promise<{ ok: true; user: TikTokUser } | PlatformFailure> {
  const res = await callApi(deps, { method: 'GET', path: '/v2/user/info/', token, query: { fields: userFields(scopes) } });
  if (!res.ok) return res;
  const u = res.data.user && typeof res.data.user === 'object' ? (res.data.user as Json) : {};
  const openId = asString(u.open_id);
  if (!openId) return failure('platform_unavailable', 'TikTok answered user/info without an open_id');
  return { ok: true, user: { openId, username: asString(u.username), displayName: asString(u.display_name), avatarUrl: asString(u.avatar_url) } };
}
