// A TCP proxy on 127.0.0.1 in front of a real server (the S3-compatible test server, a PDS, …) that can be
// made to stall: while stalled it accepts connections and reads what is sent, and never answers, as a
// store or instance does when it hangs. Connections open when it stalls are cut, so a client's kept-alive
// sockets do not slip past. `resume()` forwards again.
import { createServer, connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface StallProxy {
  /** http://127.0.0.1:<port> */
  url: string;
  stall(): void;
  resume(): void;
  /** Connections accepted while stalled (each one a request that got no answer). */
  stalledConnections(): number;
  close(): Promise<void>;
}

export async function startStallProxy(target: string): Promise<StallProxy> {
  const { hostname, port } = new URL(target);
  let stalled = false;
  let stalledCount = 0;
  const open = new Set<Socket>();
  const server = createServer((client) => {
    open.add(client);
    client.on('close', () => open.delete(client));
    client.on('error', () => {});
    if (stalled) {
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
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stall() {
      stalled = true;
      for (const socket of open) socket.destroy();
    },
    resume() {
      stalled = false;
      for (const socket of open) socket.destroy();
    },
    stalledConnections: () => stalledCount,
    async close() {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
