// Facebook Login, shared by the Facebook Pages and Instagram (Facebook Login path) adapters: the consent
// dialog, code → short-lived → long-lived user token, token inspection and removal of the app grant.
import type { AdapterDeps } from '../deps.ts';
import { failure, type Outcome } from '../types.ts';
import { appToken, list, obj, str, type Graph, type GraphBody } from './graph.ts';

/** Graph leaves expires_in out of some answers; long-lived user tokens live about 60 days. */
export const LONG_LIVED_FALLBACK_MS = 60 * 24 * 60 * 60_000;

export function dialogUrl(deps: AdapterDeps, scopes: readonly string[], input: { state: string; redirectUri: string }): string {
  const url = new URL(deps.app.authUrl);
  url.searchParams.set('client_id', deps.app.clientId);
  url.searchParams.set('redirect_uri', input.redirectUri);
  url.searchParams.set('state', input.state);
  url.searchParams.set('scope', scopes.join(','));
  url.searchParams.set('response_type', 'code');
  return url.toString();
}

export interface UserToken {
  accessToken: string;
  /** Epoch ms, or null when Graph says the token does not expire. */
  expiresAt: number | null;
}

function readToken(deps: AdapterDeps, body: GraphBody, fallbackMs: number | null): UserToken | undefined {
  const accessToken = str(body, 'access_token');
  if (!accessToken) return undefined;
  const expiresIn = Number(body.expires_in);
  const now = deps.clock.now();
  const expiresAt = Number.isFinite(expiresIn) && expiresIn > 0 ? now + expiresIn * 1000 : fallbackMs === null ? null : now + fallbackMs;
  return { accessToken, expiresAt };
}

/** `grant_type=fb_exchange_token`: a valid user token in, a long-lived (about 60 days) one out. */
export async function exchangeForLongLived(deps: AdapterDeps, graph: Graph, token: string, label: string): Promise<Outcome<{ token: UserToken }>> {
  const res = await graph.get(
    '/oauth/access_token',
    null,
    { grant_type: 'fb_exchange_token', client_id: deps.app.clientId, client_secret: deps.app.clientSecret, fb_exchange_token: token },
    { label },
  );
  if (!res.ok) return res.failure;
  const out = readToken(deps, res.body, LONG_LIVED_FALLBACK_MS);
  return out ? { ok: true, token: out } : failure('platform_unavailable', `${label}: the answer carried no access_token`);
}

/**
 * Redeems the authorization code and exchanges the short-lived token for a long-lived one. A refused
 * code comes back as auth_expired: the grant the user gave cannot be used.
 */
export async function redeemCode(
  deps: AdapterDeps,
  graph: Graph,
  input: { code: string; redirectUri: string },
  platformName: string,
): Promise<Outcome<{ token: UserToken }>> {
  const label = `${platformName} code exchange`;
  const res = await graph.get(
    '/oauth/access_token',
    null,
    { client_id: deps.app.clientId, client_secret: deps.app.clientSecret, redirect_uri: input.redirectUri, code: input.code },
    { label },
  );
  if (!res.ok) {
    // 100 (invalid, used or expired code; redirect_uri mismatch) and 190 mean the code itself was refused.
    // Anything else (a wrong app secret, an outage) keeps its own category.
    const f = res.failure;
    const refused = f.httpStatus !== 404 && f.platformCode !== undefined && /^(100|190)(\/|$)/.test(f.platformCode);
    return refused ? { ...f, category: 'auth_expired' } : f;
  }
  const short = str(res.body, 'access_token');
  if (!short) return failure('platform_unavailable', `${label}: the answer carried no access_token`);
  return exchangeForLongLived(deps, graph, short, `${platformName} long-lived token exchange`);
}

export async function fetchUserId(graph: Graph, token: string, label: string): Promise<Outcome<{ userId: string; name?: string }>> {
  const res = await graph.get('/me', token, { fields: 'id,name' }, { label });
  if (!res.ok) return res.failure;
  const userId = str(res.body, 'id');
  if (!userId) return failure('platform_unavailable', `${label}: the answer carried no user id`);
  return { ok: true, userId, name: str(res.body, 'name') };
}

/** Permissions the user granted (status "granted"), from /me/permissions. */
export async function grantedPermissions(graph: Graph, token: string, label: string): Promise<Outcome<{ scopes: string[] }>> {
  const res = await graph.get('/me/permissions', token, {}, { label });
  if (!res.ok) return res.failure;
  const scopes = list(res.body)
    .filter((p) => p.status === 'granted' && typeof p.permission === 'string')
    .map((p) => p.permission as string);
  return { ok: true, scopes };
}

export interface TokenInspection {
  valid: boolean;
  scopes: string[];
  /** Epoch ms; null when the token does not expire (debug_token reports expires_at 0). */
  expiresAt: number | null;
  dataAccessExpiresAt?: number;
  userId?: string;
  /** Graph's reason when the token is not valid. */
  reason?: string;
  reasonCode?: string;
}

/** `debug_token` with the app token: validity, scopes and expiry of any token the app issued. */
export async function inspectToken(deps: AdapterDeps, graph: Graph, token: string, label: string): Promise<Outcome<{ inspection: TokenInspection }>> {
  const res = await graph.get('/debug_token', appToken(deps), { input_token: token }, { label });
  if (!res.ok) return res.failure;
  const data = obj(res.body, 'data') ?? {};
  const expires = Number(data.expires_at);
  const dataAccess = Number(data.data_access_expires_at);
  const err = obj(data, 'error');
  const inspection: TokenInspection = {
    valid: data.is_valid === true,
    scopes: Array.isArray(data.scopes) ? data.scopes.filter((s): s is string => typeof s === 'string') : [],
    expiresAt: Number.isFinite(expires) && expires > 0 ? expires * 1000 : null,
    userId: str(data, 'user_id'),
  };
  if (Number.isFinite(dataAccess) && dataAccess > 0) inspection.dataAccessExpiresAt = dataAccess * 1000;
  if (err) {
    inspection.reason = typeof err.message === 'string' ? err.message : undefined;
    inspection.reasonCode = err.code !== undefined ? `${String(err.code)}${err.subcode !== undefined ? `/${String(err.subcode)}` : ''}` : undefined;
  }
  return { ok: true, inspection };
}

/**
 * Removes the app's whole grant for a Facebook user (`DELETE /{user-id}/permissions`). Graph accepts the
 * user token or the app token; the app token is the fallback when the user token is already dead.
 */
export async function revokeGrant(deps: AdapterDeps, graph: Graph, userId: string, userToken: string | null, label: string): Promise<Outcome<{ revoked: boolean }>> {
  const path = `/${encodeURIComponent(userId)}/permissions`;
  if (userToken) {
    const res = await graph.delete(path, userToken, {}, { label });
    if (res.ok) return { ok: true, revoked: res.body.success !== false };
    if (res.failure.category !== 'auth_expired') return res.failure;
  }
  const res = await graph.delete(path, appToken(deps), {}, { label });
  if (!res.ok) return res.failure;
  return { ok: true, revoked: res.body.success !== false };
}
