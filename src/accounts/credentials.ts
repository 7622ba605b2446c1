// Token care: tokens are sealed at rest (bound to their row and column), opened only to call a platform,
// refreshed ahead of expiry and once after an auth failure. When a refresh fails the account becomes
// needs_reconnect and account.disconnected is announced.
//
// One refresh per account across every process: the refresher takes a lease on the account row first
// (accounts.refresh_lease_*); a process that needs new tokens while another holds the lease waits for
// them instead of refreshing too. With rotating refresh tokens, a second refresh would be refused and
// would wrongly disconnect the account.
import type { Logger } from 'pino';
import type { AccountRow } from '../db/schema.ts';
import type { Writer } from '../db/writer.ts';
import type { Clock } from '../lib/clock.ts';
import { SecretBoxError, type SecretBox } from '../lib/crypto.ts';
import { fromJson } from '../lib/json.ts';
import { failure, type AccountCredentials, type AccountMeta, type PlatformAdapter, type PlatformFailure, type ServerApp, type TokenGrant } from '../platforms/types.ts';
import { newAttemptId } from '../lib/ids.ts';
import type { CredentialsDal } from './credentials-dal.ts';
import type { Platform } from '../platforms/registry.ts';
import { accountDisconnected, accountExpiring } from '../events/catalog.ts';
import { expiresUnrenewed } from './renewal.ts';
import type { Outbox } from '../webhooks/outbox.ts';

export const sealContext = (rowId: string, column: 'access_token' | 'refresh_token') => `accounts:${rowId}:${column}`;

export function sealGrant(box: SecretBox, rowId: string, grant: TokenGrant, keepRefresh: string | null) {
  return {
    access_token: box.seal(grant.accessToken, sealContext(rowId, 'access_token')),
    // A grant without a new refresh token keeps the stored one (API.md section 6).
    refresh_token: grant.refreshToken ? box.seal(grant.refreshToken, sealContext(rowId, 'refresh_token')) : keepRefresh,
    token_expires_at: grant.expiresAt,
    ...(grant.refreshExpiresAt !== undefined ? { refresh_expires_at: grant.refreshExpiresAt } : {}),
    scopes: JSON.stringify(grant.scopes),
  };
}

export function openCredentials(box: SecretBox, row: AccountRow): AccountCredentials {
  return {
    accountId: row.account_id,
    username: row.username,
    accessToken: box.open(row.access_token, sealContext(row.id, 'access_token')),
    refreshToken: row.refresh_token ? box.open(row.refresh_token, sealContext(row.id, 'refresh_token')) : null,
    expiresAt: row.token_expires_at,
    scopes: fromJson<string[]>(row.scopes, []),
    meta: fromJson<AccountMeta>(row.meta, {}),
  };
}

export type Credentials =
  | { ok: true; row: AccountRow; creds: AccountCredentials }
  /**
   * disconnected: the account must be connected again. unreadable: the stored token cannot be opened
   * with this encryption key (an operator problem, not the platform's; nothing was sent).
   */
  | { ok: false; failure: PlatformFailure; disconnected: boolean; unreadable?: true };

/** Opens an account's tokens, or says they cannot be opened with the configured key. */
export function tryOpenCredentials(box: SecretBox, row: AccountRow): Credentials {
  try {
    return { ok: true, row, creds: openCredentials(box, row) };
  } catch (err) {
    if (!(err instanceof SecretBoxError)) throw err;
    return {
      ok: false,
      disconnected: false,
      unreadable: true,
      failure: failure(
        'auth_expired',
        `Herald cannot decrypt the stored ${row.platform} token of ${row.username}: HERALD_ENCRYPTION_KEY differs from the key it was sealed with. Restore that key, or connect the account again.`,
      ),
    };
  }
}

