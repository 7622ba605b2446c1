// Accounts of a key: list, disconnect (revoke at the platform where possible, then forget the
// credentials), and a live health check of every account in parallel with a bounded time.
import type { Logger } from 'pino';
import type { AccountRow } from '../db/schema.ts';
import type { Writer } from '../db/writer.ts';
import { errors } from '../contract/errors.ts';
import type { Clock } from '../lib/clock.ts';
import { fromJson } from '../lib/json.ts';
import type { HealthReport, Outcome, PlatformAdapter } from '../platforms/types.ts';
import type { Platform } from '../platforms/registry.ts';
import { accountDisconnected } from '../events/catalog.ts';
import type { Outbox } from '../webhooks/outbox.ts';
import type { AccountsDal } from './accounts-dal.ts';
import type { CredentialsService } from './credentials.ts';
import { expiresUnrenewed } from './renewal.ts';

export interface Recommendation {
  code: string;
  message: string;
}

export interface HealthEntry {
  platform: Platform;
  accountId: string;
  username: string;
  health: 'healthy' | 'warning' | 'error';
  tokenValid: boolean;
  tokenExpiresAt: string | null;
  permissions: string[];
  missingPermissions: string[];
  recommendations: Recommendation[];
}

export interface AccountsServiceDeps {
  write: Writer['write'];
  clock: Clock;
  log: Logger;
  dal: AccountsDal;
  outbox: Outbox;
  adapters: Record<Platform, PlatformAdapter>;
  credentials: CredentialsService;
  healthTimeoutMs: number;
  /** A token that ends within this and cannot be renewed shows as a warning (HERALD_EXPIRY_WARNING_DAYS). */
  expiryWarningMs: number;
}

const iso = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : new Date(ms).toISOString());

export function present(row: AccountRow) {
  return {
    platform: row.platform as Platform,
    accountId: row.account_id,
    username: row.username,
    displayName: row.display_name,
    avatarUrl: row.avatar_url,
    connectedAt: new Date(row.connected_at).toISOString(),
    status: row.status,
  };
}

function timeout<T>(ms: number, value: T): { promise: Promise<T>; cancel(): void } {
  let timer: NodeJS.Timeout;
  return {
    promise: new Promise<T>((resolve) => {
      timer = setTimeout(() => resolve(value), ms);
    }),
    cancel: () => clearTimeout(timer),
  };
}

