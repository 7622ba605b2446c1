// GET /v1/webhooks/deliveries: keyset pages, newest first, within the 30-day retention (enforced here
// as well as by the worker's purge, so an overdue purge never shows older rows).
import { errors } from '../contract/errors.ts';
import type { Clock } from '../lib/clock.ts';
import { decodeCursor, encodeCursor } from '../contract/cursor.ts';
import type { DeliveriesDal } from './deliveries-dal.ts';
import { RETENTION_MS } from './delivery.ts';
import { presentDelivery, presentDetail } from './present.ts';
import type { ListDeliveriesInput } from './schemas.ts';

export function createDeliveriesReader(deps: { clock: Clock; dal: Pick<DeliveriesDal, 'list' | 'findOwned' | 'attemptsOf'> }) {
  const { clock, dal } = deps;
  return {
    async list(apiKeyId: string, query: ListDeliveriesInput) {
      const after = query.cursor === undefined ? null : decodeCursor(query.cursor);
      if (query.cursor !== undefined && !after) throw errors.invalid('cursor', 'cursor is not one this API returned; pass back the cursor of the previous page');
      const limit = query.limit ?? 20;
      const { rows, hasMore } = await dal.list(apiKeyId, { status: query.status, event: query.event, createdFrom: clock.now() - RETENTION_MS }, after, limit);
      const last = rows.at(-1);
      return {
        deliveries: rows.map(presentDelivery),
        cursor: hasMore && last ? encodeCursor({ createdAt: last.created_at, id: last.id }) : null,
        hasMore,
      };
    },

    async get(apiKeyId: string, id: string) {
      const row = await dal.findOwned(apiKeyId, id);
      if (!row || row.created_at < clock.now() - RETENTION_MS) throw errors.notFound(`no webhook delivery ${id}`);
      return presentDetail(row, await dal.attemptsOf(id));
    },
  };
}

export type DeliveriesReader = ReturnType<typeof createDeliveriesReader>;
