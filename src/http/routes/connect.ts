// /v1/connect/{platform}: start an OAuth authorization, then exchange its code (or, for platforms that
// connect with an app password, send it).
import Type from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { ConnectService } from '../../accounts/connect-service.ts';
import { PlatformName } from '../../platforms/registry.ts';
import { callerOf } from '../fastify-types.ts';
import { ErrorA, commonErrorsA } from '../../contract/schemas.ts';
import { component, ref } from '../../contract/components.ts';

const security = [{ bearerAuth: [] }];
const Params = Type.Object({ platform: PlatformName }, { additionalProperties: false });
const ConnectedRef = Type.Object({ platform: PlatformName, accountId: Type.String(), username: Type.String() });
const ConnectStart = ref(component('ConnectStart', Type.Object({ authUrl: Type.String(), state: Type.String() })));
const ConnectResult = ref(
  component('ConnectResult', Type.Object({ platform: PlatformName, accountId: Type.String(), username: Type.String(), accounts: Type.Array(ConnectedRef) })),
);

export function connectRoutes(connect: ConnectService) {
  return async (base: FastifyInstance) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.get(
      '/connect/:platform',
      {
        schema: {
          tags: ['accounts'],
          operationId: 'startConnect',
          summary: 'Start connecting an account: returns the URL to send the user to.',
          description: 'Platforms whose accounts live on a server the user names need `instance`. Platforms that connect with an app password answer 400 APP_PASSWORD_REQUIRED: use POST.',
          security,
          params: Params,
          querystring: Type.Object(
            {
              redirect_url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: "Where the platform sends the user back (default: the key's)." })),
              instance: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: 'The URL of the server the account lives on (platforms whose accounts live on a server the user names), e.g. https://social.example.' })),
            },
            { additionalProperties: false },
          ),
          response: { 200: ConnectStart, ...commonErrorsA },
        },
      },
      async (req) => {
        const { platform } = req.params;
        return connect.start(callerOf(req), platform, req.query);
      },
    );

    app.post(
      '/connect/:platform',
      {
        schema: {
          tags: ['accounts'],
          operationId: 'completeConnect',
          summary: 'Finish connecting: exchange the code from the callback (or send an app password); connects every account of the grant.',
          description: 'OAuth platforms take `code` (with `state` or `redirect_url`). App-password platforms take `identifier`, `appPassword` and optionally `service` (the server, default the configured one).',
          security,
          params: Params,
          body: Type.Object(
            {
              code: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, description: 'The code from the callback (OAuth platforms).' })),
              redirect_url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })),
              state: Type.Optional(Type.String({ minLength: 1, maxLength: 512, description: 'The state from GET /v1/connect; recommended.' })),
              identifier: Type.Optional(Type.String({ minLength: 1, maxLength: 320, description: 'Handle or email (app-password platforms).' })),
              appPassword: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'An app password (app-password platforms).' })),
              service: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: 'The server to sign in on (app-password platforms).' })),
            },
            { additionalProperties: false },
          ),
          response: {
            200: ConnectResult,
            422: ErrorA,
            502: ErrorA,
            ...commonErrorsA,
          },
        },
      },
      async (req) => {
        const { platform } = req.params;
        return connect.complete(callerOf(req), platform, req.body);
      },
    );
  };
}