export function createAccountsService(deps: AccountsServiceDeps) {
  const { write, clock, log, dal, outbox, adapters, credentials } = deps;

  async function checkOne(row: AccountRow): Promise<HealthEntry> {
    const platform = row.platform as Platform;
    const adapter = adapters[platform];
    const base = { platform, accountId: row.account_id, username: row.username };
    let current = row;
    // The token cannot be used: the only remedy is connecting the account again.
    const unusable = (message: string) => ({
      ...base,
      health: 'error' as const,
      tokenValid: false,
      tokenExpiresAt: iso(current.token_expires_at),
      permissions: fromJson<string[]>(current.scopes, []),
      missingPermissions: [],
      recommendations: [{ code: 'RECONNECT', message }],
    });
    const opened = await credentials.open(current);
    if (!opened.ok) return unusable(opened.failure.message);
    let result: Outcome<HealthReport> = await adapter.health(opened.creds);
    if (!result.ok && result.category === 'auth_expired') {
      const refreshed = await credentials.refreshAfterAuthFailure(current);
      if (refreshed.ok) {
        current = refreshed.row;
        result = await adapter.health(refreshed.creds);
      }
    }
    if (!result.ok) {
      if (result.category === 'auth_expired' || result.category === 'permission_missing') {
        return unusable(`The token no longer works (${result.message}). Connect the account again with GET /v1/connect/${platform}.`);
      }
      return {
        ...base,
        health: 'warning',
        tokenValid: current.status === 'active',
        tokenExpiresAt: iso(current.token_expires_at),
        permissions: fromJson<string[]>(current.scopes, []),
        missingPermissions: [],
        recommendations: [{ code: 'PLATFORM_UNREACHABLE', message: `Could not check with ${adapter.info.displayName}: ${result.message}` }],
      };
    }
    if (result.meta) await credentials.updateMeta(current, result.meta);
    if (current.status !== 'active') {
      await write((trx) => dal.markActive(trx, current.id, clock.now()));
    }
    const expiresAt = result.expiresAt === undefined ? current.token_expires_at : result.expiresAt;
    const missing = adapter.info.requiredScopes.filter((s) => !result.permissions.includes(s));
    const recommendations: Recommendation[] = [];
    let health: HealthEntry['health'] = 'healthy';
    if (missing.length > 0) {
      health = 'error';
      recommendations.push({ code: 'GRANT_PERMISSION', message: `Publishing needs ${missing.join(', ')}. Connect again and grant ${missing.length > 1 ? 'them' : 'it'}.` });
    }
    if (expiresUnrenewed(adapter.info, { refresh_token: current.refresh_token, token_expires_at: expiresAt }, clock.now(), deps.expiryWarningMs)) {
      if (health === 'healthy') health = 'warning';
      recommendations.push({ code: 'RECONNECT', message: `The token expires at ${iso(expiresAt)} and cannot be renewed automatically; connect the account again before then.` });
    }
    if (result.quota && result.quota.total > 0 && result.quota.used / result.quota.total >= 0.8) {
      if (health === 'healthy') health = 'warning';
      recommendations.push({ code: 'QUOTA_NEARLY_USED', message: `${result.quota.used} of ${result.quota.total} posts of the publishing quota are used.` });
    }
    return {
      ...base,
      health,
      tokenValid: true,
      tokenExpiresAt: iso(expiresAt),
      permissions: result.permissions,
      missingPermissions: missing,
      recommendations,
    };
  }

  /** True when another account of this key rides on the same platform grant (see PlatformInfo.grantKey). */
  async function grantStillUsed(row: AccountRow): Promise<boolean> {
    const keyOf = (r: AccountRow) => adapters[r.platform as Platform].info.grantKey?.(fromJson(r.meta, {}));
    const key = keyOf(row);
    if (!key) return false;
    const others = await dal.list(row.api_key_id);
    return others.some((o) => o.id !== row.id && keyOf(o) === key);
  }

  return {
    async list(apiKeyId: string, platform?: Platform) {
      return { accounts: (await dal.list(apiKeyId, platform)).map(present) };
    },

    async disconnect(apiKeyId: string, platform: Platform, accountId: string): Promise<{ deleted: true; revoked: boolean }> {
      const row = await dal.find(apiKeyId, platform, accountId);
      if (!row) throw errors.notFound(`no connected ${platform} account ${accountId}`);
      const adapter = adapters[platform];
      let revoked = false;
      const opened = await credentials.open(row);
      // Tokens that cannot be opened (another encryption key) cannot be revoked; the account is still forgotten.
      if (opened.ok && adapter.info.supportsRevoke && !(await grantStillUsed(row))) {
        const r = await adapter.revoke(opened.creds).catch((err: unknown) => {
          log.warn({ err, platform }, 'revoke failed');
          return null;
        });
        revoked = Boolean(r?.ok && r.revoked);
      }
      await write(async (trx) => {
        await dal.remove(trx, row.id);
        await outbox.record(trx, apiKeyId, [
          accountDisconnected({ platform, accountId: row.account_id, username: row.username }, 'user'),
        ]);
      });
      return { deleted: true, revoked };
    },

    async health(apiKeyId: string): Promise<{ accounts: HealthEntry[] }> {
      const rows = await dal.list(apiKeyId);
      const entries = await Promise.all(
        rows.map(async (row) => {
          const fallback = (message: string): HealthEntry => ({
            platform: row.platform as Platform,
            accountId: row.account_id,
            username: row.username,
            health: 'warning',
            tokenValid: row.status === 'active',
            tokenExpiresAt: iso(row.token_expires_at),
            permissions: fromJson<string[]>(row.scopes, []),
            missingPermissions: [],
            recommendations: [{ code: 'PLATFORM_UNREACHABLE', message }],
          });
          const limit = timeout(deps.healthTimeoutMs, fallback(`No answer within ${deps.healthTimeoutMs} ms.`));
          try {
            return await Promise.race([
              checkOne(row).catch((err: unknown) => {
                log.error({ err, platform: row.platform }, 'health check failed');
                return fallback('The check failed inside Herald; the logs name the cause.');
              }),
              limit.promise,
            ]);
          } finally {
            limit.cancel();
          }
        }),
      );
      return { accounts: entries };
    },
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
