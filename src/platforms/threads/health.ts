// Token inspection (debug_token) and the publishing quota (threads_publishing_limit).
import type { AdapterDeps } from '../deps.ts';
import { graphOk } from '../meta/graph-errors.ts';
import { failure, type AccountCredentials, type HealthReport, type Outcome, type PlatformFailure } from '../types.ts';
import { bodyOf, numberField, type ThreadsApi } from './api.ts';
import { threadsFailure } from './errors.ts';
import { THREADS_LIMITS } from './info.ts';

export type TokenInspection = Outcome<{ valid: boolean; scopes: string[]; expiresAt?: number | null }>;

/** Meta's sample passes the user's own token as both access_token and input_token. */
export async function inspectToken(deps: AdapterDeps, api: ThreadsApi, token: string): Promise<TokenInspection> {
  const res = await api.get('debug_token', token, { input_token: token });
  if (!graphOk(res)) return threadsFailure(res, deps.clock.now(), 'Threads debug_token');
  const data = bodyOf(res).data;
  if (!data || typeof data !== 'object') return failure('platform_unavailable', 'Threads debug_token answered without data', { httpStatus: res.status });
  const d = data as Record<string, unknown>;
  const scopes = Array.isArray(d.scopes) ? d.scopes.filter((s): s is string => typeof s === 'string') : [];
  const expires = numberField(d.expires_at);
  // expires_at 0 is Graph's way of saying "never".
  const expiresAt = expires === undefined ? undefined : expires === 0 ? null : expires * 1000;
  return { ok: true, valid: d.is_valid === true, scopes, expiresAt };
}

export interface Quota {
  posts?: { used: number; total: number; windowSeconds: number };
  replies?: { used: number; total: number; windowSeconds: number };
}

function readUsage(used: unknown, config: unknown, fallbackTotal: number): { used: number; total: number; windowSeconds: number } | undefined {
  const u = numberField(used);
  if (u === undefined) return undefined;
  const c = config && typeof config === 'object' ? (config as Record<string, unknown>) : {};
  return { used: u, total: numberField(c.quota_total) ?? fallbackTotal, windowSeconds: numberField(c.quota_duration) ?? 86_400 };
}

/** Reads post and/or reply quota; reply fields need threads_manage_replies, so they are asked for only when needed. */
export async function readQuota(
  deps: AdapterDeps,
  api: ThreadsApi,
  account: { accountId: string; accessToken: string },
  want: { posts: boolean; replies: boolean },
  signal?: AbortSignal,
): Promise<Outcome<{ quota: Quota }>> {
  const fields = [...(want.posts ? ['quota_usage', 'config'] : []), ...(want.replies ? ['reply_quota_usage', 'reply_config'] : [])];
  const res = await api.get(`${account.accountId}/threads_publishing_limit`, account.accessToken, { fields: fields.join(',') }, signal);
  if (!graphOk(res)) return threadsFailure(res, deps.clock.now(), 'Threads publishing limit');
  const list = bodyOf(res).data;
  const row = Array.isArray(list) && list[0] && typeof list[0] === 'object' ? (list[0] as Record<string, unknown>) : {};
  return {
    ok: true,
    quota: {
      posts: want.posts ? readUsage(row.quota_usage, row.config, THREADS_LIMITS.postsPerDay) : undefined,
      replies: want.replies ? readUsage(row.reply_quota_usage, row.reply_config, THREADS_LIMITS.repliesPerDay) : undefined,
    },
  };
}

export async function threadsHealth(deps: AdapterDeps, api: ThreadsApi, account: AccountCredentials): Promise<Outcome<HealthReport>> {
  const inspected = await inspectToken(deps, api, account.accessToken);
  if (!inspected.ok) return inspected;
  if (!inspected.valid) return failure('auth_expired', 'the Threads token is no longer valid; reconnect the account');
  const report: HealthReport = { permissions: inspected.scopes, expiresAt: inspected.expiresAt };
  const quota = await readQuota(deps, api, account, { posts: true, replies: false });
  if (quota.ok && quota.quota.posts) report.quota = { used: quota.quota.posts.used, total: quota.quota.posts.total };
  else if (!quota.ok && isFatal(quota)) return quota;
  return { ok: true, ...report };
}

// A quota that cannot be read is no reason to call the account unhealthy, unless the token is the cause.
function isFatal(f: PlatformFailure): boolean {
  return f.category === 'auth_expired';
}
