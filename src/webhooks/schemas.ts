// The webhooks API boundary: request bodies, queries, and the settings and delivery objects. Each
// schema validates, types the handler and documents the route in /openapi.json.
import Type, { type Static } from 'typebox';
import { IsoTime, NullableIsoTime } from '../contract/schemas.ts';
import { EVENT_NAMES } from '../events/catalog.ts';

export const EventNameSchema = Type.Enum([...EVENT_NAMES], { description: 'Webhook event name.' });

export const SaveSettingsBody = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 2048, description: 'Absolute http(s) URL; private and loopback addresses are refused.' }),
    events: Type.Array(EventNameSchema, { minItems: 1, maxItems: 50, description: 'The events to send.' }),
    secret: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: '"whsec_" + base64 of 24 to 64 random bytes. Omit to keep the current secret (or get a generated one on the first save).',
      }),
    ),
  },
  { additionalProperties: false },
);
export type SaveSettingsBodyInput = Static<typeof SaveSettingsBody>;

export const SettingsObject = Type.Object({
  url: Type.String(),
  events: Type.Array(EventNameSchema),
  secret: Type.String({ description: 'Signing secret: "whsec_" + base64.' }),
  updatedAt: IsoTime,
  disabledAt: Type.Union([IsoTime, Type.Null()], { description: 'Set when a 410 from the receiver stopped deliveries; saving again clears it.' }),
  disabledReason: Type.Union([Type.String(), Type.Null()]),
});

export const DeliveryStatusName = Type.Enum(['pending', 'delivered', 'failed']);

export const DeliveryObject = Type.Object({
  id: Type.String({ description: 'Delivery id (whd_…).' }),
  eventId: Type.String({ description: 'Event id (evt_…), the same on every attempt; dedupe on it.' }),
  event: EventNameSchema,
  url: Type.String({ description: 'Where the latest attempt went (or, before any, where the event was bound).' }),
  status: DeliveryStatusName,
  attempts: Type.Integer({ description: 'Requests sent so far, redeliveries included.' }),
  lastStatusCode: Type.Union([Type.Integer(), Type.Null()]),
  lastError: Type.Union([Type.String(), Type.Null()]),
  lastDurationMs: Type.Union([Type.Integer(), Type.Null()]),
  nextAttemptAt: Type.Union([IsoTime, Type.Null()], { description: 'When the next automatic attempt is due (pending only).' }),
  createdAt: IsoTime,
  deliveredAt: NullableIsoTime,
});

export const AttemptObject = Type.Object({
  attempt: Type.Integer(),
  redelivery: Type.Boolean(),
  url: Type.String(),
  startedAt: IsoTime,
  statusCode: Type.Union([Type.Integer(), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
  durationMs: Type.Integer(),
});

export const DeliveryDetail = Type.Object({ ...DeliveryObject.properties, history: Type.Array(AttemptObject) });

export const ListDeliveriesQuery = Type.Object(
  {
    status: Type.Optional(DeliveryStatusName),
    event: Type.Optional(EventNameSchema),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
);
export type ListDeliveriesInput = Static<typeof ListDeliveriesQuery>;

export const DeliveryPage = Type.Object({
  deliveries: Type.Array(DeliveryObject),
  cursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass back to get the next page; null on the last page.' }),
  hasMore: Type.Boolean(),
});

export const DeliveryIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });

export const TestBody = Type.Object({ event: EventNameSchema }, { additionalProperties: false });

export const TestResult = Type.Object({
  delivered: Type.Boolean(),
  statusCode: Type.Union([Type.Integer(), Type.Null()], { description: 'Null when no answer came (time-out, refused address, connection error).' }),
  durationMs: Type.Integer(),
  error: Type.Optional(Type.String()),
});

export type DeliveryOut = Static<typeof DeliveryObject>;
export type DeliveryDetailOut = Static<typeof DeliveryDetail>;
