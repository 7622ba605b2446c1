// Connecting accounts (API.md section 6): a single-use, expiring state bound to the key, platform and
// redirect URL (with the PKCE verifier sealed beside it), then the code exchange. Reconnecting updates
// the account in place and keeps a stored refresh token the new grant lacks.
import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../db/dialect.ts';
import type { Database } from '../db/schema.ts';
import type { Writer } from '../db/writer.ts';
import { ApiError, errors } from '../contract/errors.ts';
import type { Clock } from '../lib/clock.ts';
import { pkceChallenge, sha256Hex, type SecretBox } from '../lib/crypto.ts';
import { newId, randomToken } from '../lib/ids.ts';
import type { Caller } from '../keys/keys-service.ts';
import type { ConnectedAccount, PlatformAdapter } from '../platforms/types.ts';
import type { Platform } from '../platforms/registry.ts';
import { accountConnected, type CatalogEvent } from '../events/catalog.ts';
import type { Outbox } from '../webhooks/outbox.ts';
import { sealGrant } from './credentials.ts';

export const STATE_TTL_MS = 15 * 60_000;

export interface ConnectDeps {
  db: Kysely<Database>;
  write: Writer['write'];
  clock: Clock;
  box: SecretBox;
  outbox: Outbox;
  adapters: Record<Platform, PlatformAdapter>;
  /** Platforms that have neither credentials nor the sandbox. */
  unavailable: ReadonlySet<Platform>;
}

const stateError = () =>
  new ApiError({
    status: 400,
    code: 'OAUTH_STATE_INVALID',
    param: 'state',
    message: 'the OAuth state is unknown, already used, expired, or was issued for another platform, key or redirect URL; start again with GET /v1/connect/{platform}',
  });

