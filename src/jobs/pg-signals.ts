// How worker processes on PostgreSQL learn of new jobs without polling: the enqueuing transaction sends a
// NOTIFY on one channel (table-queue.ts, in the same statement as the insert), which PostgreSQL delivers
// at commit, and only if it commits. Each worker process holds one connection that LISTENs. The payload
// names each queue and the earliest due time of its new jobs, so a worker can sleep until a scheduled
// job is due instead of asking the database every second.
//
// A notification can be lost while the listening connection is down. The listener reconnects with a
// capped back-off and then tells the queue to look at every queue once (onResync); the queue's slow
// backstop poll covers the rest.
import pg from 'pg';
import type { Logger } from 'pino';

export const JOBS_CHANNEL = 'herald_jobs';

export interface JobSignals {
  /** Starts listening. `onDue(queue, at)`: jobs of `queue` due at `at` (epoch ms) were committed. */
  listen(onDue: (queue: string, at: number) => void, onResync: () => void): Promise<void>;
  close(): Promise<void>;
}

/** The payload for jobs due at these times: `queue@ms` joined by `;` (PostgreSQL caps it at 8000 bytes). */
export function duePayload(due: ReadonlyMap<string, number>): string {
  return [...due].map(([queue, at]) => `${queue}@${Math.floor(at)}`).join(';');
}

export function parseDuePayload(payload: string): [string, number][] {
  const out: [string, number][] = [];
  for (const part of payload.split(';')) {
    const at = part.lastIndexOf('@');
    const ms = Number(part.slice(at + 1));
    if (at > 0 && Number.isFinite(ms)) out.push([part.slice(0, at), ms]);
  }
  return out;
}

export function createPgSignals(options: { connectionString: string; log: Logger }): JobSignals {
  const { log } = options;
  let client: pg.Client | null = null;
  let closed = false;
  let retryTimer: NodeJS.Timeout | null = null;
  let failures = 0;
  let handlers: { onDue: (queue: string, at: number) => void; onResync: () => void } | null = null;

  async function connect(): Promise<void> {
    const c = new pg.Client({ connectionString: options.connectionString, keepAlive: true });
    // Without a listener an error on this idle connection would end the process.
    c.on('error', (err) => drop(c, err));
    c.on('end', () => drop(c, new Error('the LISTEN connection ended')));
    c.on('notification', (msg) => {
      if (msg.channel !== JOBS_CHANNEL || !msg.payload || !handlers) return;
      for (const [queue, at] of parseDuePayload(msg.payload)) handlers.onDue(queue, at);
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${JOBS_CHANNEL}`);
    } catch (err) {
      void c.end().catch(() => {});
      throw err;
    }
    if (closed) {
      await c.end().catch(() => {});
      return;
    }
    client = c;
    failures = 0;
    // Whatever was committed while nobody listened is found by looking once.
    handlers?.onResync();
  }

  function drop(c: pg.Client, err: Error) {
    if (client !== c) return;
    client = null;
    void c.end().catch(() => {});
    if (closed) return;
    log.warn({ err }, 'the job notification connection failed; reconnecting');
    reconnectLater();
  }

  function reconnectLater() {
    if (closed || retryTimer) return;
    const delay = Math.min(30_000, 1000 * 2 ** Math.min(5, failures++));
    retryTimer = setTimeout(() => {
      retryTimer = null;
      connect().catch((err: unknown) => {
        log.warn({ err }, 'could not listen for job notifications; retrying');
        reconnectLater();
      });
    }, delay);
    retryTimer.unref();
  }

  return {
    async listen(onDue, onResync) {
      handlers = { onDue, onResync };
      await connect();
    },
    async close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      retryTimer = null;
      const c = client;
      client = null;
      if (c) await c.end().catch(() => {});
    },
  };
}
