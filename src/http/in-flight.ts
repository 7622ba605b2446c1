// Requests whose handlers are still running. Closing the server stops new requests and waits for open
// connections, but a handler whose client went away keeps running after its connection closed; shutdown
// waits (bounded) for those too before the database closes under them.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { settleWithin } from '../lib/clock.ts';

export interface InFlight {
  install(app: FastifyInstance): void;
  /** Resolves when every handler has answered, or after `ms`. */
  drain(ms: number): Promise<void>;
}

export function createInFlight(): InFlight {
  const running = new Map<FastifyRequest, { promise: Promise<void>; done(): void }>();
  return {
    install(app) {
      app.addHook('onRequest', async (req) => {
        let done!: () => void;
        const promise = new Promise<void>((resolve) => (done = resolve));
        running.set(req, { promise, done });
      });
      // Every answer passes onSend, errors included, whether or not its client is still there.
      app.addHook('onSend', async (req) => {
        running.get(req)?.done();
        running.delete(req);
      });
    },
    drain: (ms) => settleWithin([...running.values()].map((r) => r.promise), ms),
  };
}