function checkRedirect(url: string | undefined | null, param: string): string {
  if (!url) throw errors.missing(param, 'redirect_url is required (or set a default with `herald keys update ID --redirect-url URL`)');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw errors.invalid(param, 'redirect_url must be an absolute http(s) URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw errors.invalid(param, 'redirect_url must be an absolute http(s) URL');
  return url;
}

const verifierContext = (stateHash: string) => `oauth_states:${stateHash}:code_verifier`;

export function createConnectService(deps: ConnectDeps) {
  const { db, write, clock, box, outbox, adapters } = deps;

  function adapterFor(platform: Platform): PlatformAdapter {
    if (deps.unavailable.has(platform)) {
      throw new ApiError({
        status: 400,
        code: 'PLATFORM_NOT_CONFIGURED',
        param: 'platform',
        message: `${platform} has no app credentials configured on this Herald (and the sandbox is off)`,
      });
    }
    return adapters[platform];
  }

  return {
    /** Deletes states past their expiry, used or not: they can never complete a connection again. */
    async purgeExpired(): Promise<number> {
      const res = await write((trx) => trx.deleteFrom('oauth_states').where('expires_at', '<', clock.now()).executeTakeFirst());
      return Number(res.numDeletedRows);
    },

    async start(caller: Caller, platform: Platform, redirectUrl: string | undefined) {
      const adapter = adapterFor(platform);
      const redirect = checkRedirect(redirectUrl ?? caller.defaultRedirectUrl, 'redirect_url');
      const state = randomToken(32);
      const stateHash = sha256Hex(state);
      const verifier = adapter.info.usesPkce ? randomToken(48) : null;
      const now = clock.now();
      const row = {
        state_hash: stateHash,
        api_key_id: caller.id,
        platform,
        redirect_url: redirect,
        code_verifier: verifier ? box.seal(verifier, verifierContext(stateHash)) : null,
        created_at: now,
        expires_at: now + STATE_TTL_MS,
        used_at: null,
      };
      await write((trx) => trx.insertInto('oauth_states').values(row).execute());
      const authUrl = adapter.authorizeUrl({ state, redirectUri: redirect, ...(verifier ? { codeChallenge: pkceChallenge(verifier) } : {}) });
      return { authUrl, state };
    },

    async complete(caller: Caller, platform: Platform, body: { code: string; redirect_url?: string; state?: string }) {
      const adapter = adapterFor(platform);
      const now = clock.now();
      const redirect = body.redirect_url ?? caller.defaultRedirectUrl ?? undefined;
      if (redirect !== undefined) checkRedirect(redirect, 'redirect_url');

      let q = db
        .selectFrom('oauth_states')
        .selectAll()
        .where('api_key_id', '=', caller.id)
        .where('platform', '=', platform)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now);
      if (body.state !== undefined) q = q.where('state_hash', '=', sha256Hex(body.state));
      if (redirect !== undefined) q = q.where('redirect_url', '=', redirect);
      else if (body.state === undefined) throw errors.missing('redirect_url', 'send redirect_url (or state) so Herald can find the authorization you started');
      const stateRow = await q.orderBy('created_at', 'desc').limit(1).executeTakeFirst();
      if (!stateRow) throw stateError();
      // Single use, even when two requests race with the same state.
      const taken = await write((trx) =>
        trx.updateTable('oauth_states').set({ used_at: now }).where('state_hash', '=', stateRow.state_hash).where('used_at', 'is', null).executeTakeFirst(),
      );
      if (Number(taken.numUpdatedRows) !== 1) throw stateError();

      const codeVerifier = stateRow.code_verifier ? box.open(stateRow.code_verifier, verifierContext(stateRow.state_hash)) : undefined;
      const result = await adapter.connect({ code: body.code, redirectUri: stateRow.redirect_url, ...(codeVerifier ? { codeVerifier } : {}) });
      if (!result.ok) {
        if (result.category === 'auth_expired' || result.category === 'content_rejected') {
          throw new ApiError({ status: 400, code: 'OAUTH_CODE_INVALID', param: 'code', message: `${platform} refused the authorization code: ${result.message}` });
        }
        if (result.category === 'permission_missing') {
          // The user approved, but not enough to publish (no Page granted, a scope declined).
          throw errors.unprocessable(undefined, `${platform} connected nothing Herald can publish to: ${result.message}`, 'PERMISSION_MISSING');
        }
        throw errors.platform(`${platform} could not complete the connection: ${result.message}`, { category: result.category });
      }
      if (result.accounts.length === 0) {
        throw errors.unprocessable(undefined, `the ${platform} authorization gave access to no account Herald can publish to`, 'NO_ACCOUNTS');
      }
      try {
        await saveAccounts(caller.id, platform, result.accounts);
      } catch (err) {
        // Two connections of the same account at once (PostgreSQL, read committed): both found no row and
        // the second insert lost. Once more, the row is there and is updated in place.
        if (!isUniqueViolation(err)) throw err;
        await saveAccounts(caller.id, platform, result.accounts);
      }
      const accounts = result.accounts.map((a) => ({ platform, accountId: a.accountId, username: a.username }));
      return { ...accounts[0]!, accounts };
    },
  };

  async function saveAccounts(apiKeyId: string, platform: Platform, connected: ConnectedAccount[]) {
    const now = clock.now();
    await write(async (trx) => {
      const events: CatalogEvent[] = [];
      for (const a of connected) {
        const existing = await trx
          .selectFrom('accounts')
          .select(['id', 'refresh_token'])
          .where('api_key_id', '=', apiKeyId)
          .where('platform', '=', platform)
          .where('account_id', '=', a.accountId)
          .executeTakeFirst();
        const id = existing?.id ?? newId('acc');
        const profile = {
          username: a.username,
          display_name: a.displayName ?? null,
          avatar_url: a.avatarUrl ?? null,
          status: 'active' as const,
          meta: JSON.stringify(a.meta),
          updated_at: now,
        };
        if (existing) {
          await trx.updateTable('accounts').set({ ...profile, ...sealGrant(box, id, a.grant, existing.refresh_token) }).where('id', '=', id).execute();
        } else {
          await trx
            .insertInto('accounts')
            .values({
              id,
              api_key_id: apiKeyId,
              platform,
              account_id: a.accountId,
              refresh_expires_at: null,
              connected_at: now,
              ...profile,
              ...sealGrant(box, id, a.grant, null),
            })
            .execute();
        }
        events.push(accountConnected({ platform, accountId: a.accountId, username: a.username }));
      }
      await outbox.record(trx, apiKeyId, events);
    });
  }
}

export type ConnectService = ReturnType<typeof createConnectService>;
