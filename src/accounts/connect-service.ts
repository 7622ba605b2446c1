// Connecting accounts (API.md sections 6 and 11). Three ways, by the platform's `info.connect`:
// - oauth: a single-use, expiring state bound to the key, platform and redirect URL (with the PKCE
//   verifier sealed beside it), then the code exchange;
// - server_oauth: the same on a server the user names (a Mastodon instance), where Herald first registers
//   an app of its own, once per server and redirect URL; the server must pass the outbound address rule;
// - password: an identifier and an app password sent straight to the user's server (Bluesky), no browser.
// Reconnecting updates the account in place and keeps a stored refresh token the new grant lacks.
import { isUniqueViolation } from '../db/dialect.ts';
import type { Writer } from '../db/writer.ts';
import { ApiError, errors } from '../contract/errors.ts';
import type { Clock } from '../lib/clock.ts';
import { pkceChallenge, sha256Hex, type SecretBox } from '../lib/crypto.ts';
import { newId, randomToken } from '../lib/ids.ts';
import type { Caller } from '../keys/keys-service.ts';
import type { ConnectedAccount, ConnectKind, PlatformAdapter, PlatformFailure, ServerApp } from '../platforms/types.ts';
import type { Platform } from '../platforms/registry.ts';
import { accountConnected, type CatalogEvent } from '../events/catalog.ts';
import type { Outbox } from '../webhooks/outbox.ts';
import type { ConnectDal } from './connect-dal.ts';
import { sealGrant } from './credentials.ts';

export const STATE_TTL_MS = 15 * 60_000;

export interface ConnectDeps {
  dal: ConnectDal;
  write: Writer['write'];
  clock: Clock;
  box: SecretBox;
  outbox: Outbox;
  adapters: Record<Platform, PlatformAdapter>;
  /** Platforms that have neither credentials nor the sandbox. */
  unavailable: ReadonlySet<Platform>;
  /**
   * The server a password platform uses when the caller names none (its configured URL); for a server_oauth
   * platform, the example its missing-instance error gives.
   */
  defaultServerUrl(platform: Platform): string;
  /** Why a user-named server may not be reached (the outbound address rule), or null when it may. */
  refuseServer(url: URL): Promise<string | null>;
}

