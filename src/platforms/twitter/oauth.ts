// OAuth 2.0 Authorization Code with PKCE (S256) as a confidential client: authorize URL, code
// exchange, refresh (X rotates refresh tokens: the newest pair must be kept), and revoke.
import type { AdapterDeps } from '../deps.ts';
import { failure, type AccountCredentials, type Outcome, type TokenGrant } from '../types.ts';
import { callTokenEndpoint } from './api.ts';
import { isSuccess, xFailure } from './errors.ts';
import { TWITTER_SCOPES } from './info.ts';

export function buildAuthorizeUrl(deps: AdapterDeps, input: { state: string; redirectUri: string; codeChallenge?: string }): string {
  if (!input.codeChallenge) throw new Error('X requires PKCE: authorizeUrl needs a codeChallenge');
  const params: [string, string][] = [
    ['response_type', 'code'],
    ['client_id', deps.app.clientId],
    ['redirect_uri', input.redirectUri],
    ['scope', TWITTER_SCOPES.join(' ')],
    ['state', input.state],
    ['code_challenge', input.codeChallenge],
    ['code_challenge_method', 'S256'],
  ];
  // Spaces as %20, as X's docs show, rather than URLSearchParams' '+'.
  const query = params.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
  return `${deps.app.authUrl}${deps.app.authUrl.includes('?') ? '&' : '?'}${query}`;
}

export function parseGrant(body: unknown, now: number): TokenGrant | null {
  const b = (body ?? {}) as Record<string, unknown>;
  if (typeof b.access_token !== 'string' || b.access_token.length === 0) return null;
  const expiresIn = typeof b.expires_in === 'number' ? b.expires_in : Number(b.expires_in);
  const grant: TokenGrant = {
    accessToken: b.access_token,
    expiresAt: Number.isFinite(expiresIn) && expiresIn > 0 ? now + expiresIn * 1000 : null,
    scopes: typeof b.scope === 'string' ? b.scope.split(/\s+/).filter(Boolean) : [],
  };
  if (typeof b.refresh_token === 'string' && b.refresh_token.length > 0) grant.refreshToken = b.refresh_token;
  return grant;
}

async function tokenRequest(deps: AdapterDeps, form: Record<string, string>, label: string): Promise<Outcome<{ grant: TokenGrant }>> {
  const res = await callTokenEndpoint(deps, '/2/oauth2/token', form);
  const now = deps.clock.now();
  if (!isSuccess(res)) return xFailure(res, now, label);
  const grant = parseGrant(res.body, now);
  if (!grant) return failure('platform_unavailable', `${label}: X answered without an access token`, { httpStatus: res.status });
  return { ok: true, grant };
}

export function exchangeCode(deps: AdapterDeps, input: { code: string; redirectUri: string; codeVerifier?: string }) {
  const form: Record<string, string> = { grant_type: 'authorization_code', code: input.code, redirect_uri: input.redirectUri };
  if (input.codeVerifier) form.code_verifier = input.codeVerifier;
  return tokenRequest(deps, form, 'X refused the authorization code');
}

export async function refreshGrant(deps: AdapterDeps, account: AccountCredentials): Promise<Outcome<{ grant: TokenGrant }>> {
  if (!account.refreshToken) return failure('auth_expired', 'X gave no refresh token for this account; connect it again');
  const out = await tokenRequest(deps, { grant_type: 'refresh_token', refresh_token: account.refreshToken }, 'X refused to refresh the token');
  if (out.ok && out.grant.scopes.length === 0) out.grant.scopes = account.scopes;
  return out;
}

/**
 * Revokes the refresh token first (it could mint new access tokens), then the access token.
 * `revoked` is true only when X accepted both.
 */
export async function revokeTokens(deps: AdapterDeps, account: AccountCredentials): Promise<Outcome<{ revoked: boolean }>> {
  const tokens: [string, string][] = [];
  if (account.refreshToken) tokens.push([account.refreshToken, 'refresh_token']);
  tokens.push([account.accessToken, 'access_token']);
  let revoked = true;
  for (const [token, hint] of tokens) {
    const res = await callTokenEndpoint(deps, '/2/oauth2/revoke', { token, token_type_hint: hint });
    if (!isSuccess(res)) return xFailure(res, deps.clock.now(), 'X refused to revoke the token');
    if ((res.body as { revoked?: unknown } | null)?.revoked === false) revoked = false;
  }
  return { ok: true, revoked };
}
