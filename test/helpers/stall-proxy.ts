// A TCP proxy on 127.0.0.1 in front of a real server (the S3-compatible test server, the emulators, …) that
// can be made to stall: while stalled it accepts connections and reads what is sent, and never answers, as a
// store or instance does when it hangs. Or to refuse: it stops listening, so a connection is refused
// (ECONNREFUSED) as by a host that is down, and nothing reaches the server. Connections open when the mode
// changes are cut, so a client's kept-alive sockets do not slip past. `resume()` forwards again (listening
// again on the same port after a refusal).
import { createServer, connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface StallProxy {
  /** http://127.0.0.1:<port> */
  url: string;
  stall(): void;
  refuse(): Promise<void>;
  resume(): Promise<void>;
  /** Connections accepted while stalled (each one a request that got no answer). */
  stalledConnections(): number;
  close(): Promise<void>;
}

export async function startStallProxy(target: string): Promise<StallProxy> {
  const { hostname, port } = new URL(target);
  let mode: 'forward' | 'stall' | 'refuse' = 'forward';
  let stalledCount = 0;
  const open = new Set<Socket>();
  const server = createServer((client) => {
    open.add(client);
    client.on('close', () => open.delete(client));
    client.on('error', () => {});
    if (mode === 'stall') {
      stalledCount++;
      client.resume(); // read and drop: the request is taken, the answer never comes
      return;
    }
    const upstream = connect(Number(port), hostname);
    open.add(upstream);
    upstream.on('close', () => open.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const listenPort = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${listenPort}`,
    stall() {
      mode = 'stall';
      for (const socket of open) socket.destroy();
    },
    async refuse() {
      mode = 'refuse';
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of open) socket.destroy();
      await closed;
    },
    async resume() {
      const was = mode;
      mode = 'forward';
      for (const socket of open) socket.destroy();
      if (was === 'refuse') await new Promise<void>((resolve, reject) => server.once('error', reject).listen(listenPort, '127.0.0.1', () => (server.off('error', reject), resolve())));
    },
    stalledConnections: () => stalledCount,
    async close() {
      for (const socket of open) socket.destroy();
      if (mode !== 'refuse') await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
