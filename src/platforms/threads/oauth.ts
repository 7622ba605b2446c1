// Threads OAuth: the authorization window (people sign in with their Instagram credentials), the code
// exchange for a one-hour token, the exchange for a 60-day token, and refreshing that token.
import type { AdapterDeps } from '../deps.ts';
import { graphOk } from '../meta/graph-errors.ts';
import { failure, type AccountCredentials, type ConnectedAccount, type Outcome, type TokenGrant } from '../types.ts';
import { bodyOf, numberField, rawField, stringField, type ThreadsApi } from './api.ts';
import { codeExchangeFailure, refreshFailure, threadsFailure } from './errors.ts';
import { THREADS_INFO, THREADS_LIMITS } from './info.ts';
import { inspectToken } from './health.ts';

export function threadsAuthorizeUrl(deps: AdapterDeps, input: { state: string; redirectUri: string }): string {
  const url = new URL(deps.app.authUrl);
  url.searchParams.set('client_id', deps.app.clientId);
  url.searchParams.set('redirect_uri', input.redirectUri);
  url.searchParams.set('scope', THREADS_INFO.scopes.join(','));
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('state', input.state);
  return url.toString();
}

interface LongLived {
  accessToken: string;
  expiresAt: number | null;
}

/** Reads {access_token, expires_in} from th_exchange_token and th_refresh_token answers. */
function readTokenAnswer(body: Record<string, unknown>, now: number): LongLived | undefined {
  const accessToken = stringField(body.access_token);
  if (!accessToken) return undefined;
  const expiresIn = numberField(body.expires_in);
  return { accessToken, expiresAt: expiresIn !== undefined ? now + expiresIn * 1000 : now + THREADS_LIMITS.longLivedTokenMs };
}

export async function threadsConnect(
  deps: AdapterDeps,
  api: ThreadsApi,
  input: { code: string; redirectUri: string },
): Promise<Outcome<{ accounts: ConnectedAccount[] }>> {
  const shortRes = await api.postRoot('oauth/access_token', {
    client_id: deps.app.clientId,
    client_secret: deps.app.clientSecret,
    code: input.code,
    grant_type: 'authorization_code',
    redirect_uri: input.redirectUri,
  });
  if (!graphOk(shortRes)) return codeExchangeFailure(shortRes, deps.clock.now());
  const shortToken = stringField(bodyOf(shortRes).access_token);
  const tokenUserId = rawField(shortRes.text, 'user_id');
  if (!shortToken) return failure('platform_unavailable', 'Threads code exchange answered without an access token', { httpStatus: shortRes.status });

  const longRes = await api.getRoot('access_token', {
    grant_type: 'th_exchange_token',
    client_secret: deps.app.clientSecret,
    access_token: shortToken,
  });
  if (!graphOk(longRes)) return threadsFailure(longRes, deps.clock.now(), 'Threads long-lived token exchange');
  const long = readTokenAnswer(bodyOf(longRes), deps.clock.now());
  if (!long) return failure('platform_unavailable', 'Threads long-lived token exchange answered without a token', { httpStatus: longRes.status });

  const meRes = await api.get('me', long.accessToken, { fields: 'id,username,name,threads_profile_picture_url' });
  if (!graphOk(meRes)) return threadsFailure(meRes, deps.clock.now(), 'Threads profile');
  const me = bodyOf(meRes);
  const accountId = rawField(meRes.text, 'id') ?? tokenUserId;
  const username = stringField(me.username);
  if (!accountId || !username) return failure('platform_unavailable', 'Threads profile answered without an id or username', { httpStatus: meRes.status });

  // The token answers carry no scopes; debug_token says what the user actually granted. If it cannot
  // be read now, assume the requested scopes: the next health check corrects them.
  const inspected = await inspectToken(deps, api, long.accessToken);
  const grant: TokenGrant = {
    accessToken: long.accessToken,
    expiresAt: inspected.ok && inspected.expiresAt !== undefined ? inspected.expiresAt : long.expiresAt,
    scopes: inspected.ok ? inspected.scopes : [...THREADS_INFO.scopes],
  };
  const account: ConnectedAccount = {
    accountId,
    username,
    displayName: stringField(me.name),
    avatarUrl: stringField(me.threads_profile_picture_url),
    grant,
    meta: {},
  };
  return { ok: true, accounts: [account] };
}

/** th_refresh_token: a new 60-day token for a still-valid long-lived one (at least 24 hours old). */
export async function threadsRefresh(deps: AdapterDeps, api: ThreadsApi, account: AccountCredentials): Promise<Outcome<{ grant: TokenGrant }>> {
  if (account.expiresAt !== null && account.expiresAt <= deps.clock.now()) {
    return failure('auth_expired', 'the Threads token has expired and can no longer be refreshed; reconnect the account');
  }
  const res = await api.getRoot('refresh_access_token', { grant_type: 'th_refresh_token', access_token: account.accessToken });
  if (!graphOk(res)) return refreshFailure(res, deps.clock.now());
  const long = readTokenAnswer(bodyOf(res), deps.clock.now());
  if (!long) return failure('platform_unavailable', 'Threads token refresh answered without a token', { httpStatus: res.status });
  return { ok: true, grant: { accessToken: long.accessToken, expiresAt: long.expiresAt, scopes: account.scopes } };
}
