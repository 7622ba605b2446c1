// Data access for connecting accounts: OAuth states, Herald's apps on user-named servers, and the
// accounts a grant connects. Secrets arrive sealed; this file never sees a plaintext token.
import type { Kysely } from 'kysely';
import type { AccountsTable, Database, DbTx, OAuthStatesTable, PlatformAppRow } from '../db/schema.ts';

export interface StateQuery {
  apiKeyId: string;
  platform: string;
  now: number;
  stateHash?: string;
  redirectUrl?: string;
}

/** An account row's profile and sealed grant, as a connection writes it. */
export type AccountWrite = Pick<
  AccountsTable,
  'username' | 'display_name' | 'avatar_url' | 'status' | 'meta' | 'updated_at' | 'access_token' | 'refresh_token' | 'token_expires_at' | 'scopes'
> &
  Partial<Pick<AccountsTable, 'refresh_expires_at'>>;

export function createConnectDal(deps: { db: Kysely<Database> }) {
  const { db } = deps;
  return {
    async insertState(trx: DbTx, row: OAuthStatesTable): Promise<void> {
      await trx.insertInto('oauth_states').values(row).execute();
    },

    /** The newest unused, unexpired state matching the query. */
    async findState(q: StateQuery) {
      let query = db
        .selectFrom('oauth_states')
        .selectAll()
        .where('api_key_id', '=', q.apiKeyId)
        .where('platform', '=', q.platform)
        .where('used_at', 'is', null)
        .where('expires_at', '>', q.now);
      if (q.stateHash !== undefined) query = query.where('state_hash', '=', q.stateHash);
      if (q.redirectUrl !== undefined) query = query.where('redirect_url', '=', q.redirectUrl);
      return query.orderBy('created_at', 'desc').limit(1).executeTakeFirst();
    },

    /** Marks a state used; false when another request used it first. */
    async takeState(trx: DbTx, stateHash: string, now: number): Promise<boolean> {
      const res = await trx.updateTable('oauth_states').set({ used_at: now }).where('state_hash', '=', stateHash).where('used_at', 'is', null).executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },

    async purgeStates(trx: DbTx, now: number): Promise<number> {
      const res = await trx.deleteFrom('oauth_states').where('expires_at', '<', now).executeTakeFirst();
      return Number(res.numDeletedRows);
    },

    async findApp(platform: string, serverUrl: string, redirectUrl: string): Promise<PlatformAppRow | undefined> {
      return db
        .selectFrom('platform_apps')
        .selectAll()
        .where('platform', '=', platform)
        .where('server_url', '=', serverUrl)
        .where('redirect_url', '=', redirectUrl)
        .executeTakeFirst();
    },

    async appById(id: string): Promise<PlatformAppRow | undefined> {
      return db.selectFrom('platform_apps').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async insertApp(trx: DbTx, row: PlatformAppRow): Promise<void> {
      await trx.insertInto('platform_apps').values(row).execute();
    },

    /** The row of an account if this key has connected it before: its id and sealed refresh token. */
    async existingAccount(trx: DbTx, apiKeyId: string, platform: string, accountId: string) {
      return trx
        .selectFrom('accounts')
        .select(['id', 'refresh_token'])
        .where('api_key_id', '=', apiKeyId)
        .where('platform', '=', platform)
        .where('account_id', '=', accountId)
        .executeTakeFirst();
    },

    /** A reconnect: new tokens in place; a refresh in flight loses its lease, so it cannot overwrite them. */
    async updateAccount(trx: DbTx, id: string, values: AccountWrite): Promise<void> {
      await trx.updateTable('accounts').set({ ...values, refresh_lease_id: null, refresh_lease_until: null }).where('id', '=', id).execute();
    },

    async insertAccount(trx: DbTx, row: AccountWrite & Pick<AccountsTable, 'id' | 'api_key_id' | 'platform' | 'account_id' | 'connected_at'>): Promise<void> {
      await trx.insertInto('accounts').values({ refresh_expires_at: null, ...row }).execute();
    },
  };
}

export type ConnectDal = ReturnType<typeof createConnectDal>;
