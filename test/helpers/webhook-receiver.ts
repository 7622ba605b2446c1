// A real webhook receiver on 127.0.0.1 for tests: keeps every request's raw bytes and headers, and
// answers as the test scripts it (status, delay, redirect).
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HANG_CAP_MS } from './wait.ts';

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  raw: Buffer;
  json: any;
  at: number;
}

export interface Reply {
  status: number;
  delayMs?: number;
  headers?: Record<string, string>;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Answers for the next requests, in order; afterwards `fallback`. */
  script(...replies: Reply[]): void;
  fallback: Reply;
  /** Resolves once `n` requests arrived (rejects after `timeoutMs`: a hang, not slowness). */
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>;
  /** Requests whose body has this event name. */
  ofEvent(event: string): Received[];
  close(): Promise<void>;
}

export async function startReceiver(path = '/hooks'): Promise<Receiver> {
  const received: Received[] = [];
  const queue: Reply[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const receiver = { fallback: { status: 200 } as Reply } as Receiver;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      let json: unknown = null;
      try {
        json = JSON.parse(raw.toString('utf8'));
      } catch {
        json = null;
      }
      received.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, raw, json, at: Date.now() });
      for (const w of waiters.filter((w) => received.length >= w.n)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
      const reply = queue.shift() ?? receiver.fallback;
      const answer = () => {
        if (res.destroyed) return;
        res.writeHead(reply.status, { 'content-type': 'text/plain', ...reply.headers });
        res.end('ok');
      };
      if (reply.delayMs) setTimeout(answer, reply.delayMs).unref();
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}${path}`,
    received,
    script: (...replies: Reply[]) => void queue.push(...replies),
    waitFor(n: number, timeoutMs = HANG_CAP_MS) {
      if (received.length >= n) return Promise.resolve(received.slice());
      return new Promise<Received[]>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`receiver got ${received.length} of ${n} requests in ${timeoutMs} ms`)), timeoutMs);
        waiters.push({
          n,
          resolve: () => {
            clearTimeout(timer);
            resolve(received.slice());
          },
        });
      });
    },
    ofEvent: (event: string) => received.filter((r) => r.json?.event === event),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