/** The fields POST /v1/connect/{platform} may carry; which are needed depends on the platform. */
export interface CompleteBody {
  code?: string;
  redirect_url?: string;
  state?: string;
  identifier?: string;
  appPassword?: string;
  service?: string;
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
const appSecretContext = (appId: string) => `platform_apps:${appId}:client_secret`;

export function createConnectService(deps: ConnectDeps) {
  const { dal, write, clock, box, outbox, adapters } = deps;

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

  const kindOf = (adapter: PlatformAdapter): ConnectKind => adapter.info.connect ?? 'oauth';

  /**
   * A user-named server: an absolute http(s) URL that passes the address rule. Its origin and path are kept
   * (a server may live below a path, as the built-in sandbox's emulators do); query, fragment and trailing
   * slashes are dropped, so one server is stored under one spelling.
   */
  async function serverUrl(raw: string, param: string): Promise<string> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw errors.invalid(param, `${param} must be the absolute http(s) URL of the server, e.g. https://social.example`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw errors.invalid(param, `${param} must use http or https`);
    if (url.username || url.password) throw errors.invalid(param, `${param} must not contain credentials`);
    const refused = await deps.refuseServer(url);
    if (refused) throw errors.invalid(param, refused);
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  }

  function platformFailure(platform: Platform, what: string, f: PlatformFailure): never {
    throw errors.platform(`${platform} could not ${what}: ${f.message}`, { category: f.category });
  }

  /** Herald's app on a server: registered on first use, then reused (two first uses at once: one wins). */
  async function appOn(platform: Platform, adapter: PlatformAdapter, server: string, redirect: string): Promise<ServerApp & { id: string }> {
    const known = await dal.findApp(platform, server, redirect);
    if (known) return { id: known.id, url: server, clientId: known.client_id, clientSecret: box.open(known.client_secret, appSecretContext(known.id)) };
    const registered = await adapter.registerApp!({ serverUrl: server, redirectUri: redirect });
    if (!registered.ok) platformFailure(platform, `register Herald as an app on ${server}`, registered);
    const id = newId('app');
    try {
      await write((trx) =>
        dal.insertApp(trx, {
          id,
          platform,
          server_url: server,
          redirect_url: redirect,
          client_id: registered.clientId,
          client_secret: box.seal(registered.clientSecret, appSecretContext(id)),
          created_at: clock.now(),
        }),
      );
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      return appOn(platform, adapter, server, redirect);
    }
    return { id, url: server, clientId: registered.clientId, clientSecret: registered.clientSecret };
  }

  async function appById(id: string): Promise<(ServerApp & { id: string }) | null> {
    const row = await dal.appById(id);
    return row ? { id: row.id, url: row.server_url, clientId: row.client_id, clientSecret: box.open(row.client_secret, appSecretContext(row.id)) } : null;
  }

  function connectFailure(platform: Platform, result: PlatformFailure): never {
    if (result.category === 'auth_expired' || result.category === 'content_rejected') {
      throw new ApiError({ status: 400, code: 'OAUTH_CODE_INVALID', param: 'code', message: `${platform} refused the authorization code: ${result.message}` });
    }
    if (result.category === 'permission_missing') {
      // The user approved, but not enough to publish (no Page granted, a scope declined).
      throw errors.unprocessable(undefined, `${platform} connected nothing Herald can publish to: ${result.message}`, 'PERMISSION_MISSING');
    }
    platformFailure(platform, 'complete the connection', result);
  }

  async function finish(apiKeyId: string, platform: Platform, accounts: ConnectedAccount[]) {
    if (accounts.length === 0) {
      throw errors.unprocessable(undefined, `the ${platform} authorization gave access to no account Herald can publish to`, 'NO_ACCOUNTS');
    }
    try {
      await saveAccounts(apiKeyId, platform, accounts);
    } catch (err) {
      // Two connections of the same account at once (PostgreSQL, read committed): both found no row and
      // the second insert lost. Once more, the row is there and is updated in place.
      if (!isUniqueViolation(err)) throw err;
      await saveAccounts(apiKeyId, platform, accounts);
    }
    const refs = accounts.map((a) => ({ platform, accountId: a.accountId, username: a.username }));
    return { ...refs[0]!, accounts: refs };
  }

  /** An app password sent to the user's server: no state, no browser. */
  async function withPassword(caller: Caller, platform: Platform, adapter: PlatformAdapter, body: CompleteBody) {
    for (const field of ['code', 'state', 'redirect_url'] as const) {
      if (body[field] !== undefined) throw errors.invalid(field, `${platform} connects with an app password, not OAuth: send identifier and appPassword`);
    }
    if (!body.identifier) throw errors.missing('identifier', `identifier is required: your ${platform} handle or email`);
    if (!body.appPassword) throw errors.missing('appPassword', `appPassword is required: an app password made in your ${platform} settings`);
    const server = body.service === undefined ? deps.defaultServerUrl(platform) : await serverUrl(body.service, 'service');
    const result = await adapter.connectWithPassword!({ identifier: body.identifier, password: body.appPassword, serverUrl: server });
    if (!result.ok) {
      if (result.category === 'auth_expired') {
        throw new ApiError({ status: 400, code: 'CREDENTIALS_INVALID', param: 'appPassword', message: `${platform} refused the identifier or app password: ${result.message}` });
      }
      platformFailure(platform, `sign in on ${server}`, result);
    }
    return finish(caller.id, platform, result.accounts);
  }

  return {
    /** Deletes states past their expiry, used or not: they can never complete a connection again. */
    async purgeExpired(): Promise<number> {
      return write((trx) => dal.purgeStates(trx, clock.now()));
    },

    /** Herald's app on a user-named server, for the credentials of accounts there. */
    appById,

    async start(caller: Caller, platform: Platform, query: { redirect_url?: string; instance?: string }) {
      const adapter = adapterFor(platform);
      const kind = kindOf(adapter);
      if (kind === 'password') {
        throw new ApiError({
          status: 400,
          code: 'APP_PASSWORD_REQUIRED',
          message: `${platform} connects with an app password, not a browser step: POST /v1/connect/${platform} with {"identifier", "appPassword", "service"?}`,
        });
      }
      const redirect = checkRedirect(query.redirect_url ?? caller.defaultRedirectUrl, 'redirect_url');
      if (kind === 'oauth' && query.instance !== undefined) throw errors.invalid('instance', `${platform} has no servers to choose: leave instance out`);
      let server: (ServerApp & { id: string }) | undefined;
      if (kind === 'server_oauth') {
        if (!query.instance) throw errors.missing('instance', `instance is required: the URL of your ${platform} server, e.g. ${deps.defaultServerUrl(platform)}`);
        server = await appOn(platform, adapter, await serverUrl(query.instance, 'instance'), redirect);
      }
      const state = randomToken(32);
      const stateHash = sha256Hex(state);
      const verifier = adapter.info.usesPkce ? randomToken(48) : null;
      const now = clock.now();
      await write((trx) =>
        dal.insertState(trx, {
          state_hash: stateHash,
          api_key_id: caller.id,
          platform,
          redirect_url: redirect,
          code_verifier: verifier ? box.seal(verifier, verifierContext(stateHash)) : null,
          server_app_id: server?.id ?? null,
          created_at: now,
          expires_at: now + STATE_TTL_MS,
          used_at: null,
        }),
      );
      const authUrl = adapter.authorizeUrl({
        state,
        redirectUri: redirect,
        ...(verifier ? { codeChallenge: pkceChallenge(verifier) } : {}),
        ...(server ? { server } : {}),
      });
      return { authUrl, state };
    },

    async complete(caller: Caller, platform: Platform, body: CompleteBody) {
      const adapter = adapterFor(platform);
      if (kindOf(adapter) === 'password') return withPassword(caller, platform, adapter, body);
      for (const field of ['identifier', 'appPassword', 'service'] as const) {
        if (body[field] !== undefined) throw errors.invalid(field, `${platform} connects through OAuth: send the code from the callback, not ${field}`);
      }
      if (!body.code) throw errors.missing('code', 'code is required: the code the platform sent to your redirect URL');
      const now = clock.now();
      const redirect = body.redirect_url ?? caller.defaultRedirectUrl ?? undefined;
      if (redirect !== undefined) checkRedirect(redirect, 'redirect_url');
      if (redirect === undefined && body.state === undefined) {
        throw errors.missing('redirect_url', 'send redirect_url (or state) so Herald can find the authorization you started');
      }
      const stateRow = await dal.findState({
        apiKeyId: caller.id,
        platform,
        now,
        ...(body.state !== undefined ? { stateHash: sha256Hex(body.state) } : {}),
        ...(redirect !== undefined ? { redirectUrl: redirect } : {}),
      });
      if (!stateRow) throw stateError();
      // Single use, even when two requests race with the same state.
      if (!(await write((trx) => dal.takeState(trx, stateRow.state_hash, now)))) throw stateError();

      const codeVerifier = stateRow.code_verifier ? box.open(stateRow.code_verifier, verifierContext(stateRow.state_hash)) : undefined;
      const server = stateRow.server_app_id ? await appById(stateRow.server_app_id) : null;
      if (stateRow.server_app_id && !server) throw stateError();
      const result = await adapter.connect({
        code: body.code,
        redirectUri: stateRow.redirect_url,
        ...(codeVerifier ? { codeVerifier } : {}),
        ...(server ? { server } : {}),
      });
      if (!result.ok) connectFailure(platform, result);
      // Accounts on a user-named server remember which app of Herald's they were connected through.
      const accounts = server ? result.accounts.map((a) => ({ ...a, meta: { ...a.meta, serverAppId: server.id } })) : result.accounts;
      return finish(caller.id, platform, accounts);
    },
  };

  async function saveAccounts(apiKeyId: string, platform: Platform, connected: ConnectedAccount[]) {
    const now = clock.now();
    await write(async (trx) => {
      const events: CatalogEvent[] = [];
      for (const a of connected) {
        const existing = await dal.existingAccount(trx, apiKeyId, platform, a.accountId);
        const id = existing?.id ?? newId('acc');
        const values = {
          username: a.username,
          display_name: a.displayName ?? null,
          avatar_url: a.avatarUrl ?? null,
          status: 'active' as const,
          meta: JSON.stringify(a.meta),
          updated_at: now,
          ...sealGrant(box, id, a.grant, existing?.refresh_token ?? null),
        };
        if (existing) await dal.updateAccount(trx, id, values);
        else await dal.insertAccount(trx, { id, api_key_id: apiKeyId, platform, account_id: a.accountId, connected_at: now, ...values });
        events.push(accountConnected({ platform, accountId: a.accountId, username: a.username }));
      }
      await outbox.record(trx, apiKeyId, events);
    });
  }
}

export type ConnectService = ReturnType<typeof createConnectService>;
