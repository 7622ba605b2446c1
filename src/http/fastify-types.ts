// What Herald adds to Fastify's request and route config.
import type { Caller } from '../keys/keys-service.ts';
import type { PendingKey } from './auth.ts';
import type { ErrorShape } from '../contract/errors.ts';
import type { ClaimRef } from '../idempotency/idempotency-store.ts';
import type { DbTx } from '../db/schema.ts';

export interface IdempotencyContext {
  /** The claim this request holds on its key: what the post and the stored answer are fenced on. */
  claim: ClaimRef;
  /** Set when an earlier request with this key created this post and then vanished. */
  recoveredResourceId?: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
    idempotency: IdempotencyContext | null;
    /** A key not checked yet, to be checked with the idempotency claim (see auth.ts). */
    pendingKey: PendingKey | null;
  }
  interface FastifyContextConfig {
    /** Error shape of this route (API.md section 2); default A. */
    errorShape?: ErrorShape;
    /** Honour Idempotency-Key on this route. */
    idempotent?: boolean;
    /**
     * On an idempotent route: a read the handler will need, sent with the key's claim in one round trip
     * where the store can (see IdempotencyStore.claim); undefined when the body gives nothing to read.
     * `apiKeyId`: the key the request names (when it is not authenticated yet, the id its hash had before;
     * the handler uses what was read only for the key it is then called for).
     */
    alongsideClaim?: (req: FastifyRequest, apiKeyId: string) => ((trx: DbTx) => Promise<void>) | undefined;
  }
}

/** The caller of an authenticated route (the auth hook guarantees it). */
export function callerOf(req: { caller: Caller | null }): Caller {
  if (!req.caller) throw new Error('route reached without an authenticated caller');
  return req.caller;
}
