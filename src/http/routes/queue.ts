// /v1/queue: the key's weekly posting slots (API.md section 12).
import Type from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { DAYS } from '../../queue/queue-slots.ts';
import { MAX_SLOTS, type QueueService } from '../../queue/queue-service.ts';
import { IsoTime, StringEnum, commonErrorsA } from '../../contract/schemas.ts';
import { callerOf } from '../fastify-types.ts';
import { component, ref } from '../../contract/components.ts';

const security = [{ bearerAuth: [] }];
const SlotSchema = Type.Object(
  {
    day: StringEnum(DAYS, { description: 'Day of the week.' }),
    time: Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'HH:MM, 24-hour, in the queue time zone.' }),
  },
  { additionalProperties: false },
);
const QueueBody = ref(component('QueueRequest', Type.Object(
  {
    timezone: Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone of the slots, e.g. Europe/Paris.' }),
    slots: Type.Array(SlotSchema, { maxItems: MAX_SLOTS }),
  },
  { additionalProperties: false },
)));
const QueueObject = ref(component('Queue', Type.Object({
  timezone: Type.String(),
  slots: Type.Array(SlotSchema),
  upcoming: Type.Array(IsoTime, { description: 'The next 10 slots no queued post holds, UTC.' }),
})));

export function queueRoutes(queue: QueueService) {
  return async (base: FastifyInstance) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.put(
      '/queue',
      {
        schema: {
          tags: ['queue'],
          operationId: 'setQueue',
          summary: 'Set the weekly queue slots; a post created with queue: true takes the next free one.',
          description:
            'Slots follow daylight saving. A slot in the hour skipped in spring falls after the jump by the length of the gap (02:30 becomes 03:30); a slot in the hour repeated in autumn happens once, at its first occurrence.',
          security,
          body: QueueBody,
          response: { 200: QueueObject, ...commonErrorsA },
        },
      },
      async (req) => queue.put(callerOf(req).id, req.body),
    );
    app.get(
      '/queue',
      { schema: { tags: ['queue'], operationId: 'getQueue', summary: 'The queue slots and the next 10 free slot times.', security, response: { 200: QueueObject, ...commonErrorsA } } },
      async (req) => queue.get(callerOf(req).id),
    );
    app.delete(
      '/queue',
      {
        schema: {
          tags: ['queue'],
          operationId: 'deleteQueue',
          summary: 'Remove the queue (queued posts keep their times).',
          security,
          response: { 200: Type.Object({ deleted: Type.Boolean() }), ...commonErrorsA },
        },
      },
      async (req) => queue.remove(callerOf(req).id),
    );
  };
}
