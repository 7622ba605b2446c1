// /v1/accounts: list, disconnect, live health.
import Type from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { AccountsService } from '../../accounts/accounts-service.ts';
import { PlatformName } from '../../platforms/registry.ts';
import { ListAccountsQuery } from '../../accounts/schemas.ts';
import { callerOf } from '../fastify-types.ts';
import { IsoTime, Nullable, NullableIsoTime, StringEnum, commonErrorsA } from '../../contract/schemas.ts';
import { component, ref } from '../../contract/components.ts';

const security = [{ bearerAuth: [] }];

const Account = ref(component('Account', Type.Object({
  platform: PlatformName,
  accountId: Type.String(),
  username: Type.String(),
  displayName: Nullable(Type.String()),
  avatarUrl: Nullable(Type.String()),
  connectedAt: IsoTime,
  status: StringEnum(['active', 'needs_reconnect']),
})));

const HealthEntry = ref(component('AccountHealth', Type.Object({
  platform: PlatformName,
  accountId: Type.String(),
  username: Type.String(),
  health: StringEnum(['healthy', 'warning', 'error']),
  tokenValid: Type.Boolean(),
  tokenExpiresAt: NullableIsoTime,
  permissions: Type.Array(Type.String()),
  missingPermissions: Type.Array(Type.String()),
  recommendations: Type.Array(Type.Object({ code: Type.String(), message: Type.String() })),
})));

const AccountList = component('AccountList', Type.Object({ accounts: Type.Array(Account) }));
const HealthList = component('AccountHealthList', Type.Object({ accounts: Type.Array(HealthEntry) }));

export function accountsRoutes(accounts: AccountsService) {
  return async (base: FastifyInstance) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.get(
      '/accounts',
      {
        schema: {
          tags: ['accounts'],
          operationId: 'listAccounts',
          summary: 'List the connected accounts of this key.',
          security,
          querystring: ListAccountsQuery,
          response: { 200: ref(AccountList), ...commonErrorsA },
        },
      },
      async (req) => accounts.list(callerOf(req).id, req.query.platform),
    );

    app.get(
      '/accounts/health',
      {
        schema: {
          tags: ['accounts'],
          operationId: 'getAccountsHealth',
          summary: 'Check every account live with its platform: token, permissions, recommendations.',
          security,
          response: { 200: ref(HealthList), ...commonErrorsA },
        },
      },
      async (req) => accounts.health(callerOf(req).id),
    );

    app.delete(
      '/accounts/:platform/:accountId',
      {
        schema: {
          tags: ['accounts'],
          operationId: 'disconnectAccount',
          summary: 'Disconnect an account: revoke the token at the platform where possible and delete it.',
          security,
          params: Type.Object({ platform: PlatformName, accountId: Type.String({ minLength: 1, maxLength: 256 }) }, { additionalProperties: false }),
          response: { 200: Type.Object({ deleted: Type.Boolean(), revoked: Type.Boolean() }), ...commonErrorsA },
        },
      },
      async (req) => {
        const { platform, accountId } = req.params;
        return accounts.disconnect(callerOf(req).id, platform, accountId);
      },
    );
  };
}
