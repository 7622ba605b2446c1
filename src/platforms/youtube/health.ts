// Health: the token's granted scopes and expiry from tokeninfo (no API quota), the channel (its
// uploads playlist and verification state go to the account's meta), and the daily upload quota.
//
// The YouTube Data API has no call that reports quota use, and Google counts it per Cloud project, for
// every channel Herald publishes to. Herald reports two things it can know: a quotaExceeded answer seen
// by this process since the last reset (the quota is then fully used), else this channel's uploads since
// midnight Pacific, read from its uploads playlist (a lower bound of the project's use).
import type { AdapterDeps } from '../deps.ts';
import type { AccountCredentials, HealthReport, Outcome } from '../types.ts';
import { isFailure } from './client.ts';
import { channelMeta, fetchChannel } from './identity.ts';
import { QUOTA } from './info.ts';
import { tokenInfo } from './oauth.ts';
import { quotaDayStart } from './quota.ts';
import { uploadsSince } from './uploads.ts';

/** What this process learnt from quotaExceeded answers: the project's quota is used up until then. */
export interface QuotaWatch {
  exhaustedUntil: number;
}

export async function checkHealth(deps: AdapterDeps, account: AccountCredentials, watch: QuotaWatch): Promise<Outcome<HealthReport>> {
  const info = await tokenInfo(deps, account.accessToken);
  if (isFailure(info)) return info;
  const channel = await fetchChannel(deps, account.accessToken);
  if (isFailure(channel)) return channel;
  const meta = channelMeta(channel.channel);
  const report: HealthReport = { permissions: info.info.scopes, expiresAt: info.info.expiresAt ?? account.expiresAt, meta };
  const now = deps.clock.now();
  if (watch.exhaustedUntil > now) {
    report.quota = { used: QUOTA.dailyUploads, total: QUOTA.dailyUploads };
  } else {
    const today = await uploadsSince(deps, { ...account, meta: { ...account.meta, ...meta } }, quotaDayStart(now), { maxPages: 2 });
    // Without the uploads (a missing scope, a hiccup) the quota is simply not reported.
    if (!isFailure(today)) report.quota = { used: Math.min(today.items.length, QUOTA.dailyUploads), total: QUOTA.dailyUploads };
  }
  return { ok: true, ...report };
}
