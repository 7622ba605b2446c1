// Pinterest OAuth 2.0 (§9.2): the consent URL, the code and refresh-token grants at /v5/oauth/token
// with HTTP Basic client authentication. Refresh tokens are continuous: each refresh hands out a new
// one (60 days), so an account refreshed in time never has to reconnect.
import type { AdapterDeps } from '../deps.ts';
import { failure, type PlatformFailure, type TokenGrant } from '../types.ts';
import { asNumber, asString, callToken, type Json } from './client.ts';
import { PINTEREST_SCOPES } from './info.ts';

export function authorizeUrl(deps: AdapterDeps, input: { state: string; redirectUri: string; codeChallenge?: string }): string {
  const url = new URL(deps.app.authUrl);
  url.searchParams.set('client_id', deps.app.clientId);
  url.searchParams.set('redirect_uri', input.redirectUri);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('scope', PINTEREST_SCOPES.join(','));
  url.searchParams.set('state', input.state);
  // Pinterest's docs write the scope list with bare commas; they are legal in a query, so keep them so.
  url.search = url.search.replace(/([?&]scope=)([^&]*)/, (_m, key: string, value: string) => key + value.replace(/%2C/gi, ',').replace(/%3A/gi, ':'));
  return url.toString();
}

/** Scopes come back space-separated (the guide's examples); commas are accepted too. */
export function parseScopes(raw: unknown): string[] {
  return typeof raw === 'string' ? raw.split(/[\s,]+/).filter(Boolean) : [];
}

export function toGrant(body: Json, now: number): { grant: TokenGrant } | PlatformFailure {
  const accessToken = asString(body.access_token);
  if (!accessToken) return failure('platform_unavailable', 'Pinterest answered the token request without an access token');
  const expiresIn = asNumber(body.expires_in);
  const grant: TokenGrant = {
    accessToken,
    expiresAt: expiresIn !== undefined ? now + expiresIn * 1000 : null,
    scopes: parseScopes(body.scope),
  };
  const refreshToken = asString(body.refresh_token);
  if (refreshToken) {
    grant.refreshToken = refreshToken;
    // refresh_token_expires_at (unix seconds) is exact; refresh_token_expires_in is relative to now.
    const at = asNumber(body.refresh_token_expires_at);
    const refreshIn = asNumber(body.refresh_token_expires_in);
    if (at !== undefined) grant.refreshExpiresAt = at * 1000;
    else if (refreshIn !== undefined) grant.refreshExpiresAt = now + refreshIn * 1000;
  }
  return { grant };
}

export async function exchangeCode(deps: AdapterDeps, input: { code: string; redirectUri: string }): Promise<{ grant: TokenGrant } | PlatformFailure> {
  const res = await callToken(deps, '/v5/oauth/token', {
    grant_type: 'authorization_code',
    code: input.code,
    redirect_uri: input.redirectUri,
    // Apps created before 2025-09-25 need it for the continuous refresh token; newer apps ignore it.
    continuous_refresh: 'true',
  });
  return res.ok ? toGrant(res.body, deps.clock.now()) : res;
}

export async function refreshGrant(deps: AdapterDeps, refreshToken: string | null): Promise<{ grant: TokenGrant } | PlatformFailure> {
  if (!refreshToken) return failure('auth_expired', 'no Pinterest refresh token is stored for this account; connect it again');
  const res = await callToken(deps, '/v5/oauth/token', { grant_type: 'refresh_token', refresh_token: refreshToken });
  return res.ok ? toGrant(res.body, deps.clock.now()) : res;
}
