// Herald's app on an instance (POST /api/v1/apps), the OAuth 2 code flow with PKCE (Doorkeeper), revoke,
// and identity (verify_credentials). Tokens never expire and there is no refresh grant (platforms.md
// §11.2–11.4).
import type { AdapterDeps } from '../deps.ts';
import { failure, type AccountCredentials, type PlatformFailure, type ServerApp, type TokenGrant } from '../types.ts';
import { asObject, asString, callInstance, instanceOf, instanceUrl, isFailure } from './client.ts';
import { APP_NAME, APP_WEBSITE, MASTODON_SCOPES } from './info.ts';

export async function registerApp(
  deps: AdapterDeps,
  input: { serverUrl: string; redirectUri: string },
): Promise<{ ok: true; clientId: string; clientSecret: string } | PlatformFailure> {
  const label = `Mastodon instance ${input.serverUrl} refused to register Herald`;
  const res = await callInstance(deps, {
    method: 'POST',
    instance: input.serverUrl,
    path: '/api/v1/apps',
    // One redirect URI as a string: an array is understood only from 4.3 on.
    body: { json: { client_name: APP_NAME, redirect_uris: input.redirectUri, scopes: MASTODON_SCOPES.join(' '), website: APP_WEBSITE } },
    label,
  });
  if (!res.ok) {
    // No Mastodon API here at all: say so rather than "content rejected".
    if (res.httpStatus === 404) return failure('platform_unavailable', `${input.serverUrl} does not look like a Mastodon instance (no /api/v1/apps)`, { httpStatus: 404 });
    return res;
  }
  const body = asObject(res.body) ?? {};
  const clientId = asString(body.client_id);
  const clientSecret = asString(body.client_secret);
  if (!clientId || !clientSecret) return failure('platform_unavailable', `${label}: its answer has no client_id or client_secret`);
  return { ok: true, clientId, clientSecret };
}

function serverOf(server: ServerApp | undefined): ServerApp {
  // The connect service always passes Herald's app for server_oauth platforms: without it this is a bug.
  if (!server) throw new Error('mastodon needs the instance app (server) to build or finish an authorization');
  return server;
}

export function authorizeUrl(input: { state: string; redirectUri: string; codeChallenge?: string; server?: ServerApp }): string {
  const server = serverOf(input.server);
  const url = new URL(instanceUrl(server.url, '/oauth/authorize'));
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', server.clientId);
  url.searchParams.set('redirect_uri', input.redirectUri);
  url.searchParams.set('scope', MASTODON_SCOPES.join(' '));
  url.searchParams.set('state', input.state);
  if (input.codeChallenge) {
    url.searchParams.set('code_challenge', input.codeChallenge);
    url.searchParams.set('code_challenge_method', 'S256');
  }
  return url.toString();
}

export async function exchangeCode(
  deps: AdapterDeps,
  input: { code: string; redirectUri: string; codeVerifier?: string; server?: ServerApp },
): Promise<{ ok: true; grant: TokenGrant } | PlatformFailure> {
  const server = serverOf(input.server);
  const res = await callInstance(deps, {
    method: 'POST',
    instance: server.url,
    path: '/oauth/token',
    body: {
      form: {
        grant_type: 'authorization_code',
        code: input.code,
        client_id: server.clientId,
        client_secret: server.clientSecret,
        redirect_uri: input.redirectUri,
        code_verifier: input.codeVerifier,
      },
    },
    label: 'Mastodon refused the authorization code',
  });
  if (!res.ok) return res;
  const body = asObject(res.body) ?? {};
  const accessToken = asString(body.access_token);
  if (!accessToken) return failure('platform_unavailable', 'Mastodon answered the token request without an access token');
  const scopes = (asString(body.scope) ?? '').split(/[\s+]+/).filter(Boolean);
  // No expires_in and no refresh token: Mastodon tokens live until revoked.
  return { ok: true, grant: { accessToken, expiresAt: null, scopes: scopes.length > 0 ? scopes : [...MASTODON_SCOPES] } };
}

export interface MastodonIdentity {
  id: string;
  username: string;
  displayName?: string;
  avatarUrl?: string;
}

export async function verifyCredentials(deps: AdapterDeps, instance: string, token: string, signal?: AbortSignal): Promise<{ ok: true; me: MastodonIdentity } | PlatformFailure> {
  const res = await callInstance(deps, { method: 'GET', instance, path: '/api/v1/accounts/verify_credentials', token, label: 'Mastodon did not accept the account\'s token', signal });
  if (!res.ok) return res;
  const body = asObject(res.body) ?? {};
  const id = asString(body.id);
  const username = asString(body.username);
  if (!id || !username) return failure('platform_unavailable', 'Mastodon answered verify_credentials without an id or username');
  const me: MastodonIdentity = { id, username };
  const displayName = asString(body.display_name);
  if (displayName) me.displayName = displayName;
  const avatar = asString(body.avatar);
  if (avatar) me.avatarUrl = avatar;
  return { ok: true, me };
}

/** POST /oauth/revoke with Herald's app on the account's instance. */
export async function revokeToken(deps: AdapterDeps, account: AccountCredentials): Promise<{ ok: true; revoked: boolean } | PlatformFailure> {
  const instance = instanceOf(account);
  if (isFailure(instance)) return { ok: true, revoked: false };
  // Without Herald's app there (an account whose app record is gone) there is nothing to revoke with.
  if (!account.server) return { ok: true, revoked: false };
  const res = await callInstance(deps, {
    method: 'POST',
    instance,
    path: '/oauth/revoke',
    body: { form: { client_id: account.server.clientId, client_secret: account.server.clientSecret, token: account.accessToken } },
    label: 'Mastodon refused to revoke the token',
  });
  return res.ok ? { ok: true, revoked: true } : res;
}
