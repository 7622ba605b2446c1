// herald sandbox: the platform emulators on their own server, and the settings that point Herald at them.
import { createEmulators, sandboxEnv } from '../sandbox/index.ts';
import { startEmulatorServer } from '../sandbox/server.ts';

export async function sandboxCommand(host: string, port: number): Promise<number> {
  const emulators = createEmulators();
  const server = await startEmulatorServer(emulators, { host, port });
  console.log(`Platform emulators on ${server.url}: ${emulators.map((e) => `${server.rootOf(e.name)}`).join(', ')}; media at ${server.mediaUrl}`);
  console.log('Point Herald at them with these settings (every platform):');
  for (const [name, value] of Object.entries(sandboxEnv(server.url))) console.log(`${name}=${value}`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  return -1;
}
