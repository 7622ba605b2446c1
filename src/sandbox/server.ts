// Runs emulators on their own HTTP server: each at /<name>, sample media at /media.
// Used by `herald sandbox`, the integration tests and the crash script (the emulators must outlive a
// killed Herald so their ledgers can prove nothing was posted twice).
import Fastify, { type FastifyInstance } from 'fastify';
import type { Emulator } from './kit/emulator.ts';
import { mediaRoutes } from './media.ts';

export interface EmulatorServer {
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  /** Root of one emulator, e.g. http://127.0.0.1:41234/twitter */
  rootOf(name: string): string;
  /** Root of the sample media, e.g. http://127.0.0.1:41234/media */
  mediaUrl: string;
  app: FastifyInstance;
  close(): Promise<void>;
}

export async function startEmulatorServer(
  emulators: readonly Emulator[],
  options: { host?: string; port?: number } = {},
): Promise<EmulatorServer> {
  const app = Fastify({ logger: false, bodyLimit: 64 * 1024 * 1024, forceCloseConnections: true });
  for (const emu of emulators) await app.register(emu.plugin, { prefix: `/${emu.name}` });
  await app.register(mediaRoutes, { prefix: '/media' });
  await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const url = `http://${options.host ?? '127.0.0.1'}:${port}`;
  return {
    url,
    rootOf: (name) => `${url}/${name}`,
    mediaUrl: `${url}/media`,
    app,
    close: () => app.close(),
  };
}
