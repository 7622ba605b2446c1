// /v1/webhooks: settings, the secret, the delivery log with redelivery, and test sends (API.md section 7).
import Type from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { DeliveriesReader } from '../../webhooks/deliveries-read.ts';
import type { WebhookDelivery } from '../../webhooks/delivery.ts';
import { presentDelivery } from '../../webhooks/present.ts';
import * as schemas from '../../webhooks/schemas.ts';
import { DeliveryIdParams, ListDeliveriesQuery, type SaveSettingsBodyInput } from '../../webhooks/schemas.ts';
import type { WebhookSettings } from '../../webhooks/webhooks-settings.ts';
import { callerOf } from '../fastify-types.ts';
import { ErrorA, commonErrorsA } from '../../contract/schemas.ts';
import { component, ref } from '../../contract/components.ts';

const security = [{ bearerAuth: [] }];
const tags = ['webhooks'];

// The named schemas of this resource in the OpenAPI document.
const SaveSettingsBody = ref(component('WebhookSettingsRequest', schemas.SaveSettingsBody));
const SettingsObject = ref(component('WebhookSettings', schemas.SettingsObject));
const DeliveryObject = ref(component('WebhookDelivery', schemas.DeliveryObject));
const DeliveryDetail = ref(component('WebhookDeliveryDetail', schemas.DeliveryDetail));
const DeliveryPage = ref(component('WebhookDeliveryPage', schemas.DeliveryPage));
const TestBody = ref(component('WebhookTestRequest', schemas.TestBody));
const TestResult = ref(component('WebhookTestResult', schemas.TestResult));

export interface WebhookRouteDeps {
  settings: WebhookSettings;
  delivery: Pick<WebhookDelivery, 'redeliver' | 'test'>;
  reader: DeliveriesReader;
}

export function webhooksRoutes(deps: WebhookRouteDeps) {
  const { settings, delivery, reader } = deps;
  return async (base: FastifyInstance) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.post(
      '/webhooks/settings',
      {
        schema: {
          tags,
          operationId: 'saveWebhookSettings',
          summary: 'Create or replace the webhook settings of this key; the first save generates the signing secret.',
          security,
          body: SaveSettingsBody,
          response: { 200: SettingsObject, ...commonErrorsA },
        },
      },
      async (req) => settings.save(callerOf(req).id, req.body as SaveSettingsBodyInput),
    );

    app.get(
      '/webhooks/settings',
      { schema: { tags, operationId: 'getWebhookSettings', summary: 'The webhook settings of this key, secret included.', security, response: { 200: SettingsObject, ...commonErrorsA } } },
      async (req) => settings.get(callerOf(req).id),
    );

    app.delete(
      '/webhooks/settings',
      {
        schema: {
          tags,
          operationId: 'deleteWebhookSettings',
          summary: 'Remove the webhook settings; deliveries still waiting are marked failed.',
          security,
          response: { 200: Type.Object({ deleted: Type.Boolean() }), ...commonErrorsA },
        },
      },
      async (req) => settings.remove(callerOf(req).id),
    );

    app.post(
      '/webhooks/secret/rotate',
      {
        schema: {
          tags,
          operationId: 'rotateWebhookSecret',
          summary: 'Replace the signing secret with a new generated one; every later attempt is signed with it.',
          security,
          response: { 200: SettingsObject, ...commonErrorsA },
        },
      },
      async (req) => settings.rotate(callerOf(req).id),
    );

    app.get(
      '/webhooks/deliveries',
      {
        schema: {
          tags,
          operationId: 'listWebhookDeliveries',
          summary: 'List deliveries of the last 30 days, newest first, with keyset pagination.',
          security,
          querystring: ListDeliveriesQuery,
          response: { 200: DeliveryPage, ...commonErrorsA },
        },
      },
      async (req) => reader.list(callerOf(req).id, req.query),
    );

    app.get(
      '/webhooks/deliveries/:id',
      {
        schema: {
          tags,
          operationId: 'getWebhookDelivery',
          summary: 'One delivery with the result of every attempt.',
          security,
          params: DeliveryIdParams,
          response: { 200: DeliveryDetail, ...commonErrorsA },
        },
      },
      async (req) => reader.get(callerOf(req).id, req.params.id),
    );

    app.post(
      '/webhooks/deliveries/:id/redeliver',
      {
        schema: {
          tags,
          operationId: 'redeliverWebhook',
          summary: 'Send one more attempt of a delivery now (same event id and body); answers the updated delivery.',
          security,
          params: DeliveryIdParams,
          response: { 200: DeliveryObject, 409: ErrorA, ...commonErrorsA },
        },
      },
      async (req) => presentDelivery(await delivery.redeliver(callerOf(req).id, req.params.id)),
    );

    app.post(
      '/webhooks/test',
      {
        schema: {
          tags,
          operationId: 'testWebhook',
          summary: 'Send a signed sample of an event to the configured URL now and report the outcome.',
          security,
          body: TestBody,
          response: { 200: TestResult, ...commonErrorsA },
        },
      },
      async (req) => delivery.test(callerOf(req).id, req.body.event),
    );
  };
}
