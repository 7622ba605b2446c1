// /v1/accounts: list, disconnect, live health.
import Type from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { AccountsService } from '../../accounts/accounts-service.ts';
import { PlatformName } from '../../posts/schemas.ts';
import { callerOf } from '../fastify-types.ts';
import { IsoTime, Nullable, NullableIsoTime, StringEnum, commonErrorsA } from '../../contract/schemas.ts';

const security = [{ bearerAuth: [] }];

const Account = Type.Object({
  platform: PlatformName,
  accountId: Type.String(),
  username: Type.String(),
  displayName: Nullable(Type.String()),
  avatarUrl: Nullable(Type.String()),
  connectedAt: IsoTime,
  status: StringEnum(['active', 'needs_reconnect']),
});

const HealthEntry = Type.Object({
  platform: PlatformName,
  accountId: Type.String(),
  username: Type.String(),
  health: StringEnum(['healthy', 'warning', 'error']),
  tokenValid: Type.Boolean(),
  tokenExpiresAt: NullableIsoTime,
  permissions: Type.Array(Type.String()),
  missingPermissions: Type.Array(Type.String()),
  recommendations: Type.Array(Type.Object({ code: Type.String(), message: Type.String() })),
});

export function accountsRoutes(accounts: AccountsService) {
  return async (base: FastifyInstance) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.get(
      '/accounts',
      {
        schema: {
          tags: ['accounts'],
          summary: 'List the connected accounts of this key.',
          security,
          querystring: Type.Object({ platform: Type.Optional(PlatformName) }, { additionalProperties: false }),
          response: { 200: Type.Object({ accounts: Type.Array(Account) }), ...commonErrorsA },
        },
      },
      async (req) => accounts.list(callerOf(req).id, req.query.platform),
    );

    app.get(
      '/accounts/health',
      {
        schema: {
          tags: ['accounts'],
          summary: 'Check every account live with its platform: token, permissions, recommendations.',
          security,
          response: { 200: Type.Object({ accounts: Type.Array(HealthEntry) }), ...commonErrorsA },
        },
      },
      async (req) => accounts.health(callerOf(req).id),
    );

    app.delete(
      '/accounts/:platform/:accountId',
      {
        schema: {
          tags: ['accounts'],
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