export interface CredentialsDeps {
  dal: CredentialsDal;
  write: Writer['write'];
  box: SecretBox;
  clock: Clock;
  log: Logger;
  adapters: Record<Platform, PlatformAdapter>;
  outbox: Outbox;
  /** Herald's app on a user-named server, by the id an account's meta gives (`serverAppId`). */
  serverApp?(id: string): Promise<ServerApp | null>;
  /** How long a refresh may hold its lease: longer than the slowest refresh call. */
  refreshLeaseMs: number;
  /** How often a process waiting for another's refresh looks again. */
  refreshWaitPollMs?: number;
  onRefreshFailure?(platform: Platform): void;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createCredentialsService(deps: CredentialsDeps) {
  const { dal, write, box, clock, log, adapters, outbox, refreshLeaseMs } = deps;
  const waitPollMs = deps.refreshWaitPollMs ?? 100;
  // One refresh per account at a time in this process (shared by its callers); the lease covers others.
  const refreshing = new Map<string, Promise<Credentials>>();

  /** Opens an account's tokens and attaches Herald's app on its server, when it has one. */
  async function open(row: AccountRow): Promise<Credentials> {
    const opened = tryOpenCredentials(box, row);
    if (!opened.ok) return opened;
    const appId = opened.creds.meta.serverAppId;
    if (typeof appId === 'string' && deps.serverApp) {
      const server = await deps.serverApp(appId);
      if (server) opened.creds.server = server;
    }
    return opened;
  }

  async function markNeedsReconnect(row: AccountRow, reason: 'token_expired' | 'token_revoked', message: string) {
    await write(async (trx) => {
      if (await dal.markNeedsReconnect(trx, row.id, row.access_token, clock.now())) {
        await outbox.record(trx, row.api_key_id, [
          accountDisconnected({ platform: row.platform, accountId: row.account_id, username: row.username }, reason),
        ]);
      }
    });
    log.warn({ platform: row.platform, accountId: row.account_id, reason, message }, 'account needs reconnecting');
  }

  function gone(row: AccountRow): Credentials {
    return {
      ok: false,
      disconnected: true,
      failure: { ok: false, category: 'auth_expired', message: `the ${row.platform} account ${row.username} must be reconnected` },
    };
  }

  /** The account as it is now, if it changed from `row` (new tokens, or no longer active). */
  function changed(row: AccountRow, latest: AccountRow | undefined): Promise<Credentials> | null {
    if (!latest || latest.status !== 'active') return Promise.resolve(gone(row));
    if (latest.access_token !== row.access_token) return open(latest);
    return null;
  }

  /** Refreshes holding the lease; nobody else refreshes this account meanwhile. */
  async function refreshHolding(row: AccountRow, leaseId: string): Promise<Credentials> {
    const platform = row.platform as Platform;
    const opened = await open(row);
    if (!opened.ok) {
      await write((trx) => dal.releaseLease(trx, row.id, leaseId));
      return opened;
    }
    let result;
    try {
      result = await adapters[platform].refresh(opened.creds);
    } catch (err) {
      await write((trx) => dal.releaseLease(trx, row.id, leaseId));
      throw err;
    }
    if (result.ok) {
      const sealed = sealGrant(box, row.id, result.grant, row.refresh_token);
      // Fenced on the lease: a reconnect or disconnect in the meantime cleared it, and its state wins.
      await write((trx) => dal.saveRefreshed(trx, row.id, leaseId, sealed, clock.now()));
      const latest = await dal.load(row.id);
      return latest && latest.status === 'active' ? open(latest) : gone(row);
    }
    deps.onRefreshFailure?.(platform);
    await write((trx) => dal.releaseLease(trx, row.id, leaseId));
    if (result.category === 'auth_expired' || result.category === 'permission_missing') {
      await markNeedsReconnect(row, result.category === 'auth_expired' ? 'token_expired' : 'token_revoked', result.message);
      const latest = await dal.load(row.id);
      // Connected again while refreshing: the new connection's tokens are the answer.
      if (latest && latest.status === 'active' && latest.access_token !== row.access_token) return open(latest);
      return { ok: false, failure: result, disconnected: true };
    }
    return { ok: false, failure: result, disconnected: false };
  }

  async function doRefresh(row: AccountRow): Promise<Credentials> {
    for (;;) {
      const latest = await dal.load(row.id);
      const moved = changed(row, latest);
      if (moved) return moved;
      const now = clock.now();
      const leaseId = newAttemptId();
      if (await write((trx) => dal.takeLease(trx, row.id, row.access_token, leaseId, now, now + refreshLeaseMs))) {
        return refreshHolding(latest!, leaseId);
      }
      // Another process is refreshing: wait for its tokens. If it dies, its lease runs out and the next
      // pass of this loop takes it over.
      await sleep(waitPollMs);
    }
  }

  function refreshRow(row: AccountRow): Promise<Credentials> {
    const running = refreshing.get(row.id);
    if (running) return running;
    const p = doRefresh(row).finally(() => refreshing.delete(row.id));
    refreshing.set(row.id, p);
    return p;
  }

  function needsRefreshAhead(row: AccountRow): boolean {
    const ahead = adapters[row.platform as Platform].info.refreshAheadMs;
    return ahead !== null && row.token_expires_at !== null && row.token_expires_at - clock.now() < ahead;
  }

  return {
    /** Opens an account's credentials as they are (no refresh). */
    open,

    /** Credentials ready to use, refreshed first when they expire soon. */
    async forAccount(row: AccountRow): Promise<Credentials> {
      if (row.status !== 'active') return gone(row);
      if (needsRefreshAhead(row)) {
        const refreshed = await refreshRow(row);
        // A refresh that failed transiently leaves the old (still valid) token usable.
        if (refreshed.ok || refreshed.disconnected || refreshed.unreadable) return refreshed;
      }
      return open(row);
    },

    /** After the platform said the token is bad: one refresh (or the one another process is making). */
    refreshAfterAuthFailure(row: AccountRow): Promise<Credentials> {
      return refreshRow(row);
    },

    /**
     * Refreshes, ahead of expiry, the tokens of accounts that are not publishing right now (a 60-day
     * Threads or Instagram token left alone would otherwise die). Returns how many were refreshed.
     */
    async refreshDue(limit = 200): Promise<number> {
      // One query per platform with its own horizon, so accounts whose platform refreshes late (X, 2 h
      // tokens) never crowd out those that refresh days ahead (Threads, Instagram).
      const due = await Promise.all(
        Object.entries(adapters)
          .filter(([, adapter]) => adapter.info.refreshAheadMs !== null)
          .map(([platform, adapter]) => dal.expiringBefore(platform, clock.now() + adapter.info.refreshAheadMs!, limit)),
      );
      let refreshed = 0;
      for (const row of due.flat()) {
        const r = await refreshRow(row).catch((err: unknown) => {
          log.warn({ err, platform: row.platform }, 'token refresh ahead of expiry failed');
          return null;
        });
        if (r?.ok) refreshed++;
      }
      return refreshed;
    },

    /**
     * Announces account.expiring, once per expiry and across processes, for tokens that end within the
     * window and cannot be renewed without the user. Returns how many were announced.
     */
    async announceExpiring(windowMs: number, limit = 500): Promise<number> {
      const now = clock.now();
      let announced = 0;
      for (const row of await dal.expiringUnannounced(now + windowMs, limit)) {
        const info = adapters[row.platform as Platform]?.info;
        if (!info || !expiresUnrenewed(info, row, now, windowMs) || row.token_expires_at! < now) continue;
        const done = await write(async (trx) => {
          if (!(await dal.markExpiryAnnounced(trx, row.id, row.token_expires_at!))) return false;
          await outbox.record(trx, row.api_key_id, [accountExpiring({ platform: row.platform, accountId: row.account_id, username: row.username }, row.token_expires_at!)]);
          return true;
        });
        if (done) announced++;
      }
      return announced;
    },

    /** Stores facts the platform reported (subscription type, creator options). */
    async updateMeta(row: AccountRow, meta: AccountMeta): Promise<void> {
      const merged = { ...fromJson<AccountMeta>(row.meta, {}), ...meta };
      await write((trx) => dal.setMeta(trx, row.id, JSON.stringify(merged), clock.now()));
    },
  };
}

export type CredentialsService = ReturnType<typeof createCredentialsService>;
