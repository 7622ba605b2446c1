// Token care: tokens are sealed at rest (bound to their row and column), opened only to call a platform,
// refreshed ahead of expiry and once after an auth failure. When a refresh fails the account becomes
// needs_reconnect and account.disconnected is announced.
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { AccountRow, Database } from '../db/schema.ts';
import type { Writer } from '../db/writer.ts';
import type { Clock } from '../lib/clock.ts';
import { SecretBoxError, type SecretBox } from '../lib/crypto.ts';
import { fromJson } from '../lib/json.ts';
import { failure, type AccountCredentials, type AccountMeta, type PlatformAdapter, type PlatformFailure, type TokenGrant } from '../platforms/types.ts';
import type { Platform } from '../platforms/registry.ts';
import { accountDisconnected } from '../events/catalog.ts';
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
  db: Kysely<Database>;
  write: Writer['write'];
  box: SecretBox;
  clock: Clock;
  log: Logger;
  adapters: Record<Platform, PlatformAdapter>;
  outbox: Outbox;
  onRefreshFailure?(platform: Platform): void;
}

export function createCredentialsService(deps: CredentialsDeps) {
  const { db, write, box, clock, log, adapters, outbox } = deps;
  // One refresh per account at a time in this process; other processes are handled by re-reading.
  const refreshing = new Map<string, Promise<Credentials>>();

  async function loadRow(rowId: string) {
    return db.selectFrom('accounts').selectAll().where('id', '=', rowId).executeTakeFirst();
  }

  async function markNeedsReconnect(row: AccountRow, reason: 'token_expired' | 'token_revoked', message: string) {
    await write(async (trx) => {
      const updated = await trx
        .updateTable('accounts')
        .set({ status: 'needs_reconnect', updated_at: clock.now() })
        .where('id', '=', row.id)
        .where('access_token', '=', row.access_token)
        .where('status', '=', 'active')
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 1) {
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

  async function doRefresh(row: AccountRow): Promise<Credentials> {
    const platform = row.platform as Platform;
    const opened = tryOpenCredentials(box, row);
    if (!opened.ok) return opened;
    const result = await adapters[platform].refresh(opened.creds);
    if (result.ok) {
      const sealed = sealGrant(box, row.id, result.grant, row.refresh_token);
      // Fenced on the token refreshed: a reconnect, a disconnect or another process's refresh in the
      // meantime wins, and its state is what is used.
      const updated = await write((trx) =>
        trx
          .updateTable('accounts')
          .set({ ...sealed, status: 'active', updated_at: clock.now() })
          .where('id', '=', row.id)
          .where('access_token', '=', row.access_token)
          .executeTakeFirst(),
      );
      const latest = await loadRow(row.id);
      if (latest && (Number(updated.numUpdatedRows) === 1 || latest.status === 'active')) return tryOpenCredentials(box, latest);
      return gone(row);
    }
    deps.onRefreshFailure?.(platform);
    // Another process may have refreshed first (rotating refresh tokens then refuse ours): use its tokens.
    const latest = await loadRow(row.id);
    if (latest && latest.access_token !== row.access_token && latest.status === 'active') return tryOpenCredentials(box, latest);
    if (result.category === 'auth_expired' || result.category === 'permission_missing') {
      if (latest) await markNeedsReconnect(latest, result.category === 'auth_expired' ? 'token_expired' : 'token_revoked', result.message);
      return { ok: false, failure: result, disconnected: true };
    }
    return { ok: false, failure: result, disconnected: false };
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
    /** Credentials ready to use, refreshed first when they expire soon. */
    async forAccount(row: AccountRow): Promise<Credentials> {
      if (row.status !== 'active') return gone(row);
      if (needsRefreshAhead(row)) {
        const refreshed = await refreshRow(row);
        // A refresh that failed transiently leaves the old (still valid) token usable.
        if (refreshed.ok || refreshed.disconnected || refreshed.unreadable) return refreshed;
      }
      return tryOpenCredentials(box, row);
    },

    /** After the platform said the token is bad: one refresh. */
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
          .map(([platform, adapter]) =>
            db
              .selectFrom('accounts')
              .selectAll()
              .where('platform', '=', platform)
              .where('status', '=', 'active')
              .where('token_expires_at', '<', clock.now() + adapter.info.refreshAheadMs!)
              .orderBy('token_expires_at')
              .limit(limit)
              .execute(),
          ),
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

    /** Stores facts the platform reported (subscription type, creator options). */
    async updateMeta(row: AccountRow, meta: AccountMeta): Promise<void> {
      const merged = { ...fromJson<AccountMeta>(row.meta, {}), ...meta };
      await write((trx) => trx.updateTable('accounts').set({ meta: JSON.stringify(merged), updated_at: clock.now() }).where('id', '=', row.id).execute());
    },
  };
}

export type CredentialsService = ReturnType<typeof createCredentialsService>;
